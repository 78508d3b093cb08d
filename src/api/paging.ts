// Reading paged lists the way the service pages them, not the way we asked. The first answer
// tells the page size the service really uses (it may cap, ignore `pageSize`, or send every
// item at once); later pages are asked in that size. A service that ignores `page` (answers
// the first page again) or repeats what was read is noticed, and reading stops with a reason
// instead of looping or losing items silently. A service that names its next page its own way
// (a link by offset or cursor, a cursor token: `Page.next`) is followed there, one page after
// another: only its answer tells where the next one is.
import { runLimited } from '../core/concurrency';
import { ApiError } from './errors';
import { offsetLinks } from './pageLinks';
import type { NextPage, Page } from './types';

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

/** Reads the page the service named (`Page.next`); `page` is its number in the reading, counted here. */
export type NextFetcher<T> = (next: NextPage, page: number, signal?: AbortSignal) => Promise<Page<T>>;

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
  /** The service said no total and the end was not reached: `totalCount` is one past what was read, not a count. */
  totalEstimated?: boolean;
  /** Where the page after the last one read is, as the service named it (a reading stopped at `limit`). */
  next?: NextPage;
  /** Rows read and left out of `items`: they have no usable id (see `Page.skipped`). */
  skipped?: number;
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
  /** Reads a page the service named: without it, a named next page is not followed. */
  followNext?: NextFetcher<T>;
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
  fetchWhole: PageFetcher<T>,
  options: AllPagesOptions<T>,
): Promise<PagedResult<T>> {
  const fetchPage = pastTheEndEmpty(fetchWhole);
  let first = await fetchPage(1, options.pageSize, options.signal);
  if (first.next && options.followNext) return followLinks(first, options.followNext, options);
  // A list that arrives whole (more than asked, and no more than it says it has): nothing more
  // is asked, in a page size the service chose.
  if (arrivedWhole(first, options.pageSize)) return wholeResult(first.data, options.idOf);
  // Without a total, a first page shorter than its size is the end of the list, or the most
  // this service puts on a page (it did not say): the next page, in the size it answered, tells.
  if (first.totalEstimated && first.more !== false && first.data.length > 0 && first.data.length < first.pageSize)
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

/**
 * Reads on from the first page by the next page each answer names, one after another (N pages
 * cost N round trips: no page can be asked before the one naming it answers). Stops at the end
 * (no next named), at `limit`, at `maxPages`, or when the service leads back to what was read.
 * The total is the service's when it says one, else what was counted once the end was read.
 */
async function followLinks<T>(
  first: Page<T>,
  followNext: NextFetcher<T>,
  options: AllPagesOptions<T>,
): Promise<PagedResult<T>> {
  const { signal, idOf, onProgress } = options;
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const maxPages = options.maxPages ?? 10_000;
  const items: T[] = [];
  const take = collect(items, idOf);
  take(first.data);
  let total = first.totalEstimated ? undefined : first.totalCount;
  let next = first.next;
  const followed = new Set<string>([JSON.stringify(next)]);
  let pages = 1;
  let stop: PagingStop | undefined;
  const progress = () => onProgress?.(items.length, Math.max(total ?? items.length + (next ? 1 : 0), items.length));
  // A list paged by offset, with its total: the pages it will take are known, and asked together.
  const planned = total === undefined ? [] : (offsetLinks(next, first.data.length, Math.min(total, limit)) ?? []);
  if (planned.length > 1) {
    const answers = await readAll(planned, (link, i, inner) => followNext(link, i + 2, inner), options);
    for (const answer of answers) {
      take(answer.data);
      if (!answer.totalEstimated) total = answer.totalCount;
      next = answer.next;
      followed.add(JSON.stringify(next));
    }
    pages += answers.length;
  }
  while (next && items.length < limit) {
    progress();
    if (pages >= maxPages) {
      stop = 'tooManyPages';
      break;
    }
    if (signal?.aborted) throw new ApiError('cancelled', 'Reading every page was cancelled.');
    const answer = await followNext(next, pages + 1, signal);
    pages++;
    if (!answer.totalEstimated) total = answer.totalCount;
    if (take(answer.data) === 0 && answer.data.length > 0) {
      // A page of items already read: the service leads back; what is left cannot be read.
      stop = 'repeatsPages';
      break;
    }
    next = answer.next;
    if (next && followed.has(JSON.stringify(next))) {
      stop = 'repeatsPages';
      break;
    }
    followed.add(JSON.stringify(next));
  }
  progress();
  return linkedResult(items, { total, next, stop, pages, pageSize: first.data.length });
}

/** What reading by links gathered: the total said, else counted at the end, else one more than read. */
function linkedResult<T>(
  items: T[],
  read: { total?: number; next?: NextPage; stop?: PagingStop; pages: number; pageSize: number },
): PagedResult<T> {
  const { total, next, pages } = read;
  const ended = next === undefined && read.stop === undefined;
  const stop = ended && total !== undefined && items.length < total ? 'endedEarly' : read.stop;
  return {
    items,
    totalCount: Math.max(total ?? (ended ? items.length : items.length + 1), items.length),
    requests: pages,
    pageSize: Math.max(1, read.pageSize),
    pages,
    ...(stop ? { stop } : {}),
    ...(!ended && total === undefined && stop === undefined ? { totalEstimated: true } : {}),
    ...(next && stop === undefined ? { next } : {}),
  };
}

/** Reads the pages `links` name, at most `concurrency` at once, in their order; the first failure stops the rest. */
async function readAll<T>(
  links: NextPage[],
  read: (link: NextPage, index: number, signal: AbortSignal) => Promise<Page<T>>,
  options: AllPagesOptions<T>,
): Promise<Page<T>[]> {
  const halt = new AbortController();
  const inner = options.signal ? AbortSignal.any([options.signal, halt.signal]) : halt.signal;
  const answers: Page<T>[] = [];
  let next = 0;
  await runLimited(
    Math.min(options.concurrency, links.length),
    () => {
      if (next >= links.length) return undefined;
      const index = next++;
      return async () => {
        if (inner.aborted) throw new ApiError('cancelled', 'Reading every page was cancelled.');
        answers[index] = await read(links[index], index, inner);
      };
    },
    () => halt.abort(),
  );
  return answers;
}

/** A function that adds a page's items not in `items` yet (by id) and says how many it added. */
function collect<T>(items: T[], idOf: ((item: T) => string | undefined) | undefined): (data: T[]) => number {
  const seen = new Set<string>();
  return (data) => {
    const before = items.length;
    for (const item of data) {
      const id = idOf?.(item);
      if (id !== undefined && seen.has(id)) continue;
      if (id !== undefined) seen.add(id);
      items.push(item);
    }
    return items.length - before;
  };
}

/**
 * A first page that holds the whole list: more items than were asked for, and either no total
 * or no more than the total it says (a bare array of every record, as json-server sends).
 */
function arrivedWhole(answer: Page<unknown>, asked: number): boolean {
  const n = answer.data.length;
  return n > asked && answer.more !== true && (answer.totalEstimated === true || n >= answer.totalCount);
}

/** Every item once (by id), the total counted. */
function wholeResult<T>(data: T[], idOf?: (item: T) => string | undefined): PagedResult<T> {
  const seen = new Set<string>();
  const items = data.filter((item) => {
    const id = idOf?.(item);
    if (id === undefined) return true;
    return seen.has(id) ? false : (seen.add(id), true);
  });
  return { items, totalCount: items.length, requests: 1, pageSize: Math.max(1, data.length), pages: 1 };
}

/**
 * A fetcher that reads a 404 for a page after the first as an empty page: the list ends before
 * it ("Invalid page.", as Django REST framework answers a page past the end).
 */
function pastTheEndEmpty<T>(fetchPage: PageFetcher<T>): PageFetcher<T> {
  return async (page, pageSize, signal) => {
    try {
      return await fetchPage(page, pageSize, signal);
    } catch (error) {
      if (page > 1 && error instanceof ApiError && error.kind === 'notFound')
        return { data: [], page, pageSize, totalCount: (page - 1) * pageSize, totalEstimated: true };
      throw error;
    }
  };
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
  /** The service has said no total yet: the one there is was counted, or guessed one past a full page. */
  private estimated: boolean;
  /** The first page was as full as asked: a service that does not page may hold more than it sent. */
  private readonly firstFull: boolean;

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
    this.estimated = first.totalEstimated === true;
    this.firstFull = first.data.length >= options.pageSize;
    // The service said no page follows the first.
    this.ended = first.more === false;
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
      // Without a total said, a page that repeats what was read is the end of what can be read:
      // the total is what was counted. Only a full first page leaves room for more, unread.
      if (this.estimated) {
        this.ended = true;
        if (this.firstFull) this.stop ??= problem;
      } else this.stop ??= problem;
      return;
    }
    if (!answer.totalEstimated) this.estimated = false;
    if (answer.data.length === 0 || answer.more === false) this.ended = true;
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
    // (Without a total said, the end found is the total.)
    if (this.stop === undefined && this.ended && !this.estimated && count(this.pages) < this.wanted())
      this.stop = 'endedEarly';
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
    const { requests, pageSize, stop } = this;
    // A total guessed one past a full page is not shown once the end was found: it is counted.
    const total = this.estimated && this.ended ? items.length : this.total;
    const totalEstimated = this.estimated && !this.ended ? true : undefined;
    return {
      items,
      totalCount: Math.max(total, items.length),
      requests,
      pageSize,
      pages: this.pages.size,
      stop,
      ...(totalEstimated ? { totalEstimated } : {}),
    };
  }
}

