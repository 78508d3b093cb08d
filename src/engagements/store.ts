// The engagements of the active environment, as last read: pages loaded so far, when, and
// the last failure. Views render snapshots of it; commands ask it to load and tell it what
// they changed. It does not import `vscode`, so unit tests drive it against the reference
// service directly. Here too: what it keeps besides the last read, the whole-set read, and
// the page saved for the next session. Writes accepted and not shown yet: accepted.ts.
import { isApiError } from '../api/errors';
import type { PagingStop } from '../api/paging';
import { checkPage } from '../api/paging';
import type { ServiceApi } from '../api/service';
import type { AcceptedWrite, Engagement, NextPage, Page } from '../api/types';
import { LIMITS } from '../core/concurrency';
import type { MementoLike, SaveFailed, Saved } from '../shared/perEnvironment';
import { PerEnvironmentCache } from '../shared/perEnvironment';
import type { AcceptedOutcome, LookOptions, PendingWrite } from './accepted';
import { AcceptedWrites } from './accepted';

type Listener = () => void;

export class EngagementStore {
  private readonly listeners = new Set<Listener>();
  private phase: StorePhase = 'idle';
  private loaded = nothingLoaded();
  private error?: unknown;
  private refreshing?: Promise<void>;
  private loadingMore?: Promise<void>;
  private abort = new AbortController();
  /** Bumped by reset(): answers of an older generation are dropped. */
  private generation = 0;
  private readonly localWrites = new LocalWrites();
  private readonly seen = new SeenValues();
  private readonly whole = new WholeSet({
    source: () => this.source,
    generation: () => this.generation,
    signal: () => this.abort.signal,
    loaded: () => this.loaded,
    refreshing: () => this.refreshing,
    emit: () => this.emit(),
    mergeLocal: (fetched) => this.localWrites.merge(fetched),
    land: (loaded) => this.land(loaded),
    fail: (error) => {
      this.error = error;
      if (this.phase !== 'loaded') this.phase = 'failed';
    },
  });
  private readonly accepted = new AcceptedWrites({
    shown: (engagement, created) => this.upsert(engagement, created),
    changed: () => this.emit(),
  });

  constructor(private readonly source: StoreSource) {
    this.restoreCache();
  }

  /** Shows the page an earlier session saved for the active environment, until a refresh lands. */
  private restoreCache(): void {
    const page = savedPage(this.source);
    if (!page) return;
    this.loaded = page;
    this.seen.learn(page.items);
  }

  onDidChange(listener: Listener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }

  snapshot(): StoreSnapshot {
    const { items, totalCount, totalEstimated, pages, stop, fetchedAt, fromCache, skipped } = this.loaded;
    const environmentId = this.source.environmentId();
    const read = rowsRead(this.loaded);
    return {
      environmentId,
      phase: environmentId === undefined ? 'noEnvironment' : this.phase,
      items,
      totalCount,
      ...(totalEstimated && read < totalCount ? { totalEstimated } : {}),
      hasMore: pages > 0 && stop === undefined && read < totalCount,
      stop: read < totalCount ? stop : undefined,
      ...(skipped ? { skipped } : {}),
      fetchedAt,
      error: this.error,
      refreshing: this.refreshing !== undefined,
      loadingMore: this.loadingMore !== undefined,
      fromCache,
      complete: this.whole.complete(this.loaded),
      pages,
      readingAll: this.whole.progress ? { ...this.whole.progress } : undefined,
      pending: this.accepted.entries(),
    };
  }

  get(id: string): Engagement | undefined {
    return this.loaded.items.find((e) => e.id === id);
  }

  /** Statuses seen in this environment's data (first spelling kept), for the status pick. */
  seenStatuses(): string[] {
    return this.seen.statuses();
  }

  seenTypes(): string[] {
    return this.seen.types();
  }

  /** Age of the data in ms, or Infinity when nothing was read yet. */
  age(now = nowOf(this.source)): number {
    const { fetchedAt } = this.loaded;
    return fetchedAt === undefined ? Number.POSITIVE_INFINITY : now - fetchedAt;
  }

  /** Starts the first load unless one happened or is running; resolves when it settles. */
  ensureLoaded(): Promise<void> {
    if (this.phase === 'idle' && !this.refreshing) return this.refresh();
    return this.settled();
  }

