// The port product code tells its tests through: what happened that no user reads (a notice
// shown, a moment a dashboard went through, a read the status bar made). Product code calls it
// unconditionally and never reads from it. The features get it with their services; the
// composition root hands in `silentRecorder` in the production build and, in development and
// test builds (`TEST_SEAMS`), the recorder of the test seams (src/testing/record.ts), which keeps
// what it is told for the probes and `npm run bench`.
import type * as vscode from 'vscode';

/** What product code tells its tests. Each method only records; none returns anything product code uses. */
export interface Recorder {
  /** performance.now(), for a mark taken before the panel it belongs to exists (undefined when nothing records). */
  now(): number | undefined;

  // ---- engagements ----
  /** A short notice shown in the status bar. */
  notice(shown: string): void;
  /** Whether the view's auto-refresh interval runs. */
  autoRefresh(running: boolean): void;
  /** VS Code asked for the tree's roots and got `count` rows. */
  treeServed(count: number, fromCache: boolean): void;
  detailsOpened(): void;
  detailsWebviewError(line: string): void;
  detailsPosted(message: { type: string; view?: unknown }): void;
  goToOpened(quickPick: vscode.QuickPick<vscode.QuickPickItem>, startedAt: number | undefined): void;
  /** The Go to quick pick lists `count` engagements (`complete`: every one). */
  goToListed(count: number, complete: boolean): void;
  goToClosed(): void;

  // ---- usage ----
  panelMark(panel: vscode.WebviewPanel, mark: 'panelAt' | 'createdAt' | 'htmlSetAt', at?: number): void;
  /** The webview said `ready`, with its own clock's marks (epoch ms) when it sent them. */
  panelReady(
    panel: vscode.WebviewPanel,
    timing: { navigationStart: number; scriptStart: number; ready: number } | undefined,
  ): void;
  panelPosted(
    panel: vscode.WebviewPanel,
    message: { type: string; state?: { summary: { data?: unknown }; trend: { status: string } } },
  ): void;
  panelRejected(panel: vscode.WebviewPanel): void;
  panelWebviewError(panel: vscode.WebviewPanel, line: string): void;
  /** Summaries the last trend read of a dashboard asked of the service. */
  trendRequests(dashboard: object, requests: number): void;
  /** The status bar read the summary itself, or took one another window read. */
  statusBarRead(kind: 'reads' | 'shared'): void;
  alertRaised(text: string): void;
}

const ignore = () => undefined;

/** The recorder of the production build: told everything, keeps nothing. */
export const silentRecorder: Recorder = {
  now: ignore,
  notice: ignore,
  autoRefresh: ignore,
  treeServed: ignore,
  detailsOpened: ignore,
  detailsWebviewError: ignore,
  detailsPosted: ignore,
  goToOpened: ignore,
  goToListed: ignore,
  goToClosed: ignore,
  panelMark: ignore,
  panelReady: ignore,
  panelPosted: ignore,
  panelRejected: ignore,
  panelWebviewError: ignore,
  trendRequests: ignore,
  statusBarRead: ignore,
  alertRaised: ignore,
};
