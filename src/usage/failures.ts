// What a failed read means for a dashboard: a key that is missing, rejected or lacks the
// usage:read scope blocks the whole dashboard (with what helps); anything else is the
// section's error, which Retry reads again.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { describeError, serviceReason } from '../ui/errors';
import type { Blocked, ErrorView } from './protocol';

export const removedBlock = (): Blocked => ({
  reason: 'removed',
  message: vscode.l10n.t('The environment of this dashboard was removed.'),
  actions: ['addEnvironment'],
});

export const noKeyBlock = (label: string): Blocked => ({
  reason: 'noKey',
  message: vscode.l10n.t('The API key of {0} is not on this machine. Enter it to see usage.', label),
  actions: ['replaceKey', 'switchEnvironment'],
});

/** The dashboard blocked, or the section's error. */
export function failureOf(error: unknown, label: string): { blocked: Blocked } | { error: ErrorView } {
  if (isApiError(error) && error.kind === 'forbidden') {
    const message = [
      vscode.l10n.t(
        'The API key of {0} lacks the {1} scope, so its usage cannot be shown. Use a key that has this scope, or open the dashboard of another environment.',
        label,
        error.scope ?? 'usage:read',
      ),
      serviceReason(error),
    ];
    return {
      blocked: {
        reason: 'forbidden',
        message: message.filter(Boolean).join(' '),
        actions: ['replaceKey', 'switchEnvironment'],
      },
    };
  }
  if (isApiError(error) && error.kind === 'unauthorized') {
    const noKey = error.status === undefined;
    const message = noKey
      ? vscode.l10n.t('The API key of {0} is not on this machine. Enter it to see usage.', label)
      : [
          vscode.l10n.t('The service rejected the API key of {0} (401). Replace the key to see usage.', label),
          serviceReason(error),
        ]
          .filter(Boolean)
          .join(' ');
    return { blocked: { reason: noKey ? 'noKey' : 'unauthorized', message, actions: ['replaceKey', 'showLogs'] } };
  }
  return {
    error: { kind: isApiError(error) ? error.kind : 'unknown', message: describeError(error, label), retryable: true },
  };
}