  /** Resolves once no load, refresh, Load more or whole-set read is in flight. */
  async settled(): Promise<void> {
    for (let i = 0; i < 100 && (this.refreshing || this.loadingMore || this.whole.running); i++)
      await Promise.allSettled([this.refreshing, this.loadingMore, this.whole.running]);
  }

  /** Forgets everything (the environment, its URL or key changed) and aborts what is in flight. */
  reset(): void {
    this.generation++;
    this.abort.abort();
    this.abort = new AbortController();
    this.phase = 'idle';
    this.loaded = nothingLoaded();
    this.error = undefined;
    this.refreshing = undefined;
    this.loadingMore = undefined;
    this.localWrites.clear();
    this.seen.clear();
    this.whole.forget();
    this.accepted.cancel();
    this.restoreCache();
    this.emit();
  }

  /**
   * Re-reads the pages shown so far (at least the first). On failure the items stay and the
   * error is kept for the view to say why. Calls while one runs share it.
   */
  refresh(): Promise<void> {
    this.refreshing ??= this.runRefresh().finally(() => {
      this.refreshing = undefined;
      this.emit();
    });
    return this.refreshing;
  }

  private async runRefresh(): Promise<void> {
    const generation = this.generation;
    const api = this.source.api();
    if (!api) {
      this.phase = 'noEnvironment';
      return;
    }
    if (!(await this.source.hasKey())) {
      if (generation !== this.generation) return;
      if (this.loaded.fromCache) this.dropCache();
      this.phase = 'keyMissing';
      this.error = undefined;
      return;
    }
    if (generation !== this.generation) return;
    if (this.whole.at !== undefined) return void (await this.whole.read(api, generation));
    if (this.phase !== 'loaded') this.phase = 'loading';
    this.emit();
    const pageSize = this.source.pageSize();
    // Keep as many engagements in view as before (at least a page), in the service's pages.
    const shown = Math.max(pageSize, this.loaded.fromCache ? 0 : rowsRead(this.loaded));
    const signal = this.abort.signal;
    try {
      const read = await api.engagements.listAll({ pageSize, limit: shown, concurrency: LIMITS.refresh, signal });
      if (generation !== this.generation) return;
      this.land({
        items: this.localWrites.merge(read.items),
        totalCount: read.totalCount,
        totalEstimated: read.totalEstimated,
        pages: read.pages,
        pageSize: read.pageSize,
        stop: read.stop,
        next: read.next,
        ...(read.skipped ? { skipped: read.skipped } : {}),
        fetchedAt: nowOf(this.source),
        fromCache: false,
      });
    } catch (error) {
      if (generation !== this.generation || (isApiError(error) && error.kind === 'cancelled' && signal.aborted)) return;
      this.error = error;
      if (this.loaded.fromCache && isApiError(error) && (error.kind === 'unauthorized' || error.kind === 'forbidden'))
        this.dropCache();
      if (this.phase !== 'loaded') this.phase = 'failed';
    }
  }

  /** Shows what a read returned, and saves its first page for the next session. */
  private land(loaded: Loaded & { fetchedAt: number }): void {
    this.loaded = loaded;
    this.error = undefined;
    this.phase = 'loaded';
    this.seen.learn(loaded.items);
    this.accepted.shownIn(loaded.items);
    savePage(this.source, loaded);
  }

  /** A key that is rejected (or lacks the scope) must not keep showing what an earlier key read. */
  private dropCache(): void {
    forgetPage(this.source);
    this.loaded = nothingLoaded();
  }

  /** Reads the next page and appends what it holds that is not shown yet. */
  loadMore(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    if (!this.loadingMore) {
      this.loadingMore = this.runLoadMore().finally(() => {
        this.loadingMore = undefined;
        this.emit();
      });
      this.emit();
    }
    return this.loadingMore;
  }

  private async runLoadMore(): Promise<void> {
    const generation = this.generation;
    const api = this.source.api();
    if (!api || this.phase !== 'loaded' || !this.snapshot().hasMore) return;
    const signal = this.abort.signal;
    try {
      const asked = this.loaded.pages + 1;
      const { pageSize, next } = this.loaded;
      const page = await api.engagements.list({ page: asked, pageSize, next }, { signal });
      if (generation !== this.generation) return;
      if (appendPage(this.loaded, asked, page)) this.accepted.shownIn(page.data);
      this.error = undefined;
      this.seen.learn(page.data);
    } catch (error) {
      if (generation !== this.generation || (isApiError(error) && error.kind === 'cancelled' && signal.aborted)) return;
      this.error = error;
    }
  }

