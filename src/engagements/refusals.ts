// What the service refused of a write (a 400/422 with its reasons per field) and what the flow
// that reopens says of it: the create and edit flows reopen on the refused field.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';

/** The per-field messages of a 400/422 the service sent (not a check made before sending). */
export function refusedFields(error: unknown): Record<string, string> | undefined {
  return isApiError(error) && error.kind === 'invalidRequest' && error.status !== undefined
    ? error.fieldErrors
    : undefined;
}

/**
 * The refused field among `asked` (in the flow's order) and what its reopened box says: the
 * service's reason for it, and its reasons for any other field it refused, so one correction
 * does not meet the next refusal unannounced.
 */
export function refusalFor(
  fields: Record<string, string> | undefined,
  asked: readonly string[],
): { field: string; message: string } | undefined {
  const field = fields && asked.find((f) => Object.hasOwn(fields, f));
  if (!fields || field === undefined) return undefined;
  const message = vscode.l10n.t('The service refused this {0}: {1}', field, fields[field]);
  const others = Object.entries(fields)
    .filter(([other]) => other !== field)
    .map(([other, reason]) => `${other}: ${reason}`)
    .join('; ');
  return { field, message: others ? vscode.l10n.t('{0} (also: {1})', message, others) : message };
}
