// The engagements of the active environment, as last read: pages loaded so far, when, and
// the last failure. Views render snapshots of it; commands ask it to load and tell it what
// they changed. It does not import `vscode`, so unit tests drive it against the reference
// service directly.
import { holdsChanges, isCreated } from '../api/engagements';
import { isApiError } from '../api/errors';
import { checkPage, type PagingStop } from '../api/paging';
import type { ServiceApi } from '../api/service';
import type { AcceptedWrite, Engagement } from '../api/types';
import { LIMITS } from '../core/concurrency';
import type { EngagementCache } from './cache';
import { type AcceptedOutcome, type LookOptions, lookAgain } from './pending';

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

type Listener = () => void;

/** What the last read left shown: replaced together by each read that lands, emptied together. */
interface Loaded {
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

function nothingLoaded(): Loaded {
  return { items: [], totalCount: 0, pages: 0, pageSize: 0, fromCache: false };
}

/** The least time between two progress steps shown while every page is read. */
const PROGRESS_STEP_MS = 100;

/**
 * The most engagements saved for the next session: the largest page the view asks for. A
 * service may answer far more on a page (one that does not page at all sends every one);
 * the workspace state is not the place for thousands.
 */
export const SAVED_ITEMS_MAX = 100;

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
  /** Local writes made while a load was in flight; merged into its result. */
  private readonly localWrites = new Map<string, { engagement: Engagement; created: boolean }>();
  private readonly statuses = new Map<string, string>();
  private readonly types = new Set<string>();
  /** The whole set: when it was last read (reset() forgets it), the read in flight, its progress. */
  private wholeAt?: number;
  private whole?: Promise<boolean>;
  private wholeAbort?: AbortController;
  private wholeProgress?: { loaded: number; total: number };
  /** Writes accepted and not shown yet, by key; each with the look that ends it. */
  private readonly pendingWrites = new Map<
    string,
    { entry: PendingWrite; abort: AbortController; end: (outcome: AcceptedOutcome) => void }
  >();
  private pendingCount = 0;

  constructor(private readonly source: StoreSource) {
    this.restoreCache();
  }

  /** Shows the page an earlier session saved for the active environment, until a refresh lands. */
  private restoreCache(): void {
    const id = this.source.environmentId();
    const page = id === undefined ? undefined : this.source.cache?.read(id);
    if (!page) return;
    const items = dedupe(page.items).slice(0, SAVED_ITEMS_MAX);
    const totalCount = Math.max(page.totalCount, items.length);
    this.loaded = { items, totalCount, pages: 1, pageSize: page.pageSize, fetchedAt: page.fetchedAt, fromCache: true };
    this.learn(items);
  }

  onDidChange(listener: Listener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }

  snapshot(): StoreSnapshot {
    const { items, totalCount, pages, stop, fetchedAt, fromCache } = this.loaded;
    const environmentId = this.source.environmentId();
    return {
      environmentId,
      phase: environmentId === undefined ? 'noEnvironment' : this.phase,
      items,
      totalCount,
      hasMore: pages > 0 && stop === undefined && items.length < totalCount,
      stop: items.length < totalCount ? stop : undefined,
      fetchedAt,
      error: this.error,
      refreshing: this.refreshing !== undefined,
      loadingMore: this.loadingMore !== undefined,
      fromCache,
      complete: this.wholeAt !== undefined && items.length >= totalCount,
      pages,
      readingAll: this.wholeProgress ? { ...this.wholeProgress } : undefined,
      pending: [...this.pendingWrites.values()].map((p) => p.entry),
    };
  }

  get(id: string): Engagement | undefined {
    return this.loaded.items.find((e) => e.id === id);
  }

  /** Statuses seen in this environment's data (first spelling kept), for the status pick. */
  seenStatuses(): string[] {
    return [...this.statuses.values()];
  }

  seenTypes(): string[] {
    return [...this.types];
  }

