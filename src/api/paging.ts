import { ApiError } from './errors';
import type { Page } from './types';

export interface AllPagesOptions<T> {
  pageSize: number;
  /** Requests in flight at once after the first page. */
  concurrency: number;
  signal?: AbortSignal;
  /** Called after each page with the items gathered so far and the expected total. */
  onProgress?: (loaded: number, total: number) => void;
  /** Items with an id already seen (an item that moved between pages) are dropped. */
  idOf?: (item: T) => string | undefined;
  /** Safety bound on the number of pages read. Default 10,000. */
  maxPages?: number;
}

export type PageFetcher<T> = (page: number, pageSize: number, signal?: AbortSignal) => Promise<Page<T>>;

/**
 * Reads every page: the first one alone (it tells `totalCount`), then the rest concurrently
 * with at most `concurrency` requests in flight, kept in page order. If `totalCount` grows
 * while paging, the extra pages are read too; items repeated across pages appear once.
 */
export async function fetchAllPages<T>(fetchPage: PageFetcher<T>, options: AllPagesOptions<T>): Promise<{ items: T[]; totalCount: number; requests: number }> {
  const { pageSize, signal } = options;
  const maxPages = options.maxPages ?? 10_000;
  const first = await fetchPage(1, pageSize, signal);
  const pages = new Map<number, T[]>([[1, first.data]]);
  let total = first.totalCount;
  let loaded = first.data.length;
  let requests = 1;
  options.onProgress?.(loaded, total);

  const pageCount = () => Math.min(maxPages, Math.max(1, Math.ceil(total / pageSize)));
  let next = 2;
  // One failed page stops the others: their requests in flight are aborted.
  const stop = new AbortController();
  const inner = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const worker = async (): Promise<void> => {
    while (next <= pageCount()) {
      if (inner.aborted) throw new ApiError('cancelled', 'Reading every page was cancelled.');
      const page = next++;
      const result = await fetchPage(page, pageSize, inner);
      requests++;
      pages.set(page, result.data);
      loaded += result.data.length;
      // A page may report a larger total (items added meanwhile): more pages are read.
      if (result.totalCount > total) total = result.totalCount;
      options.onProgress?.(Math.min(loaded, total), total);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(options.concurrency, pageCount() - 1)) }, () => worker());
  try {
    await Promise.all(workers);
  } catch (error) {
    stop.abort();
    await Promise.allSettled(workers);
    throw error;
  }

  const items: T[] = [];
  const seen = new Set<string>();
  for (const page of [...pages.keys()].sort((a, b) => a - b)) {
    for (const item of pages.get(page) ?? []) {
      const id = options.idOf?.(item);
      if (id !== undefined) {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      items.push(item);
    }
  }
  return { items, totalCount: Math.max(total, items.length), requests };
}
