// Reading paged lists the way the service pages them, not the way we asked. The first answer
// tells the page size the service really uses (it may cap, ignore `pageSize`, or send every
// item at once); later pages are asked in that size. A service that ignores `page` (answers
// the first page again) or repeats what was read is noticed, and reading stops with a reason
// instead of looping or losing items silently.
import { runLimited } from '../core/concurrency';
import { ApiError } from './errors';
import type { Page } from './types';

/** Why reading stopped before `totalCount` items were read. */
export type PagingStop =
  /** The service answered another page than the one asked for (it ignores `page`). */
  | 'ignoresPage'
  /** A page held only items already read. */
  | 'repeatsPages'
  /** The service ran out of items before the total it announced. */
  | 'endedEarly'
  /** The safety bound on pages was reached. */
  | 'tooManyPages';

export type PageFetcher<T> = (page: number, pageSize: number, signal?: AbortSignal) => Promise<Page<T>>;

export interface PagedResult<T> {
  /** Items in the service's order, each id once. */
  items: T[];
  /** The service's latest `totalCount` (at least the items read). */
  totalCount: number;
  requests: number;
  /** The page size the service really answers with; later pages are asked in it. */
  pageSize: number;
  /** Pages read, in the service's page size. */
  pages: number;
  /** Set when items are missing and cannot be read by asking for more pages. */
  stop?: PagingStop;
}

export interface AllPagesOptions<T> {
  /** The page size to ask for first; the answer decides the size of the rest. */
  pageSize: number;
  /** Requests in flight at once after the first page. */
  concurrency: number;
  signal?: AbortSignal;
  /** Called after each page with the items gathered so far and the expected total. */
  onProgress?: (loaded: number, total: number) => void;
  /** Items with an id already seen (an item that moved between pages) are dropped. */
  idOf?: (item: T) => string | undefined;
  /** Read only until this many items are in (whole pages); default all. */
  limit?: number;
  /** Safety bound on the number of pages read. Default 10,000. */
  maxPages?: number;
}

/**
 * The page size the service uses, learned from its first answer: the number of items on a
 * page that is not the last one. For a last (or only) page, the size it says or we asked.
 */
function learnedPageSize(first: Page<unknown>, asked: number): number {
  const n = first.data.length;
  if (n > 0 && n < first.totalCount) return n;
  return Math.max(1, first.pageSize || asked);
}

/** Checks a later page against what was asked and read; a reason to stop, or undefined. */
export function checkPage<T>(
  asked: number,
  answer: Page<T>,
  seen: ReadonlySet<string>,
  idOf?: (item: T) => string | undefined,
): PagingStop | undefined {
  if (answer.page !== asked) return 'ignoresPage';
  if (answer.data.length > 0 && idOf) {
    const ids = answer.data.map(idOf);
    if (ids.every((id) => id !== undefined && seen.has(id))) return 'repeatsPages';
  }
  return undefined;
}

/**
 * Reads pages: the first one alone (it tells the total and the service's page size), then
 * the rest concurrently with at most `concurrency` requests in flight, kept in page order.
 * When the total grows while paging, or a page comes back short, the following pages are
 * read too, one at a time, until the total is reached or the service has nothing more.
 */
export async function fetchAllPages<T>(
  fetchPage: PageFetcher<T>,
  options: AllPagesOptions<T>,
): Promise<PagedResult<T>> {
  let first = await fetchPage(1, options.pageSize, options.signal);
  // Without a total, a first page shorter than its size is the end of the list, or the most
  // this service puts on a page (it did not say): the next page, in the size it answered, tells.
  if (first.totalEstimated && first.data.length > 0 && first.data.length < first.pageSize)
    first = { ...first, totalCount: first.data.length + 1 };
  const reading = new Reading(first, options);
  if (first.data.length > 0 && first.data.length < reading.wanted()) {
    await reading.readConcurrently(fetchPage);
    await reading.readOnward(fetchPage);
  } else if (first.data.length === 0 && first.totalCount > 0) {
    reading.stop = 'endedEarly';
  }
  return reading.result();
}

