// What the usage feature's tests read and no user sees: the messages a dashboard posted, the
// webview errors and rejected messages it logged, its timing marks, the trend's requests, the
// status bar's reads and the alerts shown. Product code writes here only under `if (TEST_SEAMS)`,
// so the production build has neither the writes nor this module. A leaf: no feature imports.
import type * as vscode from 'vscode';

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

const KEPT_MESSAGES = 20;
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
export function markPanel(panel: vscode.WebviewPanel, mark: Mark, at = performance.now()): void {
  panelRecord(panel).timeline[mark] ??= at;
}

/** The webview's own marks, sent with `ready` (in the host's clock), the first time only. */
export function markWebview(panel: vscode.WebviewPanel, marks: NonNullable<PanelTimeline['webview']>): void {
  panelRecord(panel).timeline.webview ??= marks;
}

export function recordPosted(panel: vscode.WebviewPanel, message: unknown): void {
  const posted = panelRecord(panel).posted;
  posted.push(message);
  if (posted.length > KEPT_MESSAGES) posted.splice(0, posted.length - KEPT_MESSAGES);
}

/** Summaries the last trend read of a dashboard asked of the service. */
export function recordTrendRequests(dashboard: object, requests: number): void {
  trends.set(dashboard, requests);
}

export function trendRequestsOf(dashboard: object): number {
  return trends.get(dashboard) ?? 0;
}

export function countStatusBarRead(kind: 'reads' | 'shared'): void {
  statusBarCounts[kind]++;
}

export function statusBarReads(): { reads: number; shared: number } {
  return { ...statusBarCounts };
}

export function recordAlertRaised(text: string): void {
  alertsRaised.push(text);
}

export function raisedAlerts(): string[] {
  return [...alertsRaised];
}
