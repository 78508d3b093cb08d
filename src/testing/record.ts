// The one seam product code has towards its tests: `recorder`, told what happened that no user
// reads (a notice shown, a moment a dashboard went through, a read the status bar made), and
// kept here for the probes (src/testing/engagements.ts, usage.ts) and `npm run bench`. Product
// code calls it unconditionally and never reads from it. The production build replaces this
// module with one whose every method does nothing (esbuild.mjs, `withoutSeams`), so neither the
// records nor the code that keeps them ship (test/unit/bundle.test.ts). A leaf: it imports no
// feature.
import type * as vscode from 'vscode';

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

/** What product code tells its tests. Each method only records; none returns anything product code uses. */
export const recorder = {
  /** performance.now(), for a mark taken before the panel it belongs to exists (undefined in production). */
  now(): number | undefined {
    return performance.now();
  },

  // ---- engagements ----
  notice(shown: string): void {
    engagementsRecord.notices.push(shown);
    if (engagementsRecord.notices.length > KEPT_NOTICES) engagementsRecord.notices.shift();
  },
  autoRefresh(running: boolean): void {
    engagementsRecord.autoRefreshing = running;
  },
  /** VS Code asked for the tree's roots and got `count` rows. */
  treeServed(count: number, fromCache: boolean): void {
    if (count > 0) engagementsRecord.served = { at: performance.now(), count, fromCache };
  },
  detailsOpened(): void {
    engagementsRecord.details = { webviewErrors: [] };
  },
  detailsWebviewError(line: string): void {
    engagementsRecord.details.webviewErrors.push(line);
  },
  detailsPosted(message: { type: string; view?: unknown }): void {
    if (message.type === 'show') engagementsRecord.details.view = message.view;
  },
  goToOpened(quickPick: vscode.QuickPick<vscode.QuickPickItem>, startedAt: number | undefined): void {
    engagementsRecord.goTo = { startedAt: startedAt ?? performance.now(), quickPick };
  },
  /** The Go to quick pick lists `count` engagements (`complete`: every one). */
  goToListed(count: number, complete: boolean): void {
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
  goToClosed(): void {
    const timeline = engagementsRecord.goTo;
    if (!timeline) return;
    timeline.quickPick = undefined;
    timeline.closedAt = performance.now();
  },

  // ---- usage ----
  panelMark(panel: vscode.WebviewPanel, mark: 'panelAt' | 'createdAt' | 'htmlSetAt', at?: number): void {
    markPanel(panel, mark, at);
  },
  /** The webview said `ready`, with its own clock's marks (epoch ms) when it sent them. */
  panelReady(
    panel: vscode.WebviewPanel,
    timing: { navigationStart: number; scriptStart: number; ready: number } | undefined,
  ): void {
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
  panelPosted(
    panel: vscode.WebviewPanel,
    message: { type: string; state?: { summary: { data?: unknown }; trend: { status: string } } },
  ): void {
    if (message.type === 'update' && message.state?.summary.data) markPanel(panel, 'metersPostedAt');
    if (message.type === 'update' && message.state?.trend.status === 'ready') markPanel(panel, 'trendPostedAt');
    const posted = panelRecord(panel).posted;
    posted.push(message);
    if (posted.length > KEPT_MESSAGES) posted.splice(0, posted.length - KEPT_MESSAGES);
  },
  panelRejected(panel: vscode.WebviewPanel): void {
    panelRecord(panel).rejectedMessages++;
  },
  panelWebviewError(panel: vscode.WebviewPanel, line: string): void {
    panelRecord(panel).webviewErrors.push(line);
  },
  trendRequests(dashboard: object, requests: number): void {
    trends.set(dashboard, requests);
  },
  statusBarRead(kind: 'reads' | 'shared'): void {
    statusBarCounts[kind]++;
  },
  alertRaised(text: string): void {
    alertsRaised.push(text);
  },
};
