// The dashboards in webview panels: one per environment (the registry, and VS Code's restore),
// each with its HTML shell, assets and strings, the `ready` handshake, and every message from
// the webview checked before anything is done with it.
import * as vscode from 'vscode';
import type { UsageSummary } from '../api/types';
import { currentLocale } from '../core/l10n';
import { currentPeriod } from '../core/period';
import { DEFAULT_DETAILS_PAGE_SIZE, DEFAULT_KEY_SORT } from '../core/records';
import { safeText } from '../core/text';
import { WebviewErrorReports } from '../core/webviewErrors';
import { Commands, WebviewTypes } from '../shared/constants';
import type { Services } from '../services';
import { createNonce, dashboardHtml } from '../shared/webviewShell';
import { tabIcon } from '../ui/ui';
import type { DashboardHooks } from './dashboard';
import { Dashboard } from './dashboard';
import { Exporter } from './exporter';
import type { HostMessage, UiStringKey, UiStrings, ViewState, WebviewTiming } from './protocol';
import { parseViewState, parseWebviewMessage } from './protocol';

export interface PanelHooks extends Pick<
  DashboardHooks,
  'saved' | 'save' | 'history' | 'keyBudgets' | 'keysLoaded' | 'crossingFound'
> {
  summaryLoaded?(environmentId: string, summary: UsageSummary): void;
  disposed(panel: DashboardPanel): void;
}