  /**
   * Puts what a create or update returned into the list: replaced in place, or (created)
   * added in front. Kept even if a load that started earlier answers later.
   */
  upsert(engagement: Engagement, created = false): void {
    if (this.refreshing || this.whole.running) this.localWrites.record(engagement, created);
    putInto(this.loaded, engagement, created);
    this.seen.learn([engagement]);
    this.emit();
  }

  /**
   * A write the service accepted (202) and does not show yet. The tree shows it as pending (a
   * create as a row of its own, an update's new values on its row) while it is looked for
   * again (`lookAgain`); once the service shows it, it takes its place like any write. Stopped
   * by reset() (another environment or key) and dispose(). Resolves with what became of it.
   */
  track(write: AcceptedWrite): Promise<AcceptedOutcome> {
    const api = this.source.api();
    if (!api) return Promise.resolve({ kind: 'cancelled' });
    return this.accepted.track(api, write, this.abort.signal, this.source.acceptedLooks);
  }

  /** Stops every read and look in flight (the view is going away). */
  dispose(): void {
    this.generation++;
    this.abort.abort();
    this.accepted.cancel();
    this.listeners.clear();
  }

  /**
   * Reads every page (the client's concurrent reader) and shows them all; later refreshes
   * read the whole set again. A whole set read less than `maxAgeMs` ago is reused. Resolves
   * true once every engagement is loaded; false when cancelled (what was shown stays) or
   * failed (the error is kept for the view). Calls while one runs share it.
   */
  loadAll(maxAgeMs = 0): Promise<boolean> {
    return this.whole.load(maxAgeMs);
  }

  /** Stops a whole-set read in flight; what was shown before stays. */
  cancelLoadAll(): void {
    this.whole.cancel();
  }
}

// What the engagement store shows (its snapshot), where it reads from, and what a read left
// loaded (and how a page or a write is added to it): shared by the store and its parts.
export type StorePhase = 'noEnvironment' | 'keyMissing' | 'idle' | 'loading' | 'loaded' | 'failed';

export interface StoreSnapshot {
  environmentId?: string;
  phase: StorePhase;
  /** Loaded engagements in the service's order, each id once. */
  items: readonly Engagement[];
  /** The service's `totalCount` as last seen. */
  totalCount: number;
  /** The service says no total: `totalCount` is one past what was read while a next page may hold more, not a count. */
  totalEstimated?: boolean;
  /** True while more pages can be loaded. */
  hasMore: boolean;
  /** Why the service cannot give more although its total says there are more. */
  stop?: PagingStop;
  /** Rows the service sent that are not among `items`: they have no usable id (the log says which). */
  skipped?: number;
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
  /** The clock a read's age is told by, in ms since the epoch. Default `Date.now` (tests: one they move). */
  now?: () => number;
}

/** The time by the source's clock. */
function nowOf(source: StoreSource): number {
  return source.now?.() ?? Date.now();
}

/** What the last read left shown: replaced together by each read that lands, emptied together. */
export interface Loaded {
  /** In the service's order, each id once. */
  items: Engagement[];
  /** The service's `totalCount` as last seen. */
  totalCount: number;
  /** No total said, and the end not reached (see `StoreSnapshot.totalEstimated`). */
  totalEstimated?: boolean;
  /** Pages read so far. */
  pages: number;
  /** The page size the service really answers with (learned from its first page). */
  pageSize: number;
  stop?: PagingStop;
  /** Where the next page is, when the service names it its own way (a link or a cursor): Load more asks it there. */
  next?: NextPage;
  /** Rows read and left out of `items`: they have no usable id. */
  skipped?: number;
  /** When the items were last read successfully (ms since epoch). */
  fetchedAt?: number;
  /** The items are the first page saved by an earlier session, not yet confirmed by the service. */
  fromCache: boolean;
}

function nothingLoaded(): Loaded {
  return { items: [], totalCount: 0, pages: 0, pageSize: 0, fromCache: false };
}

/** The rows read so far: the engagements listed and those left out (no usable id); what the service's total counts. */
function rowsRead(loaded: Pick<Loaded, 'items' | 'skipped'>): number {
  return loaded.items.length + (loaded.skipped ?? 0);
}