function count(pages: Map<number, unknown[]>): number {
  let n = 0;
  for (const data of pages.values()) n += data.length;
  return n;
}

// ---- one page at a time, as a table shows it ----

/** One page of a list as a paged table shows it. */
export interface ShownPage<T> {
  items: T[];
  /** The page shown (a page past the end shows the last one). */
  page: number;
  /** The size pages are counted in: the service's (it may cap), or the one asked when paged here. */
  pageSize: number;
  /** How many items there are, as the service said or as counted; undefined while the end is not known. */
  total?: number;
  /** A next page may hold items. */
  hasNext: boolean;
}

/** How many pages `total` items fill, at least one. */
function pagesOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** Safety bound on the requests one search for the last page makes. */
const MAX_SEARCH = 40;
/** How many pages' prints a reader keeps to notice a service answering one page for another. */
const MAX_PRINTS = 200;

/**
 * Reads a list one page at a time for a paged table, the way the service really pages it, and
 * keeps what it learned for the next page asked (one reader per list: a refresh or another
 * billing period takes a new one):
 * - a list that arrives whole (a bare array of every record, a page larger than asked and no
 *   more than its total) is kept and paged here from then on, in the size asked;
 * - a page without a total may be followed by another until a short or empty page: then the
 *   total is counted, never guessed;
 * - a page past the end (empty, a 404 for the page, or a page repeating another one: the
 *   service answers page 1 to every page) shows the last page there is.
 */
