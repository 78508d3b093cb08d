// What the Engagements feature records for its test probes only (src/testing/engagements.ts):
// written under `if (TEST_SEAMS)`, so neither the writes nor this module are in the production
// build. A leaf: it imports nothing from a feature.
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

/** The notices kept (newest last). */
const KEPT_NOTICES = 20;

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

export function recordNotice(shown: string): void {
  engagementsRecord.notices.push(shown);
  if (engagementsRecord.notices.length > KEPT_NOTICES) engagementsRecord.notices.shift();
}
