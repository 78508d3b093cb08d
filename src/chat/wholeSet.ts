// Every engagement of an environment for a tool: for the active one the tree's store and its
// whole-set reader (one read shared with the tree, reused while fresh); for another of the
// user's environments the client's same concurrent reader, kept here while fresh.
import type { Engagement } from '../api/types';
import { wholeSetMaxAge } from '../shared/staleness';
import type { ChatDeps } from './deps';
import type { Target } from './target';

export interface WholeSet {
  items: readonly Engagement[];
  /** Read just now (false: reused while fresh). */
  read: boolean;
}

export async function wholeSet(deps: ChatDeps, target: Target, signal?: AbortSignal): Promise<WholeSet> {
  const maxAge = wholeSetMaxAge();
  if (target.active) {
    const { store } = deps;
    const fresh = store.snapshot().complete && store.age() < maxAge;
    const loaded = await store.loadAll(maxAge);
    const shown = store.snapshot();
    if (!loaded) throw shown.error instanceof Error ? shown.error : new Error('Reading the engagements was cancelled.');
    return { items: shown.items, read: !fresh };
  }
  const kept = deps.wholeSets.get(target.env.id);
  if (kept && Date.now() - kept.readAt < maxAge) return { items: kept.items, read: false };
  const result = await target.api.engagements.listAll({ signal });
  deps.wholeSets.set(target.env.id, { items: result.items, readAt: Date.now() });
  return { items: result.items, read: true };
}

/** One engagement of an environment as last read, without reading (undefined when not read). */
export function knownEngagement(deps: ChatDeps, target: Target, id: string): Engagement | undefined {
  if (target.active) return deps.store.get(id);
  return deps.wholeSets.get(target.env.id)?.items.find((e) => e.id === id);
}

/** A write landed: what is kept for the environment shows it (the tree's store for the active one). */
export function keepWritten(deps: ChatDeps, target: Target, engagement: Engagement, created = false): void {
  if (target.active) {
    deps.store.upsert(engagement, created);
    return;
  }
  const kept = deps.wholeSets.get(target.env.id);
  if (!kept) return;
  const index = kept.items.findIndex((e) => e.id === engagement.id);
  if (index >= 0) kept.items[index] = engagement;
  else if (created) kept.items.unshift(engagement);
}
