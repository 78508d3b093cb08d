// One environment's dashboard in a webview panel: the HTML shell, the `ready` handshake, and
// every message from the webview checked before anything is done with it.
import * as vscode from 'vscode';
import { tabIcon } from '../ui/tabIcon';
import type { UsageSummary } from '../api/types';
import { Commands } from '../shared/constants';
import { currentLocale } from '../core/l10n';
import { safeText } from '../core/text';
import { WebviewErrorReports } from '../core/webviewErrors';
import type { Services } from '../shared/services';
import { markPanel, markWebview, panelRecord, recordPosted } from '../testing/record/usage';
import { type HostMessage, parseWebviewMessage, type ViewState, type WebviewTiming } from './protocol';
import type { DashboardAssets } from './assets';
import { Dashboard, type DashboardHooks } from './dashboard';
import { Exporter } from './exporter';
import { createNonce, dashboardHtml } from '../shared/webviewShell';
import { uiStrings } from './strings';

export interface PanelHooks extends Pick<DashboardHooks, 'saved' | 'save' | 'history'> {
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
    if (TEST_SEAMS) markPanel(panel, 'createdAt');
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
    if (TEST_SEAMS) markPanel(panel, 'htmlSetAt');
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
    if (TEST_SEAMS) panelRecord(this.panel).rejectedMessages++;
    const type =
      typeof raw === 'object' && raw !== null && typeof (raw as { type?: unknown }).type === 'string'
        ? (raw as { type: string }).type.slice(0, 40)
        : typeof raw;
    this.services.log.warn(`Usage dashboard: ignored a message that is not part of the protocol (${type}).`);
  }

  /** The webview's script runs: it gets its texts, then the state. */
  private onReady(timing: WebviewTiming | undefined): void {
    this.ready = true;
    if (TEST_SEAMS) {
      markPanel(this.panel, 'readyAt');
      // The webview's clock is the epoch in ms, as performance.timeOrigin + now() is here.
      const local = (epochMs: number) => epochMs - performance.timeOrigin;
      if (timing)
        markWebview(this.panel, {
          navigationStartAt: local(timing.navigationStart),
          scriptStartAt: local(timing.scriptStart),
          readySentAt: local(timing.ready),
        });
    }
    this.post({
      type: 'init',
      locale: currentLocale() ?? vscode.env.language,
      strings: uiStrings(),
      messages: vscode.l10n.bundle,
    });
    this.post({ type: 'update', state: this.dashboard.state });
  }

  private logWebviewError(message: string): void {
    const line = this.errorReports.line(message);
    if (line === undefined) return;
    if (TEST_SEAMS) panelRecord(this.panel).webviewErrors.push(line);
    this.services.log.error(`Usage dashboard webview: ${line}`);
  }

  /** Several changes in one turn become one message. */
  private schedulePost(): void {
    if (this.postScheduled) return;
    this.postScheduled = true;
    queueMicrotask(() => {
      this.postScheduled = false;
      if (this.ready) this.post({ type: 'update', state: this.dashboard.state });
    });
  }

  private post(message: HostMessage): void {
    // A snapshot: later changes to the state must not alter what was posted.
    const snapshot = structuredClone(message);
    if (TEST_SEAMS) {
      if (snapshot.type === 'update' && snapshot.state.summary.data) markPanel(this.panel, 'metersPostedAt');
      if (snapshot.type === 'update' && snapshot.state.trend.status === 'ready') markPanel(this.panel, 'trendPostedAt');
      recordPosted(this.panel, snapshot);
    }
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
