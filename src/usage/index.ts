import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { UsageSummary } from '../api/types';
import { forgetWithEnvironmentOrKey, PerEnvironmentCache, saveFailed } from '../shared/perEnvironment';
import { Commands, Settings, StateKeys, WebviewTypes } from '../shared/constants';
import { currentPeriod } from '../core/period';
import { DEFAULT_DETAILS_PAGE_SIZE, DEFAULT_KEY_SORT } from '../core/recordDefaults';
import { safeText } from '../core/text';
import type { Feature, Services } from '../shared/services';
import type { DashboardState, HostMessage, ViewState } from './protocol';
import type { UsageAlerts } from './alerts';
import { UsageHistory } from './history';
import { ReadCoordinator } from './readCoordinator';
import { isSavedDashboard } from './saved';
import type * as PanelModule from './panel';
import type { DashboardPanel, PanelTimeline } from './panel';
import { UsageStatusBar, type UsageStatusBarView } from './statusBar';

/** What integration tests read and drive: the same objects and handlers a person uses. */
export interface DashboardProbe {
  environmentId: string;
  title: string;
  visible: boolean;
  /** The webview's script has started and said `ready`. */
  ready: boolean;
  state(): DashboardState;
  lastMessage(): HostMessage | undefined;
  messages(): HostMessage[];
  webviewErrors(): string[];
  rejectedMessages(): number;
  html(): string;
  /** The webview's options (command URIs, scripts, local resources). */
  webviewOptions(): vscode.WebviewOptions;
  /** The tab's icon (one per theme kind). */
  iconPath(): vscode.WebviewPanel['iconPath'];
  /** Sends a message through the very handler the webview's messages go to. */
  receive(message: unknown): Promise<void>;
  /** Resolves when every request this dashboard started has settled. */
  idle(): Promise<void>;
  /** performance.now() of the moments the dashboard went through (see PanelTimeline). */
  timeline(): PanelTimeline;
  /** Summaries the last trend read asked of the service (the rest came from the stored history). */
  trendRequests(): number;
  close(): void;
}

export interface UsageExports {
  /** The open dashboard of an environment (default: the active one). */
  dashboard(environmentId?: string): DashboardProbe | undefined;
  dashboards(): DashboardProbe[];
  statusBar(): UsageStatusBarView;
  refreshStatusBar(): Promise<void>;
  /** Alerts this window showed. */
  alertsRaised(): string[];
  /** Reads of the summary this window made, and summaries it took from another window's read. */
  pollCounts(): { reads: number; shared: number };
  /** Whether the status bar's interval timer runs (the item or the alerts need it). */
  polling(): boolean;
  /** One interval tick as the window `windowId` runs it at `now` (a second window sharing this global state). */
  tick(windowId: string, now: number): Promise<void>;
  /** This window's id in the shared reads. */
  windowId: string;
  /** Restores a dashboard from a saved webview state exactly as the serializer does after a reload. */
  restore(saved: unknown): Promise<DashboardProbe | undefined>;
}

