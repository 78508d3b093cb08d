// What an update really changes: only fields whose value differs from what is shown go into
// the PATCH. `type` is not a field of EngagementChanges, so it can never be sent.
import type { Engagement, EngagementChanges } from '../api/types';

export function changedFields(
  current: Pick<Engagement, 'name' | 'description' | 'status'>,
  wanted: EngagementChanges,
): EngagementChanges {
  const changes: EngagementChanges = {};
  if (wanted.name !== undefined && wanted.name.trim() !== current.name.trim()) changes.name = wanted.name.trim();
  if (wanted.description !== undefined && wanted.description.trim() !== (current.description ?? '').trim())
    changes.description = wanted.description.trim();
  if (wanted.status !== undefined && wanted.status.trim() !== current.status.trim())
    changes.status = wanted.status.trim();
  return changes;
}

export function hasChanges(changes: EngagementChanges): boolean {
  return changes.name !== undefined || changes.description !== undefined || changes.status !== undefined;
}

/** Fields whose values differ between two versions of an engagement (for "changed meanwhile"). */
export function differingFields(a: Engagement, b: Engagement): string[] {
  const fields = ['name', 'description', 'status', 'type', 'evaluationCount'] as const;
  return fields.filter((f) => (a[f] ?? '') !== (b[f] ?? ''));
}
