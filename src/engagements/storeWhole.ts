// The store's whole-set read: every page at once (the client's concurrent reader), its
// progress, its Stop, and when the whole set was last read (a recent one is reused).
import { isApiError } from '../api/errors';
import type { ServiceApi } from '../api/service';
import type { Engagement } from '../api/types';
import type { Loaded, StoreSource } from './storeTypes';

/** The least time between two progress steps shown while every page is read. */
const PROGRESS_STEP_MS = 100;

/** What the whole-set read needs of the store. */
export interface WholeHost {
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

export class WholeSet {
  /** When the whole set was last read (the store's reset() forgets it). */
  at?: number;
  /** The read in flight, and its progress. */
  running?: Promise<boolean>;
  private abort?: AbortController;
  progress?: { loaded: number; total: number };

  constructor(private readonly host: WholeHost) {}

  /** Every engagement is loaded. */
  complete(loaded: Loaded): boolean {
    return this.at !== undefined && loaded.items.length >= loaded.totalCount;
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
    if (this.complete(loaded) && this.at !== undefined && Date.now() - this.at < maxAgeMs && !refreshing)
      return Promise.resolve(true);
    if (
      !this.running &&
      !refreshing &&
      !loaded.fromCache &&
      loaded.pages > 0 &&
      loaded.stop === undefined &&
      loaded.items.length >= loaded.totalCount &&
      loaded.fetchedAt !== undefined &&
      Date.now() - loaded.fetchedAt < maxAgeMs
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
      this.at = Date.now();
      this.host.land({
        items,
        totalCount: Math.max(result.totalCount, items.length),
        pages: Math.max(1, Math.ceil(items.length / pageSize)),
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