export class DashboardPanel implements vscode.Disposable {
  readonly dashboard: Dashboard;
  readonly exporter: Exporter;
  /** The webview said `ready` (its script runs) since it was last (re)loaded. */
  ready = false;
  private readonly errorReports = new WebviewErrorReports();
  private postScheduled = false;
  /** The service address the shown data came from: a new one means reading everything again. */
  private baseUrl?: string;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly services: Services,
    readonly panel: vscode.WebviewPanel,
    view: ViewState,
    private readonly hooks: PanelHooks,
    /** The webview's script and style sheet, written into its HTML (see src/shared/webviewShell.ts). */
    assets: DashboardAssets,
  ) {
    this.services.recorder.panelMark(panel, 'createdAt');
    const extensionUri = services.context.extensionUri;
    const webview = panel.webview;
    webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
    panel.iconPath = tabIcon(extensionUri);
    this.dashboard = new Dashboard(services, view, {
      changed: () => this.schedulePost(),
      summaryLoaded: (id, summary) => hooks.summaryLoaded?.(id, summary),
      saved: hooks.saved,
      save: hooks.save,
      history: hooks.history,
      keyBudgets: hooks.keyBudgets,
      keysLoaded: hooks.keysLoaded,
      crossingFound: hooks.crossingFound,
    });
    this.exporter = new Exporter(services, this.dashboard);
    this.baseUrl = this.dashboard.environment()?.baseUrl;
    this.updateTitle();
    this.subscriptions.push(
      webview.onDidReceiveMessage((message: unknown) => void this.receive(message)),
      panel.onDidDispose(() => this.dispose()),
      services.vault.onDidChange((id) => {
        if (id === this.environmentId) void this.dashboard.load();
      }),
      services.environments.onDidChange(() => this.environmentChanged()),
    );
    services.shown.mark();
    // Fetching starts now, in parallel with the webview's start; data is posted after `ready`.
    void this.dashboard.load();
    webview.html = dashboardHtml({
      cspSource: webview.cspSource,
      ...assets,
      nonce: createNonce(),
      title: panel.title,
      lang: vscode.env.language,
    });
    this.services.recorder.panelMark(panel, 'htmlSetAt');
  }

  get environmentId(): string {
    return this.dashboard.environmentId;
  }

  private environmentChanged(): void {
    const env = this.dashboard.environment();
    const shown = this.dashboard.state.environment;
    const baseUrl = env?.baseUrl;
    const moved = baseUrl !== this.baseUrl;
    this.baseUrl = baseUrl;
    if (!env && this.dashboard.state.blocked?.reason !== 'removed') void this.dashboard.load();
    else if (env && moved) void this.dashboard.load().then(() => this.updateTitle());
    else if (env && (env.label !== shown.label || env.production !== shown.production)) {
      shown.label = env.label;
      shown.production = env.production === true;
      this.updateTitle();
      this.schedulePost();
    }
  }

  private updateTitle(): void {
    this.panel.title = safeText(vscode.l10n.t('Usage: {0}', this.dashboard.state.environment.label));
  }

  /** Handles one message exactly as it came from the webview. Tests call this too. */
  async receive(raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message) return this.reject(raw);
    const dashboard = this.dashboard;
    switch (message.type) {
      case 'ready':
        return this.onReady(message.timing);
      case 'refresh':
        return dashboard.load();
      case 'setPeriod':
        return dashboard.setPeriod(message.period);
      case 'setPage':
        return dashboard.setPage(message.page);
      case 'setPageSize':
        return dashboard.setPageSize(message.pageSize);
      case 'sort':
        return dashboard.sort({ column: message.column, direction: message.direction });
      case 'dismissNotice':
        return dashboard.dismissNotice();
      case 'export':
        return dashboard.track(this.exporter.run(message.format));
      case 'cancelExport':
        return this.exporter.cancel();
      case 'setFilter':
        return dashboard.setFilter(message.filter);
      case 'filterKey':
        return dashboard.filterKey(message.maskedKeyId);
      case 'cancelScan':
        return dashboard.cancelScan();
      case 'breakdown':
        return dashboard.readBreakdown();
      case 'setBreakdown':
        return dashboard.setBreakdown(message.choice);
      case 'command':
        await vscode.commands.executeCommand(
          Commands[message.command],
          ...(message.command === 'replaceKey' ? [this.environmentId] : []),
        );
        return;
      case 'webviewError':
        return this.logWebviewError(message.message);
    }
  }

  /** A message that is not part of the protocol: dropped, and said in the log (its type only). */
  private reject(raw: unknown): void {
    this.services.recorder.panelRejected(this.panel);
    const type =
      typeof raw === 'object' && raw !== null && typeof (raw as { type?: unknown }).type === 'string'
        ? (raw as { type: string }).type.slice(0, 40)
        : typeof raw;
    this.services.log.warn(`Usage dashboard: ignored a message that is not part of the protocol (${type}).`);
  }

  /** The webview's script runs: it gets its texts, then the state. */
  private onReady(timing: WebviewTiming | undefined): void {
    this.ready = true;
    this.services.recorder.panelReady(this.panel, timing);
    this.post({
      type: 'init',
      locale: currentLocale() ?? vscode.env.language,
      strings: uiStrings(),
      messages: vscode.l10n.bundle,
    });
    this.post({ type: 'update', state: this.dashboard.shown() });
  }

  private logWebviewError(message: string): void {
    const line = this.errorReports.line(message);
    if (line === undefined) return;
    this.services.recorder.panelWebviewError(this.panel, line);
    this.services.log.error(`Usage dashboard webview: ${line}`);
  }

  /** Several changes in one turn become one message. */
  private schedulePost(): void {
    if (this.postScheduled) return;
    this.postScheduled = true;
    queueMicrotask(() => {
      this.postScheduled = false;
      if (this.ready) this.post({ type: 'update', state: this.dashboard.shown() });
    });
  }

  private post(message: HostMessage): void {
    // A snapshot: later changes to the state must not alter what was posted.
    const snapshot = structuredClone(message);
    this.services.recorder.panelPosted(this.panel, snapshot);
    void this.panel.webview.postMessage(snapshot);
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  private disposed = false;

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.dashboard.dispose();
    this.exporter.cancel();
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.hooks.disposed(this);
    this.panel.dispose();
  }
}