/** Each id once, the first kept. */
function dedupe(items: readonly Engagement[]): Engagement[] {
  const seen = new Set<string>();
  return items.filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true)));
}

/** Adds the page Load more read; false when it added nothing (the service cannot page further). */
function appendPage(loaded: Loaded, asked: number, page: Page<Engagement>): boolean {
  // A service that answers another page, or only what is shown, cannot page further.
  const stop = checkPage(asked, page, new Set(loaded.items.map((e) => e.id)), (e) => e.id);
  // A page of rows that are all left out (no usable id) is not an empty one: the list goes on.
  const empty = page.data.length === 0 && !page.skipped;
  if ((stop || empty) && page.totalEstimated) {
    // No total said: nothing new on the next page is the end, and the total is what was counted.
    loaded.totalCount = rowsRead(loaded);
    loaded.totalEstimated = undefined;
  } else if (stop) loaded.stop = stop;
  else if (empty) loaded.stop = 'endedEarly';
  else {
    loaded.pages = asked;
    loaded.next = page.next;
    loaded.totalCount = page.totalCount;
    loaded.totalEstimated = page.totalEstimated;
    if (page.skipped) loaded.skipped = (loaded.skipped ?? 0) + page.skipped;
    // Items may move between pages when others are created meanwhile: each id shows once.
    loaded.items = dedupe([...loaded.items, ...page.data]);
    // The service said this is the last page, and no total: what is loaded is all there is.
    if (page.more === false && page.totalEstimated) {
      loaded.totalCount = rowsRead(loaded);
      loaded.totalEstimated = undefined;
    }
    return true;
  }
  return false;
}

/** What a create or update returned: replaced in place, or (created) added in front. */
function putInto(loaded: Loaded, engagement: Engagement, created: boolean): void {
  const index = loaded.items.findIndex((e) => e.id === engagement.id);
  if (index >= 0) loaded.items = loaded.items.map((e, i) => (i === index ? engagement : e));
  else {
    loaded.items = [engagement, ...loaded.items];
    if (created) loaded.totalCount += 1;
  }
}

// What the store keeps besides the last read: local writes made while a read was in flight
// (merged into its result), and the statuses and types seen in the data (for the picks).
/** Local writes made while a load was in flight; merged into its result. */
class LocalWrites {
  private readonly writes = new Map<string, { engagement: Engagement; created: boolean }>();

  record(engagement: Engagement, created: boolean): void {
    this.writes.set(engagement.id, { engagement, created });
  }

  clear(): void {
    this.writes.clear();
  }

  /** What a read fetched, with the writes made meanwhile (newer ones, and creates it lacks); then forgets them. */
  merge(fetched: Engagement[]): Engagement[] {
    if (this.writes.size === 0) return fetched;
    let out = fetched;
    for (const { engagement, created } of this.writes.values()) {
      const index = out.findIndex((e) => e.id === engagement.id);
      if (index < 0) {
        if (created) out = [engagement, ...out];
      } else if (Date.parse(engagement.updatedAt ?? '') > Date.parse(out[index].updatedAt ?? '')) {
        out = out.map((e, i) => (i === index ? engagement : e));
      }
    }
    this.writes.clear();
    return out;
  }
}

/** Statuses (first spelling kept) and types seen in this environment's data. */
class SeenValues {
  private readonly statusesSeen = new Map<string, string>();
  private readonly typesSeen = new Set<string>();

  learn(items: readonly Engagement[]): void {
    for (const e of items) {
      const { status, type } = e;
      if (status !== undefined && status.trim() !== '' && !this.statusesSeen.has(status.toLowerCase()))
        this.statusesSeen.set(status.toLowerCase(), status);
      if (type !== undefined && type.trim() !== '') this.typesSeen.add(type);
    }
  }

  clear(): void {
    this.statusesSeen.clear();
    this.typesSeen.clear();
  }

  statuses(): string[] {
    return [...this.statusesSeen.values()];
  }

  types(): string[] {
    return [...this.typesSeen];
  }
}

// The page the store saves for the next session: the first page of each environment, shown at
// once when the extension starts again, until a refresh lands.
/**
 * The most engagements saved for the next session: the largest page the view asks for. A
 * service may answer far more on a page (one that does not page at all sends every one);
 * the workspace state is not the place for thousands.
 */
export const SAVED_ITEMS_MAX = 100;