export class PageReader<T> {
  /** The whole list, when it arrived whole. */
  private whole?: T[];
  /** How many items there are, counted once the end was found. */
  private counted?: number;
  /** What each page read held (`size:page` → its items as JSON), to notice a page answered for another. */
  private readonly prints = new Map<string, string>();
  /** The size the service answers in, learned, by the size asked (it caps without saying so). */
  private readonly sizes = new Map<number, number>();
  /** For a service that names its next page: the way to each page after the first, as the page before named it. */
  private readonly links = new Map<number, NextPage>();
  /** The service's total, as a page it named last said it. */
  private linkedTotal?: number;
  /** The size of the first page of a service that names its next page: the range counts in it. */
  private linkedSize = 1;

  /**
   * The page asked, or the one shown instead. With `followNext`, a service that names its next
   * page (`Page.next`) is followed there: each page by the link the page before named, a page
   * not reached yet by walking from the last one reached (at most `MAX_SEARCH` requests).
   */
  async read(
    fetchPage: PageFetcher<T>,
    page: number,
    pageSize: number,
    signal?: AbortSignal,
    followNext?: NextFetcher<T>,
  ): Promise<ShownPage<T>> {
    if (this.whole) return cut(this.whole, page, pageSize);
    if (followNext && page > 1 && this.links.size > 0) return this.walk(followNext, page, signal);
    const fetch = pastTheEndEmpty(fetchPage);
    const asked = this.counted !== undefined ? Math.min(page, pagesOf(this.counted, pageSize)) : page;
    const first = await fetch(asked, pageSize, signal);
    // A service that names its next page does not take page numbers: its answer to any page
    // asked by number is its first page, and the way on starts there.
    if (followNext && first.next) return this.linked(first, 1, followNext, page, signal);
    let answer = this.check(first, asked, pageSize);
    let at = asked;
    const pastTheEnd = !answer && asked > 1;
    if (pastTheEnd) {
      // Nothing at this page: the last page there is, and the end is known.
      const last = await this.lastPage(fetch, asked, pageSize, signal);
      if (last) ({ page: at, answer } = last);
    }
    if (answer && answer.data.length > pageSize && (await this.isWhole(fetch, answer, at, pageSize, signal))) {
      this.whole = answer.data;
      this.counted = answer.data.length;
      return cut(answer.data, page, pageSize);
    }
    if (!answer) {
      this.counted = 0;
      return { items: [], page: 1, pageSize, total: 0, hasNext: false };
    }
    const size = this.sizeOf(answer, at, pageSize);
    if (pastTheEnd) this.counted = (at - 1) * size + answer.data.length;
    else if (!answer.totalEstimated && at > pagesOf(answer.totalCount, size) && answer.totalCount > 0) {
      // A page past the end of the total said (fewer items now): the last one.
      const last = pagesOf(answer.totalCount, size);
      const again = await this.get(fetch, last, pageSize, signal);
      if (again) [answer, at] = [again, last];
    }
    return this.shown(answer, at, pageSize);
  }

