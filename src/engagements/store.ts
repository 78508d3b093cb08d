// The engagements of the active environment, as last read: pages loaded so far, when, and
// the last failure. Views render snapshots of it; commands ask it to load and tell it what
// they changed. It does not import `vscode`, so unit tests drive it against the reference
// service directly. Its parts: the whole-set read (storeWhole.ts) and the writes accepted
// and not shown yet (storeAccepted.ts).
import { isApiError } from '../api/errors';
import type { AcceptedWrite, Engagement } from '../api/types';
import { LIMITS } from '../core/concurrency';
import type { AcceptedOutcome } from './pending';
import { AcceptedWrites } from './storeAccepted';
import { LocalWrites, SeenValues } from './storeLearned';
import { forgetPage, savedPage, savePage } from './storeSaved';
import {
  appendPage,
  type Loaded,
  nothingLoaded,
  putInto,
  type StorePhase,
  type StoreSnapshot,
  type StoreSource,
} from './storeTypes';
import { WholeSet } from './storeWhole';

type Listener = () => void;

export { SAVED_ITEMS_MAX } from './storeSaved';

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
    const shown = Math.max(pageSize, this.loaded.fromCache ? 0 : this.loaded.items.length);
    const signal = this.abort.signal;
    try {
      const read = await api.engagements.listAll({ pageSize, limit: shown, concurrency: LIMITS.refresh, signal });
      if (generation !== this.generation) return;
      this.land({
        items: this.localWrites.merge(read.items),
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
      const page = await api.engagements.list({ page: asked, pageSize: this.loaded.pageSize }, { signal });
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
