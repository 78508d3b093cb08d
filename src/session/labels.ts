// How an environment is named on screen. One from the workspace's settings is always marked
// as such (a repository chose its label and URL); a label two environments share is shown
// with where each comes from, so a workspace's "Production" never passes for the user's own.
import * as vscode from 'vscode';
import { type Environment, originOf } from './model';

/** Where an environment comes from, in words; empty for the user's own. */
export function sourceNote(env: Environment): string {
  if (env.source === 'workspace') return vscode.l10n.t('defined by this workspace');
  if (env.source === 'settings') return vscode.l10n.t('from your settings');
  return '';
}

/** The label, marked "(workspace)" for a workspace's environment and with its source when the label is shared. */
export function shownLabel(env: Environment, all: readonly Environment[]): string {
  if (env.source === 'workspace') return vscode.l10n.t('{0} (workspace)', env.label);
  const shared = all.some((other) => other.id !== env.id && other.label.toLowerCase() === env.label.toLowerCase());
  if (!shared) return env.label;
  return env.source === 'settings'
    ? vscode.l10n.t('{0} (your settings)', env.label)
    : vscode.l10n.t('{0} (yours)', env.label);
}

/** The origin a key for this environment is sent to, for a workspace's environment; else the base URL. */
export function destination(env: Environment): string {
  return env.source === 'workspace'
    ? vscode.l10n.t('{0} — sends the key to {1}', env.baseUrl, originOf(env.baseUrl))
    : env.baseUrl;
}
