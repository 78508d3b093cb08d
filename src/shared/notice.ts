// A short confirmation in the status bar: a check mark, the text, gone after five seconds.
import * as vscode from 'vscode';
import { safeLabel } from '../core/text';

/** Shows `text` in the status bar for five seconds; returns the text as shown. */
export function statusNotice(text: string): string {
  // Names in it come from the service: `$(…)` shows as written, no control or override.
  const shown = `$(check) ${safeLabel(text)}`;
  vscode.window.setStatusBarMessage(shown, 5000);
  return shown;
}
