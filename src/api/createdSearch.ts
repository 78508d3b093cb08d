// Looking again and again for an engagement a create made when its answer did not name it (a
// 202 with no id or `Location`, or a create whose outcome is unknown). Only the whole list can
// show it, and a look comes every few seconds for up to a minute; 10,000 engagements are 10 to
// 100 pages a look. The contract has no delete, so a list whose total has not grown since the
// last whole read holds nothing new: a later look reads one item of the first page for its
// total, and reads every page again only when the total changed.
import { isApiError } from './errors';
import type { PagedResult } from './paging';
import type { Engagement, Page } from './types';

export interface CreatedSearchReads {
  /** Every engagement. */
  all(signal?: AbortSignal): Promise<PagedResult<Engagement>>;
  /** The first page, for its total. */
  first(signal?: AbortSignal): Promise<Page<Engagement>>;
}

/**
 * The total of each search's last whole read, by the search (the create's body), kept only when
 * the service's total proved true: it counted exactly the engagements that read found.
 */
const lastTotals = new WeakMap<object, number>();

/**
 * One look of the search `search` (the same object on every look of it): the newest engagement
 * of the whole list that `matches`, or undefined when there is none (without reading the whole
 * list when its total says nothing was added since the last look).
 */
export async function lookForCreated(
  search: object,
  reads: CreatedSearchReads,
  matches: (engagement: Engagement) => boolean,
  signal?: AbortSignal,
): Promise<Engagement | undefined> {
  const known = lastTotals.get(search);
  if (known !== undefined && (await totalNow(reads, signal)) === known) return undefined;
  const all = await reads.all(signal);
  if (!all.stop && all.totalCount === all.items.length) lastTotals.set(search, all.totalCount);
  else lastTotals.delete(search);
  return newest(all.items.filter(matches));
}

/** The one created last; of those created at the same time, the first in the service's order. */
function newest(engagements: readonly Engagement[]): Engagement | undefined {
  const at = (e: Engagement) => Date.parse(e.createdAt);
  return engagements.reduce<Engagement | undefined>((a, b) => (a && !(at(b) > at(a)) ? a : b), undefined);
}

/** The list's total as the service states it; undefined when it states none or the read failed. */
async function totalNow(reads: CreatedSearchReads, signal: AbortSignal | undefined): Promise<number | undefined> {
  try {
    const page = await reads.first(signal);
    return page.totalEstimated ? undefined : page.totalCount;
  } catch (error) {
    // Cancelled: the look ends. Anything else: the whole read decides, and says what failed.
    if (signal?.aborted || (isApiError(error) && error.kind === 'cancelled')) throw error;
    return undefined;
  }
}