/** What reading every page has gathered so far, and each step of it. */
class Reading<T> {
  readonly pageSize: number;
  private readonly pages: Map<number, T[]>;
  private readonly seen = new Set<string>();
  private readonly limit: number;
  private readonly maxPages: number;
  private total: number;
  private loaded: number;
  private requests = 1;
  stop: PagingStop | undefined;
  /** An empty page answered: the service has nothing beyond it. */
  private ended = false;

  constructor(
    first: Page<T>,
    private readonly options: AllPagesOptions<T>,
  ) {
    this.maxPages = options.maxPages ?? 10_000;
    this.limit = options.limit ?? Number.POSITIVE_INFINITY;
    this.pageSize = learnedPageSize(first, options.pageSize);
    this.pages = new Map([[1, first.data]]);
    this.remember(first.data);
    this.total = first.totalCount;
    this.loaded = first.data.length;
    options.onProgress?.(Math.min(this.loaded, this.total), this.total);
  }

  wanted(): number {
    return Math.min(this.total, this.limit);
  }

  private plannedPages(): number {
    return Math.min(this.maxPages, Math.max(1, Math.ceil(this.wanted() / this.pageSize)));
  }

  private remember(data: T[]): void {
    for (const item of data) {
      const id = this.options.idOf?.(item);
      if (id !== undefined) this.seen.add(id);
    }
  }

  /** Takes one later page's answer, or the reason to stop it gives. */
  private accept(page: number, answer: Page<T>): void {
    this.requests++;
    const problem = checkPage(page, answer, this.seen, this.options.idOf);
    if (problem) {
      this.stop ??= problem;
      return;
    }
    if (answer.data.length === 0) this.ended = true;
    this.pages.set(page, answer.data);
    this.remember(answer.data);
    this.loaded += answer.data.length;
    // A later total (items added or removed meanwhile) is the one that counts.
    this.total = answer.totalCount;
    this.options.onProgress?.(Math.min(this.loaded, this.total), this.total);
  }

  /** The pages the first answer plans, at most `concurrency` at once; the first failure stops the rest. */
  async readConcurrently(fetchPage: PageFetcher<T>): Promise<void> {
    const { signal } = this.options;
    let next = 2;
    const halt = new AbortController();
    const inner = signal ? AbortSignal.any([signal, halt.signal]) : halt.signal;
    await runLimited(
      Math.min(this.options.concurrency, this.plannedPages() - 1),
      () => {
        if (next > this.plannedPages() || this.stop !== undefined) return undefined;
        const page = next++;
        return async () => {
          if (inner.aborted) throw new ApiError('cancelled', 'Reading every page was cancelled.');
          this.accept(page, await fetchPage(page, this.pageSize, inner));
        };
      },
      // The first failure stops the requests still in flight.
      () => halt.abort(),
    );
  }

  /** Short pages or a grown total: go on one page at a time while the service has more. */
  async readOnward(fetchPage: PageFetcher<T>): Promise<void> {
    const { signal } = this.options;
    let page = Math.max(...this.pages.keys()) + 1;
    while (this.stop === undefined && !this.ended && count(this.pages) < this.wanted()) {
      if (page > this.maxPages) {
        this.stop = 'tooManyPages';
        break;
      }
      if (signal?.aborted) throw new ApiError('cancelled', 'Reading every page was cancelled.');
      this.accept(page, await fetchPage(page, this.pageSize, signal));
      page++;
    }
    // An empty page: the service has nothing more, whatever its total said.
    if (this.stop === undefined && this.ended && count(this.pages) < this.wanted()) this.stop = 'endedEarly';
  }

  /** The items in page order, each id once. */
  result(): PagedResult<T> {
    const { idOf } = this.options;
    const items: T[] = [];
    const unique = new Set<string>();
    for (const page of [...this.pages.keys()].sort((a, b) => a - b)) {
      for (const item of this.pages.get(page) ?? []) {
        const id = idOf?.(item);
        if (id !== undefined) {
          if (unique.has(id)) continue;
          unique.add(id);
        }
        items.push(item);
      }
    }
    const { total, requests, pageSize, stop } = this;
    return { items, totalCount: Math.max(total, items.length), requests, pageSize, pages: this.pages.size, stop };
  }
}

function count(pages: Map<number, unknown[]>): number {
  let n = 0;
  for (const data of pages.values()) n += data.length;
  return n;
}