// The open dashboards, one per environment: opened by the command (a second open reveals the
// first), restored by VS Code after a window reload (the serializer), closed with the window.
/** What every dashboard is made with: where its last data is kept, the status bar to tell of summaries read. */
export type DashboardsHooks = Omit<PanelHooks, 'disposed'>;

export class Dashboards implements vscode.Disposable {
  private readonly panels = new Map<string, DashboardPanel>();
  /** Dashboards being made (their page may still be loading): a second open reveals the first. */
  private readonly opened = new Map<string, Promise<DashboardPanel>>();

  constructor(
    private readonly services: Services,
    private readonly hooks: DashboardsHooks,
    private readonly assets: () => Promise<DashboardAssets>,
  ) {}

  /** The open dashboard of an environment. */
  get(environmentId: string): DashboardPanel | undefined {
    return this.panels.get(environmentId);
  }

  all(): DashboardPanel[] {
    return [...this.panels.values()];
  }

  /** The serializer: VS Code gives back the panels of the last session after a window reload. */
  registerSerializer(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(WebviewTypes.usageDashboard, {
      deserializeWebviewPanel: async (webviewPanel: vscode.WebviewPanel, saved: unknown) => {
        await this.restore(webviewPanel, saved);
      },
    });
  }

  /** The command: the dashboard of the environment given (an id, or an item with one), else of the active one. */
  async open(arg?: unknown): Promise<void> {
    const { environments: store } = this.services;
    const id = environmentIdOf(arg);
    const env = (id ? store.get(id) : undefined) ?? store.active();
    if (!env) return this.askForEnvironment();
    const existing = this.panels.get(env.id) ?? (await this.opened.get(env.id));
    if (existing) {
      existing.reveal();
      return;
    }
    const panelAt = this.services.recorder.now();
    const webviewPanel = vscode.window.createWebviewPanel(
      WebviewTypes.usageDashboard,
      safeText(vscode.l10n.t('Usage: {0}', env.label)),
      vscode.ViewColumn.Active,
      { enableScripts: true, enableFindWidget: true },
    );
    this.services.recorder.panelMark(webviewPanel, 'panelAt', panelAt);
    const panel = this.createIn(webviewPanel, freshView(env.id));
    this.opened.set(env.id, panel);
    await panel.finally(() => this.opened.delete(env.id));
  }

  /** What the serializer does after a window reload: the saved view state, checked, in the panel VS Code kept. */
  async restore(webviewPanel: vscode.WebviewPanel, saved: unknown): Promise<DashboardPanel | undefined> {
    this.services.recorder.panelMark(webviewPanel, 'panelAt');
    const active = this.services.environments.active();
    const view = parseViewState(saved, currentPeriod()) ?? (active ? freshView(active.id) : undefined);
    const duplicate = view
      ? (this.panels.get(view.environmentId) ?? (await this.opened.get(view.environmentId)))
      : undefined;
    if (!view || duplicate) {
      // Nothing to restore, or this environment's dashboard is open already.
      webviewPanel.dispose();
      duplicate?.reveal();
      return undefined;
    }
    return this.createIn(webviewPanel, view);
  }

  /** Makes a webview panel (a new one, or one VS Code restored) the dashboard of `view`'s environment. */
  private async createIn(webviewPanel: vscode.WebviewPanel, view: ViewState): Promise<DashboardPanel> {
    let shell: DashboardAssets;
    try {
      shell = await this.assets();
    } catch (error) {
      webviewPanel.dispose();
      throw error;
    }
    const panel = new DashboardPanel(
      this.services,
      webviewPanel,
      view,
      {
        ...this.hooks,
        disposed: (closed) => {
          if (this.panels.get(closed.environmentId) === closed) this.panels.delete(closed.environmentId);
        },
      },
      shell,
    );
    this.panels.set(view.environmentId, panel);
    return panel;
  }