/** The page an earlier session saved for the active environment, as the store shows it. */
function savedPage(source: StoreSource): Loaded | undefined {
  const id = source.environmentId();
  const page = id === undefined ? undefined : source.cache?.read(id);
  if (!page) return undefined;
  const items = dedupe(page.items).slice(0, SAVED_ITEMS_MAX);
  const skipped = Number.isSafeInteger(page.skipped) && (page.skipped ?? 0) > 0 ? page.skipped : undefined;
  const totalCount = Math.max(page.totalCount, items.length + (skipped ?? 0));
  return {
    items,
    totalCount,
    // A page saved from a service that said no total: its count stays an estimate ("50 loaded", not "of 51").
    ...(page.totalEstimated === true ? { totalEstimated: true } : {}),
    ...(skipped ? { skipped } : {}),
    pages: 1,
    pageSize: page.pageSize,
    fetchedAt: page.fetchedAt,
    fromCache: true,
  };
}

/** Saves the first page of what a read returned, for the next session. */
function savePage(source: StoreSource, loaded: Loaded & { fetchedAt: number }): void {
  const id = source.environmentId();
  const saved = Math.min(loaded.pageSize, SAVED_ITEMS_MAX);
  if (id !== undefined)
    source.cache?.write(id, {
      items: loaded.items.slice(0, saved),
      totalCount: loaded.totalCount,
      ...(loaded.totalEstimated ? { totalEstimated: true } : {}),
      // Rows left out (no usable id) are counted with a page that holds every engagement read.
      ...(loaded.skipped && loaded.items.length <= saved ? { skipped: loaded.skipped } : {}),
      pageSize: loaded.pageSize,
      fetchedAt: loaded.fetchedAt,
    });
}

/** Forgets the page saved for the active environment. */
function forgetPage(source: StoreSource): void {
  const id = source.environmentId();
  if (id !== undefined) source.cache?.forget(id);
}

// The store's whole-set read: every page at once (the client's concurrent reader), its
// progress, its Stop, and when the whole set was last read (a recent one is reused).
/** The least time between two progress steps shown while every page is read. */
const PROGRESS_STEP_MS = 100;

/** What the whole-set read needs of the store. */
interface WholeHost {
  source(): StoreSource;
  /** Bumped by the store's reset(): answers of an older generation are dropped. */
  generation(): number;
  /** Aborted by the store's reset() and dispose(). */
  signal(): AbortSignal;
  loaded(): Loaded;
  refreshing(): Promise<void> | undefined;
  emit(): void;
  /** Local writes made while the read was in flight, merged into its result. */
  mergeLocal(fetched: Engagement[]): Engagement[];
  /** Shows what the read returned, and saves its first page for the next session. */
  land(loaded: Loaded & { fetchedAt: number }): void;
  /** The read failed: the error is kept for the view. */
  fail(error: unknown): void;
}

class WholeSet {
  /** When the whole set was last read (the store's reset() forgets it). */
  at?: number;
  /** The read in flight, and its progress. */
  running?: Promise<boolean>;
  private abort?: AbortController;
  progress?: { loaded: number; total: number };

  constructor(private readonly host: WholeHost) {}

  /** Every engagement is loaded. */
  complete(loaded: Loaded): boolean {
    return this.at !== undefined && rowsRead(loaded) >= loaded.totalCount;
  }

  forget(): void {
    this.at = undefined;
    this.running = undefined;
    this.progress = undefined;
  }

  /** See EngagementStore.loadAll. */
  load(maxAgeMs: number): Promise<boolean> {
    const loaded = this.host.loaded();
    const refreshing = this.host.refreshing();
    const now = nowOf(this.host.source());
    if (this.complete(loaded) && this.at !== undefined && now - this.at < maxAgeMs && !refreshing)
      return Promise.resolve(true);
    if (
      !this.running &&
      !refreshing &&
      !loaded.fromCache &&
      loaded.pages > 0 &&
      loaded.stop === undefined &&
      rowsRead(loaded) >= loaded.totalCount &&
      loaded.fetchedAt !== undefined &&
      now - loaded.fetchedAt < maxAgeMs
    ) {
      // Every engagement came with the pages already read (a small environment, or Load more
      // to the end), lately: nothing is left to read.
      this.at = loaded.fetchedAt;
      this.host.emit();
      return Promise.resolve(true);
    }
    this.running ??= this.start().finally(() => {
      this.running = undefined;
      this.abort = undefined;
      this.progress = undefined;
      this.host.emit();
    });
    return this.running;
  }