export function registerUsage(services: Services) {
  const { context, environments: store, ui } = services;
  const panels = new Map<string, DashboardPanel>();
  // Read back as written (VS Code's late echoes of global state would bring back older values).
  const ownState = services.globalState;
  const history = new UsageHistory(ownState, StateKeys.usageHistory, saveFailed(services, 'the usage history'));
  const coordinator = new ReadCoordinator(
    context.globalState,
    StateKeys.usageReads,
    randomUUID(),
    saveFailed(services, 'the shared usage read'),
  );
  // The alerts' code is loaded the first time they are on (and something is to be checked).
  let alertsLoaded: Promise<UsageAlerts> | undefined;
  const loadAlerts = () =>
    (alertsLoaded ??= import('./alerts').then(
      ({ UsageAlerts }) => new UsageAlerts(services, ownState, StateKeys.usageAlertsShown),
    ));
  let raised: string[] = [];
  const alerts = {
    enabled: () =>
      vscode.workspace.getConfiguration(Settings.section).get<boolean>(Settings.usageAlerts, false) === true,
    check: async (environmentId: string, summary: UsageSummary) => {
      if (!alerts.enabled()) return;
      const loaded = await loadAlerts();
      raised = loaded.raised;
      await loaded.check(environmentId, summary);
    },
    // What was remembered goes with its environment or key (loaded only when something is remembered).
    keepOnly: (ids: readonly string[]) => {
      if (ownState.get(StateKeys.usageAlertsShown) !== undefined) void loadAlerts().then((a) => a.keepOnly(ids));
    },
    forget: (id: string) => {
      if (ownState.get(StateKeys.usageAlertsShown) !== undefined) void loadAlerts().then((a) => a.forget(id));
    },
  };
  const statusBar = new UsageStatusBar(services, coordinator, alerts);
  // What each environment's dashboard showed last: shown at once when one opens again.
  const saved = new PerEnvironmentCache(
    context.workspaceState,
    StateKeys.usageDashboardCache,
    isSavedDashboard,
    saveFailed(services, 'the usage shown'),
  );
  context.subscriptions.push(
    statusBar,
    ...forgetWithEnvironmentOrKey(services, saved),
    ...forgetWithEnvironmentOrKey(services, history),
    ...forgetWithEnvironmentOrKey(services, coordinator),
    ...forgetWithEnvironmentOrKey(services, alerts),
  );

  // The dashboard's code (panel, state, export, HTML) is loaded when a dashboard first opens.
  let panelModule: Promise<typeof PanelModule> | undefined;
  const loadPanel = () => (panelModule ??= import('./panel'));
  /** The webview's script and style sheet, read once (with the panel's code, before its HTML is set). */
  let assets: Promise<{ script: string; style: string }> | undefined;
  const loadAssets = () => {
    const read = async (...path: string[]) =>
      new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(context.extensionUri, ...path)));
    assets ??= Promise.all([read('dist', 'webview.js'), read('media', 'dashboard.css')]).then(([script, style]) => ({
      script,
      style,
    }));
    assets.catch(() => (assets = undefined));
    return assets;
  };
  /** Dashboards being made (their code may still be loading): a second open reveals the first. */
  const opened = new Map<string, Promise<DashboardPanel>>();

  /** Makes a webview panel (a new one, or one VS Code restored) the dashboard of `view`'s environment. */
  const createDashboardIn = async (
    webviewPanel: vscode.WebviewPanel,
    view: ViewState,
    panelAt: number,
  ): Promise<DashboardPanel> => {
    let DashboardPanel: typeof PanelModule.DashboardPanel;
    let shell: { script: string; style: string };
    try {
      [{ DashboardPanel }, shell] = await Promise.all([loadPanel(), loadAssets()]);
    } catch (error) {
      webviewPanel.dispose();
      throw error;
    }
    const panel = new DashboardPanel(
      services,
      webviewPanel,
      view,
      {
        panelAt,
        summaryLoaded: (id, summary) => statusBar.showSummaryReadElsewhere(id, summary),
        saved: (id) => saved.read(id),
        save: (id, shown) => saved.write(id, shown),
        history,
        disposed: (closed) => {
          if (panels.get(closed.environmentId) === closed) panels.delete(closed.environmentId);
        },
      },
      shell,
    );
    panels.set(view.environmentId, panel);
    return panel;
  };

  const open = async (arg?: unknown): Promise<void> => {
    const id =
      typeof arg === 'string'
        ? arg
        : typeof arg === 'object' && arg !== null && typeof (arg as { id?: unknown }).id === 'string'
          ? (arg as { id: string }).id
          : undefined;
    const env = (id ? store.get(id) : undefined) ?? store.active();
    if (!env) {
      const add = vscode.l10n.t('Add Environment');
      const choice = await ui.current.message(
        'info',
        vscode.l10n.t("Add an environment first: the usage dashboard shows the usage of an environment's API key."),
        {},
        add,
      );
      if (choice === add) await vscode.commands.executeCommand(Commands.addEnvironment);
      return;
    }
    const existing = panels.get(env.id) ?? (await opened.get(env.id));
    if (existing) {
      existing.reveal();
      return;
    }
    const panelAt = performance.now();
    const webviewPanel = vscode.window.createWebviewPanel(
      WebviewTypes.usageDashboard,
      safeText(vscode.l10n.t('Usage: {0}', env.label)),
      vscode.ViewColumn.Active,
      { enableScripts: true, enableFindWidget: true },
    );
    const panel = createDashboardIn(
      webviewPanel,
      {
        environmentId: env.id,
        period: currentPeriod(),
        sort: { ...DEFAULT_KEY_SORT },
        page: 1,
        pageSize: DEFAULT_DETAILS_PAGE_SIZE,
      },
      panelAt,
    );
    opened.set(env.id, panel);
    await panel.finally(() => opened.delete(env.id));
  };

  /** What the serializer does after a window reload: the saved view state, checked, in the panel VS Code kept. */
  const restore = async (
    webviewPanel: vscode.WebviewPanel,
    saved: unknown,
    panelAt = performance.now(),
  ): Promise<DashboardPanel | undefined> => {
    // The protocol's checks are loaded with the first dashboard, here or in createDashboardIn.
    const { parseViewState } = await import('./protocol');
    const view = parseViewState(saved, currentPeriod()) ?? fallbackView(services);
    const duplicate = view ? (panels.get(view.environmentId) ?? (await opened.get(view.environmentId))) : undefined;
    if (!view || duplicate) {
      // Nothing to restore, or this environment's dashboard is open already.
      webviewPanel.dispose();
      duplicate?.reveal();
      return undefined;
    }
    return createDashboardIn(webviewPanel, view, panelAt);
  };

  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(WebviewTypes.usageDashboard, {
      async deserializeWebviewPanel(webviewPanel: vscode.WebviewPanel, saved: unknown) {
        await restore(webviewPanel, saved);
      },
    }),
    { dispose: () => [...panels.values()].forEach((panel) => panel.dispose()) },
  );

  const probe = (panel: DashboardPanel): DashboardProbe => ({
    environmentId: panel.environmentId,
    get title() {
      return panel.panel.title;
    },
    get visible() {
      return panel.panel.visible;
    },
    get ready() {
      return panel.ready;
    },
    state: () => structuredClone(panel.dashboard.state),
    lastMessage: () => panel.posted.at(-1),
    messages: () => [...panel.posted],
    webviewErrors: () => [...panel.webviewErrors],
    rejectedMessages: () => panel.rejectedMessages,
    html: () => panel.panel.webview.html,
    webviewOptions: () => panel.panel.webview.options,
    iconPath: () => panel.panel.iconPath,
    receive: (message) => panel.receive(message),
    idle: () => panel.dashboard.idle(),
    timeline: () => ({ ...panel.timeline }),
    trendRequests: () => panel.dashboard.trendRequests,
    close: () => panel.dispose(),
  });

  return {
    commands: { [Commands.openUsageDashboard]: open },
    parts: {
      dashboard: (environmentId) => {
        const panel = panels.get(environmentId ?? store.active()?.id ?? '');
        return panel ? probe(panel) : undefined;
      },
      dashboards: () => [...panels.values()].map(probe),
      statusBar: () => statusBar.view(),
      refreshStatusBar: () => statusBar.refresh(),
      alertsRaised: () => [...raised],
      pollCounts: () => ({ ...statusBar.counts }),
      polling: () => statusBar.polling(),
      tick: (windowId, now) => statusBar.tick(windowId, now),
      windowId: coordinator.windowId,
      restore: async (saved) => {
        const webviewPanel = vscode.window.createWebviewPanel(
          WebviewTypes.usageDashboard,
          vscode.l10n.t('Usage'),
          vscode.ViewColumn.Active,
          { enableScripts: true },
        );
        const panel = await restore(webviewPanel, saved);
        return panel ? probe(panel) : undefined;
      },
    },
  } satisfies Feature<UsageExports>;
}

/** A restored panel whose saved state is unreadable shows the active environment. */
function fallbackView(services: Services): ViewState | undefined {
  const env = services.environments.active();
  return env
    ? {
        environmentId: env.id,
        period: currentPeriod(),
        sort: { ...DEFAULT_KEY_SORT },
        page: 1,
        pageSize: DEFAULT_DETAILS_PAGE_SIZE,
      }
    : undefined;
}