  private async askForEnvironment(): Promise<void> {
    const add = vscode.l10n.t('Add Environment');
    const choice = await this.services.ui.current.message(
      'info',
      vscode.l10n.t("Add an environment first: the usage dashboard shows the usage of an environment's API key."),
      {},
      add,
    );
    if (choice === add) await vscode.commands.executeCommand(Commands.addEnvironment);
  }

  dispose(): void {
    for (const panel of this.all()) panel.dispose();
  }
}

/** The environment id a command was given: an id, or an item (a tree item, a link) with one. */
function environmentIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  return typeof arg === 'object' && arg !== null && typeof (arg as { id?: unknown }).id === 'string'
    ? (arg as { id: string }).id
    : undefined;
}

/** A dashboard opened afresh: the current period, the first page, the default sort and page size. */
function freshView(environmentId: string): ViewState {
  return {
    environmentId,
    period: currentPeriod(),
    sort: { ...DEFAULT_KEY_SORT },
    page: 1,
    pageSize: DEFAULT_DETAILS_PAGE_SIZE,
  };
}

// The dashboard webview's script and style sheet, read from the extension's folder once (with
// the panel's code, before its HTML is set) and written into each dashboard's page.
export interface DashboardAssets {
  script: string;
  style: string;
}

/** Reads the assets on first call; a failed read is tried again by the next call. */
export function assetsLoader(extensionUri: vscode.Uri): () => Promise<DashboardAssets> {
  let assets: Promise<DashboardAssets> | undefined;
  const read = async (...path: string[]) =>
    new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, ...path)));
  return () => {
    assets ??= Promise.all([read('dist', 'webview.js'), read('media', 'dashboard.css')]).then(([script, style]) => ({
      script,
      style,
    }));
    assets.catch(() => (assets = undefined));
    return assets;
  };
}

