// What an update really changes: only fields whose value differs from what is shown go into
// the PATCH. `type` is not a field of EngagementChanges, so it can never be sent.
import type { Engagement, EngagementChanges } from '../api/types';

export function changedFields(current: Pick<Engagement, 'name' | 'description' | 'status'>, wanted: EngagementChanges): EngagementChanges {
  const changes: EngagementChanges = {};
  if (wanted.name !== undefined && wanted.name.trim() !== current.name.trim()) changes.name = wanted.name.trim();
  if (wanted.description !== undefined && wanted.description.trim() !== (current.description ?? '').trim()) changes.description = wanted.description.trim();
  if (wanted.status !== undefined && wanted.status.trim() !== current.status.trim()) changes.status = wanted.status.trim();
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

/** Runs `task` over `items` with at most `limit` at once; results keep the input order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const results = new Array<PromiseSettledResult<R>>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = { status: 'fulfilled', value: await task(items[index], index) };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
