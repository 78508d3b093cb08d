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
import { type HostMessage, parseWebviewMessage, type ViewState } from './protocol';
import { Dashboard, type DashboardHooks } from './dashboard';
import { Exporter } from './exporter';
import { createNonce, dashboardHtml } from '../shared/webviewShell';
import { uiStrings } from './strings';

const KEPT_MESSAGES = 20;

/**
 * performance.now() (the extension host's clock) of the moments a dashboard goes through:
 * its panel made (by the command or VS Code's restore), this object made, its HTML set, the
 * webview's document started, its script started and it said `ready` (the webview's own
 * clock, sent with `ready`), `ready` received, and the meters and trend first posted.
 */
export interface PanelTimeline {
  panelAt?: number;
  createdAt: number;
  htmlSetAt?: number;
  webview?: { navigationStartAt: number; scriptStartAt: number; readySentAt: number };
  readyAt?: number;
  metersPostedAt?: number;
  trendPostedAt?: number;
}

export interface PanelHooks extends Pick<DashboardHooks, 'saved' | 'save' | 'history'> {
  /** performance.now() when the webview panel was made or given back by VS Code's restore. */
  panelAt?: number;
  summaryLoaded?(environmentId: string, summary: UsageSummary): void;
  disposed(panel: DashboardPanel): void;
}

export class DashboardPanel implements vscode.Disposable {
  readonly dashboard: Dashboard;
  readonly exporter: Exporter;
  /** The webview said `ready` (its script runs) since it was last (re)loaded. */
  ready = false;
  /** The last messages posted to the webview, newest last. */
  readonly posted: HostMessage[] = [];
  /** Errors the webview's script reported, as written to the log. */
  readonly webviewErrors: string[] = [];
  private readonly errorReports = new WebviewErrorReports();
  /** Messages received that were not part of the protocol (dropped). */
  rejectedMessages = 0;
  readonly timeline: PanelTimeline = { createdAt: performance.now() };
  private postScheduled = false;
  /** The service address the shown data came from: a new one means reading everything again. */
  private baseUrl?: string;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly services: Services,
    readonly panel: vscode.WebviewPanel,
    view: ViewState,
    private readonly hooks: PanelHooks,
    /** The webview's script and style sheet, written into its HTML (see html.ts). */
    assets: { script: string; style: string },
  ) {
    this.timeline.panelAt = hooks.panelAt;
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
    this.timeline.htmlSetAt = performance.now();
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
    if (!message) {
      this.rejectedMessages++;
      const type =
        typeof raw === 'object' && raw !== null && typeof (raw as { type?: unknown }).type === 'string'
          ? (raw as { type: string }).type.slice(0, 40)
          : typeof raw;
      this.services.log.warn(`Usage dashboard: ignored a message that is not part of the protocol (${type}).`);
      return;
    }
    const dashboard = this.dashboard;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.timeline.readyAt ??= performance.now();
        if (message.timing && !this.timeline.webview) {
          // The webview's clock is the epoch in ms, as performance.timeOrigin + now() is here.
          const local = (epochMs: number) => epochMs - performance.timeOrigin;
          this.timeline.webview = {
            navigationStartAt: local(message.timing.navigationStart),
            scriptStartAt: local(message.timing.scriptStart),
            readySentAt: local(message.timing.ready),
          };
        }
        this.post({
          type: 'init',
          locale: currentLocale() ?? vscode.env.language,
          strings: uiStrings(),
          messages: vscode.l10n.bundle,
        });
        this.post({ type: 'update', state: dashboard.state });
        return;
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
      case 'webviewError': {
        const line = this.errorReports.line(message.message);
        if (line === undefined) return;
        this.webviewErrors.push(line);
        this.services.log.error(`Usage dashboard webview: ${line}`);
        return;
      }
    }
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
    if (snapshot.type === 'update' && snapshot.state.summary.data) this.timeline.metersPostedAt ??= performance.now();
    if (snapshot.type === 'update' && snapshot.state.trend.status === 'ready')
      this.timeline.trendPostedAt ??= performance.now();
    this.posted.push(snapshot);
    if (this.posted.length > KEPT_MESSAGES) this.posted.splice(0, this.posted.length - KEPT_MESSAGES);
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