/** Each of the webview's texts, translated on the host when asked (the webview has no `vscode.l10n`). */
const TEXTS: { readonly [K in UiStringKey]: () => string } = {
  billingPeriod: () => vscode.l10n.t('Billing period'),
  previousPeriod: () => vscode.l10n.t('Previous period'),
  nextPeriod: () => vscode.l10n.t('Next period'),
  chooseMonth: () => vscode.l10n.t('Choose a month'),
  refresh: () => vscode.l10n.t('Refresh'),
  updated: () => vscode.l10n.t('Updated {0}'),
  updating: () => vscode.l10n.t('Updating…'),
  tier: () => vscode.l10n.t('Tier: {0}'),
  production: () => vscode.l10n.t('production'),
  metersHeading: () => vscode.l10n.t('Usage in the period'),
  'meter.calls': () => vscode.l10n.t('API calls'),
  'meter.webhooks': () => vscode.l10n.t('Webhooks'),
  'meter.storage_gb': () => vscode.l10n.t('Storage'),
  meterOf: () => vscode.l10n.t('{0} of {1}'),
  meterOverage: () => vscode.l10n.t('Overage: {0}'),
  meterNoAllowance: () => vscode.l10n.t('none included'),
  levelWarning: () => vscode.l10n.t('near the limit'),
  levelError: () => vscode.l10n.t('over the limit'),
  meterAria: () => vscode.l10n.t('{0}: {1} of {2} used, {3}'),
  keysHeading: () => vscode.l10n.t('Usage by API key'),
  'col.name': () => vscode.l10n.t('Name'),
  'col.keyId': () => vscode.l10n.t('Key ID'),
  'col.calls': () => vscode.l10n.t('Calls'),
  'col.share': () => vscode.l10n.t('Share'),
  'col.lastUsedAt': () => vscode.l10n.t('Last used'),
  currentKey: () => vscode.l10n.t("this environment's key"),
  sortBy: () => vscode.l10n.t('Sort by {0}'),
  keysEmpty: () => vscode.l10n.t('No API key made calls in this period.'),
  never: () => vscode.l10n.t('never'),
  detailsHeading: () => vscode.l10n.t('Usage records'),
  detailsEmpty: () => vscode.l10n.t('No usage records in this period.'),
  pageOf: () => vscode.l10n.t('Page {0} of {1}'),
  recordsRange: () => vscode.l10n.t('Records {0}–{1} of {2}'),
  pageOnly: () => vscode.l10n.t('Page {0}'),
  recordsRangeOpen: () => vscode.l10n.t('Records {0}–{1}'),
  previousPage: () => vscode.l10n.t('Previous page'),
  nextPage: () => vscode.l10n.t('Next page'),
  pageSize: () => vscode.l10n.t('Rows per page'),
  exportCsv: () => vscode.l10n.t('Export CSV…'),
  exportJson: () => vscode.l10n.t('Export JSON…'),
  exporting: () => vscode.l10n.t('Exporting: {0} of {1} records read…'),
  cancel: () => vscode.l10n.t('Cancel'),
  exportDone: () => vscode.l10n.t('Exported {0} records to {1}.'),
  exportCancelled: () => vscode.l10n.t('Export cancelled; no file was written.'),
  exportFailed: () => vscode.l10n.t('Export failed: {0}'),
  retry: () => vscode.l10n.t('Retry'),
  emptyPeriod: () => vscode.l10n.t('No usage was recorded in {0}.'),
  loading: () => vscode.l10n.t('Loading…'),
  dismiss: () => vscode.l10n.t('Dismiss'),
  'command.replaceKey': () => vscode.l10n.t('Replace API Key…'),
  'command.switchEnvironment': () => vscode.l10n.t('Switch Environment…'),
  'command.showLogs': () => vscode.l10n.t('Show Logs'),
  'command.addEnvironment': () => vscode.l10n.t('Add Environment…'),
  trendHeading: () => vscode.l10n.t('Last {0} billing periods'),
  trendAria: () => vscode.l10n.t('{0} in the last {1} billing periods'),
  trendPoint: () => vscode.l10n.t('{0}: {1} of {2}'),
  noData: () => vscode.l10n.t('no data'),
  trendChange: () => vscode.l10n.t('{0} vs {1}'),
  trendChangeNew: () => vscode.l10n.t('{0} used, nothing in {1}'),
  trendFailed: () => vscode.l10n.t('could not be read: {0}'),
  'col.period': () => vscode.l10n.t('Billing period'),
  'col.used': () => vscode.l10n.t('Used'),
  'col.included': () => vscode.l10n.t('Included'),
  estimate: () => vscode.l10n.t('estimate'),
  projection: () => vscode.l10n.t('{0} by the end of the period'),
  projectionOver: () => vscode.l10n.t('{0} over the included amount, reached around {1}'),
  projectionWithin: () => vscode.l10n.t('within the included amount'),
  projectionLinear: () =>
    vscode.l10n.t(
      "Estimate of this extension, not of the service: the amount used so far divided by the days elapsed, times the days in the period (linear from the period's start).",
    ),
  projectionDaily: () =>
    vscode.l10n.t(
      "Estimate of this extension, not of the service: the amount used so far plus, for each day left, the mean of the last whole days of the period's records (calls); other meters linear from the period's start.",
    ),
  periodDays: () => vscode.l10n.t('Day {0} of {1}, {2} days left'),
  filterHeading: () => vscode.l10n.t('Filter the records of the whole period'),
  filterColumn: () => vscode.l10n.t('Column'),
  filterText: () => vscode.l10n.t('contains'),
  filterStatus: () => vscode.l10n.t('Status'),
  filterAnyStatus: () => vscode.l10n.t('any status'),
  filterAnyColumn: () => vscode.l10n.t('any column'),
  filterKey: () => vscode.l10n.t('Key: {0}'),
  filterByKey: () => vscode.l10n.t('Show the records of {0}'),
  clearFilter: () => vscode.l10n.t('Clear filter'),
  applyFilter: () => vscode.l10n.t('Filter'),
  scanning: () => vscode.l10n.t('Reading every record of the period: {0} of {1}…'),
  filteredCount: () => vscode.l10n.t('{0} of {1} records match'),
  filterNoMatch: () => vscode.l10n.t('No records match the filter.'),
  exportFiltered: () => vscode.l10n.t('Export writes the {0} matching records.'),
  breakdownHeading: () => vscode.l10n.t('Where the period went'),
  breakdownRead: () => vscode.l10n.t('Break down the period'),
  breakdownReadTitle: () =>
    vscode.l10n.t(
      'Reads every record of the period once (at most {0}), then groups them and counts them day by day. A closed period is kept and not read again.',
    ),
  breakdownGroupBy: () => vscode.l10n.t('Group by'),
  breakdownSum: () => vscode.l10n.t('Sum'),
  breakdownCount: () => vscode.l10n.t('count only'),
  breakdownValue: () => vscode.l10n.t('Value'),
  breakdownRecords: () => vscode.l10n.t('Records'),
  breakdownShare: () => vscode.l10n.t('Share'),
  breakdownOther: () => vscode.l10n.t('other ({0} groups)'),
  breakdownEmptyValue: () => vscode.l10n.t('(empty)'),
  breakdownFilter: () => vscode.l10n.t('Show the records of {0}'),
  breakdownCapped: () =>
    vscode.l10n.t('Read the first {0} records (the cap); {1} more are not in the breakdown or the day-by-day bars.'),
  breakdownMissing: () => vscode.l10n.t('{0} records the service announced could not be read: they are not counted.'),
  breakdownRecordsRead: () => vscode.l10n.t('{0} records of {1}'),
  dailyHeading: () => vscode.l10n.t('Day by day ({0})'),
  dailyUsual: () =>
    vscode.l10n.t(
      'The usual day: {0} records (the median day of the period). Marked: days with at least {1}× as many.',
    ),
  dailyNoUsual: () => vscode.l10n.t('Too few records on most days to tell a usual day: no day is marked.'),
  dailyBar: () => vscode.l10n.t('{0}: {1} records'),
  dailyMarked: () => vscode.l10n.t('{0}: {1}× the usual day'),
  dailyCauseKey: () => vscode.l10n.t('{0} % from key {1}'),
  dailyCauseKeyCall: () => vscode.l10n.t('{0} % from key {1} on {2}'),
  dailyCauseCall: () => vscode.l10n.t('{0} % from {1}'),
  dailyUndated: () => vscode.l10n.t('{0} records have no readable time and are in no bar.'),
  filterGroup: () => vscode.l10n.t('{0}: {1}'),
  filterDay: () => vscode.l10n.t('Day: {0}'),
  crossedOn: () => vscode.l10n.t('passed the included amount on {0}'),
  crossedAround: () =>
    vscode.l10n.t("passed the included amount around {0} (the records' daily shape, scaled to the calls)"),
  crossedUnknown: () => vscode.l10n.t('past the included amount; break down the period to see the day it was passed'),
  keyTrend: () => vscode.l10n.t('Calls of {0} in the last {1} billing periods'),
  keyProjected: () => vscode.l10n.t('{0} by the end of the period (estimate)'),
  keyBudget: () => vscode.l10n.t('budget {0}'),
  keyBudgetPassed: () => vscode.l10n.t('past its budget of {0}'),
  keyBudgetProjected: () => vscode.l10n.t('heading past its budget of {0}'),
  'col.trend': () => vscode.l10n.t('Last 12 periods, budget'),
};

/** The webview's texts, translated on the host (the webview has no `vscode.l10n`). */
function uiStrings(): UiStrings {
  return Object.fromEntries(Object.entries(TEXTS).map(([key, text]) => [key, text()])) as UiStrings;
}
