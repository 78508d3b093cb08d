// What the engagement store shows (its snapshot), where it reads from, and what a read left
// loaded (and how a page or a write is added to it): shared by the store and its parts.
import { checkPage, type PagingStop } from '../api/paging';
import type { ServiceApi } from '../api/service';
import type { AcceptedWrite, Engagement, Page } from '../api/types';
import type { EngagementCache } from './cache';
import type { LookOptions } from './pending';

export type StorePhase = 'noEnvironment' | 'keyMissing' | 'idle' | 'loading' | 'loaded' | 'failed';

export interface StoreSnapshot {
  environmentId?: string;
  phase: StorePhase;
  /** Loaded engagements in the service's order, each id once. */
  items: readonly Engagement[];
  /** The service's `totalCount` as last seen. */
  totalCount: number;
  /** True while more pages can be loaded. */
  hasMore: boolean;
  /** Why the service cannot give more although its total says there are more. */
  stop?: PagingStop;
  /** When the items were last read successfully (ms since epoch). */
  fetchedAt?: number;
  /** The last failure of a load, refresh or Load more; cleared by the next success. */
  error?: unknown;
  refreshing: boolean;
  loadingMore: boolean;
  /** The items are the first page saved by an earlier session; no refresh has landed yet. */
  fromCache: boolean;
  /** Every engagement of the environment is loaded (a whole-set read landed): sort and filter see them all. */
  complete: boolean;
  /** Pages read for the items shown (a service may send far more on one than asked). */
  pages: number;
  /** While every page is being read: how many engagements so far, of how many. */
  readingAll?: { loaded: number; total: number };
  /** Writes the service accepted (202) and does not show yet, oldest first: the tree shows them as pending. */
  pending: readonly PendingWrite[];
}

/** A write the service accepted and does not show yet, as the tree shows it. */
export interface PendingWrite {
  /** Its own key, for the tree's row. */
  readonly key: string;
  readonly write: AcceptedWrite;
}

/** Where the store gets its client: the active environment's connection and settings. */
export interface StoreSource {
  environmentId(): string | undefined;
  api(): ServiceApi | undefined;
  hasKey(): Promise<boolean>;
  pageSize(): number;
  /** Where the last first page of each environment is kept between sessions. */
  cache?: EngagementCache;
  /** How accepted writes are looked for again (tests: a short schedule, a clock of their own). */
  acceptedLooks?: LookOptions;
}

/** What the last read left shown: replaced together by each read that lands, emptied together. */
export interface Loaded {
  /** In the service's order, each id once. */
  items: Engagement[];
  /** The service's `totalCount` as last seen. */
  totalCount: number;
  /** Pages read so far. */
  pages: number;
  /** The page size the service really answers with (learned from its first page). */
  pageSize: number;
  stop?: PagingStop;
  /** When the items were last read successfully (ms since epoch). */
  fetchedAt?: number;
  /** The items are the first page saved by an earlier session, not yet confirmed by the service. */
  fromCache: boolean;
}

export function nothingLoaded(): Loaded {
  return { items: [], totalCount: 0, pages: 0, pageSize: 0, fromCache: false };
}

/** Each id once, the first kept. */
export function dedupe(items: readonly Engagement[]): Engagement[] {
  const seen = new Set<string>();
  return items.filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true)));
}

/** Adds the page Load more read; false when it added nothing (the service cannot page further). */
export function appendPage(loaded: Loaded, asked: number, page: Page<Engagement>): boolean {
  // A service that answers another page, or only what is shown, cannot page further.
  const stop = checkPage(asked, page, new Set(loaded.items.map((e) => e.id)), (e) => e.id);
  if (stop) loaded.stop = stop;
  else if (page.data.length === 0) loaded.stop = 'endedEarly';
  else {
    loaded.pages = asked;
    loaded.totalCount = page.totalCount;
    // Items may move between pages when others are created meanwhile: each id shows once.
    loaded.items = dedupe([...loaded.items, ...page.data]);
    return true;
  }
  return false;
}

/** What a create or update returned: replaced in place, or (created) added in front. */
export function putInto(loaded: Loaded, engagement: Engagement, created: boolean): void {
  const index = loaded.items.findIndex((e) => e.id === engagement.id);
  if (index >= 0) loaded.items = loaded.items.map((e, i) => (i === index ? engagement : e));
  else {
    loaded.items = [engagement, ...loaded.items];
    if (created) loaded.totalCount += 1;
  }
}
