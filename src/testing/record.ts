// The recorder of development and test builds: what product code tells its tests through the
// port `Recorder` (src/shared/recorder.ts), kept here for the probes (src/testing/engagements.ts,
// usage.ts) and `npm run bench`. The composition root hands it to the features under
// `if (TEST_SEAMS)`; the production build hands them `silentRecorder`, so neither the records
// nor the code that keeps them ship (test/unit/bundle.test.ts).
import type * as vscode from 'vscode';
import type { Recorder } from '../shared/recorder';

/** What the last Go to Engagement showed and when (performance.now()), for tests and `npm run bench`. */
export interface GoToTimeline {
  startedAt: number;
  /** The loaded engagements were in the quick pick. */
  firstItemsAt?: number;
  firstItems?: number;
  /** Every engagement was in the quick pick. */
  allItemsAt?: number;
  allItems?: number;
  /** The quick pick, while it is open. */
  quickPick?: vscode.QuickPick<vscode.QuickPickItem>;
  /** The quick pick was closed (chosen, Escape, or hidden by the workbench). */
  closedAt?: number;
}

/**
 * performance.now() (the extension host's clock) of the moments a dashboard goes through:
 * its panel made (by the command or VS Code's restore), the dashboard made, its HTML set, the
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

type Mark = Exclude<keyof PanelTimeline, 'webview'>;

/** What one dashboard's webview panel went through. */
interface PanelRecord {
  /** The last messages posted to the webview (snapshots), newest last. */
  posted: unknown[];
  /** Errors the webview's script reported, as written to the log. */
  webviewErrors: string[];
  /** Messages received that were not part of the protocol (dropped). */
  rejectedMessages: number;
  timeline: Partial<PanelTimeline>;
}

/** The notices and posted messages kept (newest last). */
const KEPT_NOTICES = 20;
const KEPT_MESSAGES = 20;

/** What the Engagements feature did, as its probe reads it. */
export const engagementsRecord: {
  /** Short notices shown in the status bar (newest last). */
  notices: string[];
  /** The last time VS Code asked for the roots and got engagements (performance.now()), and whether they were the saved page. */
  served?: { at: number; count: number; fromCache: boolean };
  /** Whether the view's auto-refresh interval runs. */
  autoRefreshing: boolean;
  /** The last Go to Engagement. */
  goTo?: GoToTimeline;
  /** The details panel made last: the view it was last posted, and what its webview reported. */
  details: { view?: unknown; webviewErrors: string[] };
} = { notices: [], autoRefreshing: false, details: { webviewErrors: [] } };

const panels = new WeakMap<vscode.WebviewPanel, PanelRecord>();
const trends = new WeakMap<object, number>();
/** This window's status bar: reads it made of the service, and summaries it took from another window's read. */
const statusBarCounts = { reads: 0, shared: 0 };
const alertsRaised: string[] = [];

/** The record of a dashboard's webview panel (made on first use). */
export function panelRecord(panel: vscode.WebviewPanel): PanelRecord {
  let record = panels.get(panel);
  if (!record) {
    record = { posted: [], webviewErrors: [], rejectedMessages: 0, timeline: {} };
    panels.set(panel, record);
  }
  return record;
}

/** Marks a moment of a dashboard's panel, the first time only. */
function markPanel(panel: vscode.WebviewPanel, mark: Mark, at = performance.now()): void {
  panelRecord(panel).timeline[mark] ??= at;
}

/** Summaries the last trend read of a dashboard asked of the service. */
export function trendRequestsOf(dashboard: object): number {
  return trends.get(dashboard) ?? 0;
}

export function statusBarReads(): { reads: number; shared: number } {
  return { ...statusBarCounts };
}

export function raisedAlerts(): string[] {
  return [...alertsRaised];
}

/** The recorder that keeps what it is told. */
export const recorder: Recorder = {
  now() {
    return performance.now();
  },

  // ---- engagements ----
  notice(shown) {
    engagementsRecord.notices.push(shown);
    if (engagementsRecord.notices.length > KEPT_NOTICES) engagementsRecord.notices.shift();
  },
  autoRefresh(running) {
    engagementsRecord.autoRefreshing = running;
  },
  treeServed(count, fromCache) {
    if (count > 0) engagementsRecord.served = { at: performance.now(), count, fromCache };
  },
  detailsOpened() {
    engagementsRecord.details = { webviewErrors: [] };
  },
  detailsWebviewError(line) {
    engagementsRecord.details.webviewErrors.push(line);
  },
  detailsPosted(message) {
    if (message.type === 'show') engagementsRecord.details.view = message.view;
  },
  goToOpened(quickPick, startedAt) {
    engagementsRecord.goTo = { startedAt: startedAt ?? performance.now(), quickPick };
  },
  goToListed(count, complete) {
    const timeline = engagementsRecord.goTo;
    if (!timeline || timeline.closedAt !== undefined) return;
    if (count > 0 && timeline.firstItemsAt === undefined) {
      timeline.firstItemsAt = performance.now();
      timeline.firstItems = count;
    }
    if (complete && timeline.allItemsAt === undefined) {
      timeline.allItemsAt = performance.now();
      timeline.allItems = count;
    }
  },
  goToClosed() {
    const timeline = engagementsRecord.goTo;
    if (!timeline) return;
    timeline.quickPick = undefined;
    timeline.closedAt = performance.now();
  },

  // ---- usage ----
  panelMark(panel, mark, at) {
    markPanel(panel, mark, at);
  },
  panelReady(panel, timing) {
    markPanel(panel, 'readyAt');
    // The webview's clock is the epoch in ms, as performance.timeOrigin + now() is here.
    const local = (epochMs: number) => epochMs - performance.timeOrigin;
    if (timing)
      panelRecord(panel).timeline.webview ??= {
        navigationStartAt: local(timing.navigationStart),
        scriptStartAt: local(timing.scriptStart),
        readySentAt: local(timing.ready),
      };
  },
  panelPosted(panel, message) {
    if (message.type === 'update' && message.state?.summary.data) markPanel(panel, 'metersPostedAt');
    if (message.type === 'update' && message.state?.trend.status === 'ready') markPanel(panel, 'trendPostedAt');
    const posted = panelRecord(panel).posted;
    posted.push(message);
    if (posted.length > KEPT_MESSAGES) posted.splice(0, posted.length - KEPT_MESSAGES);
  },
  panelRejected(panel) {
    panelRecord(panel).rejectedMessages++;
  },
  panelWebviewError(panel, line) {
    panelRecord(panel).webviewErrors.push(line);
  },
  trendRequests(dashboard, requests) {
    trends.set(dashboard, requests);
  },
  statusBarRead(kind) {
    statusBarCounts[kind]++;
  },
  alertRaised(text) {
    alertsRaised.push(text);
  },
};
