// What a write sends: the POST and PATCH bodies (checked here as the service would check
// them, so a refused input is said before anything is sent) and a PATCH's preconditions.
import { l10n } from '../core/l10n';
import { validateName, validateStatus, validateType } from '../core/validation';
import { ApiError } from './errors';
import type { EngagementChanges, NewEngagement } from './types';

/** Throws an `invalidRequest` with the message (for the field, when named); nothing when there is none. */
export function refuse(message: string | undefined, field?: string): void {
  if (message) throw new ApiError('invalidRequest', message, { fieldErrors: field ? { [field]: message } : undefined });
}

/** The POST body: trimmed name and type, a description only when there is one. */
export function createBody(input: NewEngagement): NewEngagement {
  refuse(validateName(input.name), 'name');
  refuse(validateType(input.type), 'type');
  const body: NewEngagement = { name: input.name.trim(), type: input.type.trim() };
  if (input.description !== undefined && input.description.trim() !== '') body.description = input.description.trim();
  return body;
}

/** The PATCH body: only the fields given, name and status trimmed. */
export function updateBody(changes: EngagementChanges): EngagementChanges {
  const body: EngagementChanges = {};
  if (changes.name !== undefined) {
    refuse(validateName(changes.name), 'name');
    body.name = changes.name.trim();
  }
  if (changes.description !== undefined) body.description = changes.description;
  if (changes.status !== undefined) {
    refuse(validateStatus(changes.status), 'status');
    body.status = changes.status.trim();
  }
  if (Object.keys(body).length === 0)
    throw new ApiError('invalidRequest', l10n.t('Nothing to change: give a name, description or status.'));
  return body;
}

/** If-Match when the service gave a validator for the expected version; If-Unmodified-Since from `updatedAt` always. */
export function preconditions(
  known: { etag: string; updatedAt: string } | undefined,
  expectedUpdatedAt: string | undefined,
): Record<string, string> | undefined {
  if (expectedUpdatedAt === undefined) return undefined;
  const headers: Record<string, string> = {};
  if (known && known.updatedAt === expectedUpdatedAt) headers['If-Match'] = known.etag;
  const at = Date.parse(expectedUpdatedAt);
  if (Number.isFinite(at)) headers['If-Unmodified-Since'] = new Date(at).toUTCString();
  return headers;
}