  private async start(): Promise<boolean> {
    const generation = this.host.generation();
    const source = this.host.source();
    const api = source.api();
    if (!api || !(await source.hasKey())) return false;
    this.abort = new AbortController();
    const loaded = this.host.loaded();
    this.progress = { loaded: loaded.items.length, total: loaded.totalCount };
    this.host.emit();
    // A refresh in flight lands first; its pages are then read again with the rest.
    await this.host.refreshing();
    return generation === this.host.generation() && (await this.read(api, generation));
  }

  /** Stops a whole-set read in flight; what was shown before stays. */
  cancel(): void {
    this.abort?.abort();
  }

  /** Reads every page and shows them all; false when cancelled or failed. */
  async read(api: ServiceApi, generation: number): Promise<boolean> {
    const signals = [this.host.signal(), this.abort?.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = AbortSignal.any(signals);
    let progressShownAt = performance.now();
    try {
      const result = await api.engagements.listAll({
        signal,
        onProgress: (loaded, total) => {
          if (generation !== this.host.generation() || !this.progress) return;
          this.progress = { loaded, total };
          // Every listener (view, quick pick, details) repaints on each emit: a hundred pages
          // arriving within a second are shown as a few steps, and the end is always shown.
          const now = performance.now();
          if (loaded < total && now - progressShownAt < PROGRESS_STEP_MS) return;
          progressShownAt = now;
          this.host.emit();
        },
      });
      if (generation !== this.host.generation()) return false;
      const pageSize = this.host.source().pageSize();
      const items = this.host.mergeLocal(result.items);
      this.at = nowOf(this.host.source());
      this.host.land({
        items,
        totalCount: Math.max(result.totalCount, items.length + (result.skipped ?? 0)),
        totalEstimated: result.totalEstimated,
        pages: Math.max(1, Math.ceil((items.length + (result.skipped ?? 0)) / pageSize)),
        ...(result.skipped ? { skipped: result.skipped } : {}),
        pageSize,
        // Why this read ended short (a service that repeats its first page, too many pages), or
        // else what an earlier Load more found.
        stop: result.stop ?? this.host.loaded().stop,
        fetchedAt: this.at,
        fromCache: false,
      });
      return true;
    } catch (error) {
      if (generation !== this.host.generation() || (isApiError(error) && error.kind === 'cancelled' && signal.aborted))
        return false;
      this.host.fail(error);
      return false;
    }
  }
}

// The last first page of engagements shown per environment, for the view to show at once on
// the next activation (or when the environment is active again) until a refresh lands.
export interface CachedPage extends Saved {
  items: Engagement[];
  totalCount: number;
  /** The service said no total: `totalCount` is an estimate (pages saved before this field read as said). */
  totalEstimated?: boolean;
  /** Rows left out of `items` (no usable id), when `items` holds every engagement read. */
  skipped?: number;
  pageSize: number;
}

/** What the store needs of the cache (the memento-backed one, or any other). */
export interface EngagementCache {
  read(environmentId: string): CachedPage | undefined;
  write(environmentId: string, page: CachedPage): void;
  forget(environmentId: string): void;
}

function isEngagementLike(value: unknown): boolean {
  const e = value as Engagement | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.id === 'string' &&
    // A name, status or type the service sent none of readably was saved as none.
    (['name', 'status', 'type'] as const).every((field) => e[field] === undefined || typeof e[field] === 'string')
  );
}

function isCachedPage(value: unknown): value is CachedPage {
  const page = value as CachedPage | undefined;
  return (
    typeof page === 'object' &&
    page !== null &&
    Array.isArray(page.items) &&
    page.items.every(isEngagementLike) &&
    Number.isInteger(page.totalCount) &&
    Number.isInteger(page.pageSize) &&
    page.pageSize > 0 &&
    Number.isFinite(page.fetchedAt)
  );
}

/** Only cached for speed (the next read fetches the page again): a failed save is logged, not told. */
export function engagementCache(
  memento: MementoLike,
  key: string,
  failed?: SaveFailed,
): PerEnvironmentCache<CachedPage> {
  return new PerEnvironmentCache(memento, key, isCachedPage, failed);
}
