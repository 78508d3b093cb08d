// How failures are shown to the user: the message with the actions that fit (Retry, Edit,
// Replace Key, Refresh, Show Logs); the words are src/api/errorText.ts's.
import * as vscode from 'vscode';
import type { ApiErrorKind } from '../api/errors';
import { failsAgain, isApiError } from '../api/errors';
import { describeError } from '../api/errorText';
import { Commands } from '../shared/constants';
import type { Ui } from './ui';

export interface ErrorActions {
  /** What was being done, for the message: "create the engagement". */
  action?: string;
  /** Offered as "Retry": runs the same request again with the same input. */
  retry?: () => Promise<unknown>;
  /** Offered as "Edit": the input flow again, prefilled. */
  edit?: () => Promise<unknown>;
  environmentLabel?: string;
  /** The write's outcome was unknown, and a check found it was not carried out: Retry is safe. */
  checkedNotApplied?: boolean;
}

/** Kinds where the same request again gets the same answer: the key, the address or the values must change first. */
const NOT_RETRIED = new Set<ApiErrorKind | undefined>([
  'unauthorized',
  'forbidden',
  'notFound',
  'invalidRequest',
  'conflict',
]);

/** A write that got no (whole) answer may still have been carried out by the service. */
function outcomeNote(error: unknown, checkedNotApplied: boolean | undefined): string | undefined {
  if (!isApiError(error)) return undefined;
  if (error.connection?.notSent && error.endpoint && error.endpoint.method !== 'GET')
    return vscode.l10n.t('Nothing was sent, so nothing was changed.');
  if (error.writeOutcome !== 'unknown') return undefined;
  // Sent again, it would be refused the same way: not made, and no Retry to offer.
  if (checkedNotApplied && failsAgain(error)) return vscode.l10n.t('A check found the change was not made.');
  return checkedNotApplied
    ? vscode.l10n.t('A check found the change was not made, so Retry is safe.')
    : vscode.l10n.t('The service may have made the change anyway: refresh to check before you retry.');
}

/**
 * Shows an error with the actions that fit its kind and runs the one chosen. Cancellations
 * are silent. Resolves when the message is dismissed or the chosen action has finished.
 */
export async function showError(ui: Ui, error: unknown, actions: ErrorActions = {}): Promise<void> {
  if (isApiError(error) && error.kind === 'cancelled') return;
  const retry = vscode.l10n.t('Retry');
  const edit = vscode.l10n.t('Edit');
  const replaceKey = vscode.l10n.t('Replace Key');
  const refresh = vscode.l10n.t('Refresh');
  const logs = vscode.l10n.t('Show Logs');
  const offered: string[] = [];
  const kind = isApiError(error) ? error.kind : undefined;
  // Retry only where sending again cannot make the change twice, and could get another answer:
  // the same values the service refused (400/422) or found in conflict (409) would be refused
  // again, so those offer Edit instead.
  const uncertain = isApiError(error) && error.writeOutcome !== undefined && !actions.checkedNotApplied;
  // A browser that refuses the request's headers refuses it again, whatever is typed.
  const again = !failsAgain(error);
  if (actions.retry && again && !uncertain && !NOT_RETRIED.has(kind)) offered.push(retry);
  if (actions.edit && again) offered.push(edit);
  if (kind === 'unauthorized' || kind === 'forbidden') offered.push(replaceKey);
  if (kind === 'notFound' || uncertain) offered.push(refresh);
  offered.push(logs);
  const described = [describeError(error, actions.environmentLabel), outcomeNote(error, actions.checkedNotApplied)]
    .filter(Boolean)
    .join(' ');
  const text = actions.action ? vscode.l10n.t('Could not {0}. {1}', actions.action, described) : described;
  const level = kind === 'rateLimited' || kind === 'forbidden' ? 'warning' : 'error';
  const chosen = await ui.message(level, text, {}, ...offered);
  if (chosen === retry) {
    try {
      await actions.retry?.();
    } catch (again) {
      await showError(ui, again, actions);
    }
  } else if (chosen === edit) await actions.edit?.();
  else if (chosen === replaceKey) await vscode.commands.executeCommand(Commands.replaceKey);
  else if (chosen === refresh) await vscode.commands.executeCommand(Commands.refreshEngagements);
  else if (chosen === logs) await vscode.commands.executeCommand(Commands.showLogs);
}