  /** Takes the first page of a service that names its next page, then walks on to `page`. */
  private linked(
    first: Page<T>,
    at: number,
    followNext: NextFetcher<T>,
    page: number,
    signal?: AbortSignal,
  ): Promise<ShownPage<T>> | ShownPage<T> {
    this.linkedSize = Math.max(1, first.data.length);
    if (first.next) this.links.set(at + 1, first.next);
    if (!first.totalEstimated) this.linkedTotal = first.totalCount;
    return page > at ? this.walk(followNext, page, signal) : this.linkedShown(first, at);
  }

  /** Follows the named links from the last page reached towards `page`, bounded. */
  private async walk(followNext: NextFetcher<T>, page: number, signal?: AbortSignal): Promise<ShownPage<T>> {
    let at = Math.max(...[...this.links.keys()].filter((k) => k <= page));
    for (let tries = 1; ; tries++) {
      const answer = await followNext(this.links.get(at)!, at, signal);
      if (answer.next) this.links.set(at + 1, answer.next);
      if (!answer.totalEstimated) this.linkedTotal = answer.totalCount;
      if (at >= page || !answer.next || tries >= MAX_SEARCH) return this.linkedShown(answer, at);
      at++;
    }
  }

  /** A page reached by a named link: more follow while it names a next one. */
  private linkedShown(answer: Page<T>, page: number): ShownPage<T> {
    const size = this.linkedSize;
    const total = answer.next ? this.linkedTotal : (page - 1) * size + answer.data.length;
    return { items: answer.data, page, pageSize: size, total, hasNext: answer.next !== undefined };
  }

  /** The page to show from an answer. */
  private shown(answer: Page<T>, page: number, asked: number): ShownPage<T> {
    const size = this.sizeOf(answer, page, asked);
    const items = answer.data.slice(0, Math.max(asked, size));
    if (answer.totalEstimated && (items.length < size || answer.more === false))
      this.counted = (page - 1) * size + items.length;
    const total = this.counted ?? (answer.totalEstimated ? undefined : Math.max(answer.totalCount, items.length));
    const hasNext = total !== undefined ? page < pagesOf(total, size) : (answer.more ?? items.length >= size);
    return { items, page, pageSize: size, total, hasNext };
  }

