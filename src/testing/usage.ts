// The Usage feature's test probes: the dashboards, the status bar and the alerts as tests read
// and drive them, built from the parts the feature returned. In development and test builds only.
import * as vscode from 'vscode';
import { WebviewTypes } from '../shared/constants';
import type { Services } from '../services';
import type { UsageParts } from '../usage/index';
import type { DashboardPanel } from '../usage/panel';
import type { DashboardState, HostMessage } from '../usage/protocol';
import type { UsageStatusBarView } from '../usage/callsStatusBar';
import { panelRecord, type PanelTimeline, raisedAlerts, statusBarReads, trendRequestsOf } from './record';

export type { PanelTimeline } from './record';

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

function dashboardProbe(panel: DashboardPanel): DashboardProbe {
  const record = () => panelRecord(panel.panel);
  return {
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
    lastMessage: () => record().posted.at(-1) as HostMessage | undefined,
    messages: () => [...record().posted] as HostMessage[],
    webviewErrors: () => [...record().webviewErrors],
    rejectedMessages: () => record().rejectedMessages,
    html: () => panel.panel.webview.html,
    webviewOptions: () => panel.panel.webview.options,
    iconPath: () => panel.panel.iconPath,
    receive: (message) => panel.receive(message),
    idle: () => panel.dashboard.idle(),
    // The panel marks `createdAt` when it is made: every timeline has it.
    timeline: () => ({ ...record().timeline }) as PanelTimeline,
    trendRequests: () => trendRequestsOf(panel.dashboard),
    close: () => panel.dispose(),
  };
}

export function usageProbe(services: Services, parts: UsageParts): UsageExports {
  const { dashboards, statusBar, coordinator } = parts;
  return {
    dashboard: (environmentId) => {
      const panel = dashboards.get(environmentId ?? services.environments.active()?.id ?? '');
      return panel ? dashboardProbe(panel) : undefined;
    },
    dashboards: () => dashboards.all().map(dashboardProbe),
    statusBar: () => statusBar.view(),
    refreshStatusBar: () => statusBar.refresh(),
    alertsRaised: () => raisedAlerts(),
    pollCounts: () => statusBarReads(),
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
      const panel = await dashboards.restore(webviewPanel, saved);
      return panel ? dashboardProbe(panel) : undefined;
    },
  };
}
