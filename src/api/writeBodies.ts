// What a write sends and how to tell it landed: the POST and PATCH bodies (checked here as
// the service would check them, so a refused input is said before anything is sent), and
// whether an engagement read back is the one a create made or holds a PATCH's fields.
import { l10n } from '../core/l10n';
import { validateName, validateStatus, validateType } from '../core/validation';
import { ApiError } from './errors';
import type { Engagement, EngagementChanges, NewEngagement } from './types';

/** Throws an `invalidRequest` with the message (for the field, when named); nothing when there is none. */
export function refuse(message: string | undefined, field?: string): void {
  if (message) throw new ApiError('invalidRequest', message, { fieldErrors: field ? { [field]: message } : undefined });
}

/**
 * Whether an engagement is the one a create sent (`body`, the POST body as `createBody` made
 * it): the same name, type and description, created at `from` (ms since epoch) or later.
 */
export function isCreated(engagement: Engagement, body: NewEngagement, from: number): boolean {
  return (
    engagement.name === body.name &&
    engagement.type === body.type &&
    (body.description ?? '') === (engagement.description ?? '') &&
    Date.parse(engagement.createdAt) >= from
  );
}

/** Whether an engagement holds every field of a PATCH body. */
export function holdsChanges(engagement: Engagement, body: EngagementChanges): boolean {
  return Object.entries(body).every(([field, value]) => (engagement[field] ?? '') === value);
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