  /**
   * The size the service pages in: what it says (or what was asked), or, when a page holds
   * fewer than that and its total says more follow, that many (it caps without saying so).
   */
  private sizeOf(answer: Page<T>, page: number, asked: number): number {
    const n = answer.data.length;
    const said = Math.max(1, answer.pageSize || asked);
    // A page short of its size that is not the last one is full in the service's own size.
    if (!answer.totalEstimated && n > 0 && n < said && (page - 1) * said + n < answer.totalCount) {
      this.sizes.set(asked, n);
      return n;
    }
    return this.sizes.get(asked) ?? said;
  }

  /**
   * A page larger than asked is the whole list when it says no more than it holds, or, without
   * a total, when the service answers another page with the same items or with none (it does not
   * page); otherwise the service pages in a size of its own.
   */
  private async isWhole(
    fetch: PageFetcher<T>,
    answer: Page<T>,
    page: number,
    pageSize: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    if (answer.more !== undefined) return !answer.more && page === 1;
    if (!answer.totalEstimated) return answer.data.length >= answer.totalCount && (page === 1 || answer.page === 1);
    const other = await fetch(page === 1 ? 2 : 1, pageSize, signal);
    return (page === 1 && other.data.length === 0) || print(other.data) === print(answer.data);
  }

  /** A page's answer, or undefined when nothing is there: empty, 404, or another page answered. */
  private async get(
    fetch: PageFetcher<T>,
    page: number,
    pageSize: number,
    signal?: AbortSignal,
  ): Promise<Page<T> | undefined> {
    return this.check(await fetch(page, pageSize, signal), page, pageSize);
  }

  /** The answer for `page`, or undefined when nothing is there: empty, or another page answered. */
  private check(answer: Page<T>, page: number, pageSize: number): Page<T> | undefined {
    if (answer.data.length === 0) return undefined;
    if (!answer.totalEstimated && answer.page !== page) return undefined;
    const own = print(answer.data);
    const prefix = `${pageSize}:`;
    for (const [key, other] of this.prints) {
      const at = key.startsWith(prefix) ? Number(key.slice(prefix.length)) : page;
      if (other !== own || at === page) continue;
      // Two pages with the same items: the service answers one page for another (it ignores
      // `page`), so the list ends at the first of them.
      const end = Math.min(at, page);
      this.counted = (end - 1) * this.sizeOf(answer, end, pageSize) + answer.data.length;
      return page === end ? answer : undefined;
    }
    if (this.prints.size >= MAX_PRINTS) this.prints.clear();
    this.prints.set(`${prefix}${page}`, own);
    return answer;
  }

  /**
   * The last page holding items, before `beyond` (which holds none): the page before it first
   * (a page one past the end is the usual case), then page 1, then halves; a total said jumps
   * to its last page. Undefined when page 1 holds nothing.
   */
  private async lastPage(
    fetch: PageFetcher<T>,
    beyond: number,
    pageSize: number,
    signal?: AbortSignal,
  ): Promise<{ page: number; answer: Page<T> } | undefined> {
    let lo = 0;
    let hi = beyond;
    let found: { page: number; answer: Page<T> } | undefined;
    let next = beyond - 1;
    for (let tries = 0; hi - lo > 1 && tries < MAX_SEARCH; tries++) {
      const answer = await this.get(fetch, next, pageSize, signal);
      if (answer) {
        [lo, found] = [next, { page: next, answer }];
        const said = answer.totalEstimated
          ? undefined
          : pagesOf(answer.totalCount, this.sizeOf(answer, next, pageSize));
        if (said === next) break;
        next = said !== undefined && said > lo && said < hi ? said : Math.floor((lo + hi) / 2);
      } else {
        hi = next;
        next = lo === 0 ? 1 : Math.floor((lo + hi) / 2);
      }
    }
    return found;
  }
}

/** The items as JSON: two pages with the same print hold the same items. */
function print(items: readonly unknown[]): string {
  return JSON.stringify(items);
}

/** A page of a list that arrived whole, paged here (a page past the end shows the last). */
function cut<T>(items: T[], page: number, pageSize: number): ShownPage<T> {
  const shown = Math.min(page, pagesOf(items.length, pageSize));
  return {
    items: items.slice((shown - 1) * pageSize, shown * pageSize),
    page: shown,
    pageSize,
    total: items.length,
    hasNext: shown < pagesOf(items.length, pageSize),
  };
}