  /** Age of the data in ms, or Infinity when nothing was read yet. */
  age(now = Date.now()): number {
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
    for (let i = 0; i < 100 && (this.refreshing || this.loadingMore || this.whole); i++)
      await Promise.allSettled([this.refreshing, this.loadingMore, this.whole]);
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
    this.statuses.clear();
    this.types.clear();
    this.wholeAt = undefined;
    this.whole = undefined;
    this.wholeProgress = undefined;
    this.cancelPending();
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
    if (this.wholeAt !== undefined) return void (await this.readAll(api, generation));
    if (this.phase !== 'loaded') this.phase = 'loading';
    this.emit();
    const pageSize = this.source.pageSize();
    // Keep as many engagements in view as before (at least a page), in the service's pages.
    const shown = Math.max(pageSize, this.loaded.fromCache ? 0 : this.loaded.items.length);
    const signal = this.abort.signal;
    try {
      const read = await api.engagements.listAll({ pageSize, limit: shown, concurrency: LIMITS.refresh, signal });
      if (generation !== this.generation) return;
      this.land({
        items: this.mergeLocal(read.items),
        totalCount: read.totalCount,
        pages: read.pages,
        pageSize: read.pageSize,
        stop: read.stop,
        fetchedAt: Date.now(),
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
    this.learn(loaded.items);
    this.pendingShownIn(loaded.items);
    const id = this.source.environmentId();
    if (id !== undefined)
      this.source.cache?.write(id, {
        items: loaded.items.slice(0, Math.min(loaded.pageSize, SAVED_ITEMS_MAX)),
        totalCount: loaded.totalCount,
        pageSize: loaded.pageSize,
        fetchedAt: loaded.fetchedAt,
      });
  }

  /** A key that is rejected (or lacks the scope) must not keep showing what an earlier key read. */
  private dropCache(): void {
    const id = this.source.environmentId();
    if (id !== undefined) this.source.cache?.forget(id);
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
      const page = await api.engagements.list({ page: asked, pageSize: this.loaded.pageSize }, { signal });
      if (generation !== this.generation) return;
      const loaded = this.loaded;
      // A service that answers another page, or only what is shown, cannot page further.
      const stop = checkPage(asked, page, new Set(loaded.items.map((e) => e.id)), (e) => e.id);
      if (stop) loaded.stop = stop;
      else if (page.data.length === 0) loaded.stop = 'endedEarly';
      else {
        loaded.pages = asked;
        loaded.totalCount = page.totalCount;
        // Items may move between pages when others are created meanwhile: each id shows once.
        loaded.items = dedupe([...loaded.items, ...page.data]);
        this.pendingShownIn(page.data);
      }
      this.error = undefined;
      this.learn(page.data);
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
    if (this.refreshing || this.whole) this.localWrites.set(engagement.id, { engagement, created });
    const loaded = this.loaded;
    const index = loaded.items.findIndex((e) => e.id === engagement.id);
    if (index >= 0) loaded.items = loaded.items.map((e, i) => (i === index ? engagement : e));
    else {
      loaded.items = [engagement, ...loaded.items];
      if (created) loaded.totalCount += 1;
    }
    this.learn([engagement]);
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
    const key = `pending:${++this.pendingCount}`;
    const abort = new AbortController();
    let end!: (outcome: AcceptedOutcome) => void;
    const ended = new Promise<AcceptedOutcome>((resolve) => (end = resolve));
    this.pendingWrites.set(key, { entry: { key, write }, abort, end });
    this.emit();
    const signal = AbortSignal.any([abort.signal, this.abort.signal]);
    void lookAgain((look) => api.engagements.findAccepted(write, { signal: look }), signal, this.source.acceptedLooks)
      .catch((): AcceptedOutcome => ({ kind: 'notShown' }))
      .then((outcome) => this.endPending(key, outcome, true));
    return ended;
  }

  /** Ends an accepted write's look: shown (its engagement takes its place), not shown, or cancelled. */
  private endPending(key: string, outcome: AcceptedOutcome, upsert: boolean): void {
    const pending = this.pendingWrites.get(key);
    if (!pending) return;
    this.pendingWrites.delete(key);
    pending.abort.abort();
    if (outcome.kind === 'shown' && upsert)
      this.upsert(outcome.result.engagement, pending.entry.write.pending === 'create');
    else this.emit();
    pending.end(outcome);
  }

  /** Accepted writes that a read now shows are done: the engagement read takes their place. */
  private pendingShownIn(items: readonly Engagement[]): void {
    for (const [key, { entry }] of [...this.pendingWrites]) {
      const write = entry.write;
      const engagement =
        write.pending === 'update'
          ? items.find((e) => e.id === write.id && holdsChanges(e, write.changes))
          : items.find((e) =>
              write.id !== undefined ? e.id === write.id : isCreated(e, write.input, write.createdFrom),
            );
      if (!engagement) continue;
      const source =
        write.pending === 'update' ? 'reread' : write.id !== undefined ? (write.named ?? 'named') : 'search';
      this.endPending(key, { kind: 'shown', result: { engagement, source, accepted: true } }, false);
    }
  }

  private cancelPending(): void {
    for (const key of [...this.pendingWrites.keys()]) this.endPending(key, { kind: 'cancelled' }, false);
  }

  /** Stops every read and look in flight (the view is going away). */
  dispose(): void {
    this.generation++;
    this.abort.abort();
    this.cancelPending();
    this.listeners.clear();
  }

  /**
   * Reads every page (the client's concurrent reader) and shows them all; later refreshes
   * read the whole set again. A whole set read less than `maxAgeMs` ago is reused. Resolves
   * true once every engagement is loaded; false when cancelled (what was shown stays) or
   * failed (the error is kept for the view). Calls while one runs share it.
   */
  loadAll(maxAgeMs = 0): Promise<boolean> {
    if (
      this.snapshot().complete &&
      this.wholeAt !== undefined &&
      Date.now() - this.wholeAt < maxAgeMs &&
      !this.refreshing
    )
      return Promise.resolve(true);
    const loaded = this.loaded;
    if (
      !this.whole &&
      !this.refreshing &&
      !loaded.fromCache &&
      loaded.pages > 0 &&
      loaded.stop === undefined &&
      loaded.items.length >= loaded.totalCount &&
      loaded.fetchedAt !== undefined &&
      Date.now() - loaded.fetchedAt < maxAgeMs
    ) {
      // Every engagement came with the pages already read (a small environment, or Load more
      // to the end), lately: nothing is left to read.
      this.wholeAt = loaded.fetchedAt;
      this.emit();
      return Promise.resolve(true);
    }
    this.whole ??= (async () => {
      const generation = this.generation;
      const api = this.source.api();
      if (!api || !(await this.source.hasKey())) return false;
      this.wholeAbort = new AbortController();
      this.wholeProgress = { loaded: this.loaded.items.length, total: this.loaded.totalCount };
      this.emit();
      // A refresh in flight lands first; its pages are then read again with the rest.
      await this.refreshing;
      return generation === this.generation && (await this.readAll(api, generation));
    })().finally(() => {
      this.whole = undefined;
      this.wholeAbort = undefined;
      this.wholeProgress = undefined;
      this.emit();
    });
    return this.whole;
  }

  /** Stops a whole-set read in flight; what was shown before stays. */
  cancelLoadAll(): void {
    this.wholeAbort?.abort();
  }

  private async readAll(api: ServiceApi, generation: number): Promise<boolean> {
    const signals = [this.abort.signal, this.wholeAbort?.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = AbortSignal.any(signals);
    let progressShownAt = performance.now();
    try {
      const result = await api.engagements.listAll({
        signal,
        onProgress: (loaded, total) => {
          if (generation !== this.generation || !this.wholeProgress) return;
          this.wholeProgress = { loaded, total };
          // Every listener (view, quick pick, details) repaints on each emit: a hundred pages
          // arriving within a second are shown as a few steps, and the end is always shown.
          const now = performance.now();
          if (loaded < total && now - progressShownAt < PROGRESS_STEP_MS) return;
          progressShownAt = now;
          this.emit();
        },
      });
      if (generation !== this.generation) return false;
      const pageSize = this.source.pageSize();
      const items = this.mergeLocal(result.items);
      this.wholeAt = Date.now();
      this.land({
        items,
        totalCount: Math.max(result.totalCount, items.length),
        pages: Math.max(1, Math.ceil(items.length / pageSize)),
        pageSize,
        // Why this read ended short (a service that repeats its first page, too many pages), or
        // else what an earlier Load more found.
        stop: result.stop ?? this.loaded.stop,
        fetchedAt: this.wholeAt,
        fromCache: false,
      });
      return true;
    } catch (error) {
      if (generation !== this.generation || (isApiError(error) && error.kind === 'cancelled' && signal.aborted))
        return false;
      this.error = error;
      if (this.phase !== 'loaded') this.phase = 'failed';
      return false;
    }
  }

  private mergeLocal(fetched: Engagement[]): Engagement[] {
    if (this.localWrites.size === 0) return fetched;
    let out = fetched;
    for (const { engagement, created } of this.localWrites.values()) {
      const index = out.findIndex((e) => e.id === engagement.id);
      if (index < 0) {
        if (created) out = [engagement, ...out];
      } else if (Date.parse(engagement.updatedAt) > Date.parse(out[index].updatedAt)) {
        out = out.map((e, i) => (i === index ? engagement : e));
      }
    }
    this.localWrites.clear();
    return out;
  }

  private learn(items: readonly Engagement[]): void {
    for (const e of items) {
      const key = e.status.toLowerCase();
      if (e.status.trim() !== '' && !this.statuses.has(key)) this.statuses.set(key, e.status);
      if (e.type.trim() !== '') this.types.add(e.type);
    }
  }
}

function dedupe(items: readonly Engagement[]): Engagement[] {
  const seen = new Set<string>();
  return items.filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true)));
}
