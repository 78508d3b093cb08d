// How long what was read stays fresh: the view's staleness setting, read by every feature that
// reuses a whole set of engagements read earlier (the tree's, the chat tools').
import * as vscode from 'vscode';
import { Settings } from './constants';

/** How long a whole set read earlier is reused (ms): `engagementUsage.engagements.staleAfterSeconds`. */
export function wholeSetMaxAge(): number {
  return (
    Math.max(0, vscode.workspace.getConfiguration(Settings.section).get<number>(Settings.staleAfterSeconds, 300)) * 1000
  );
}
