// How the tree lists many rows: long lists a step at a time ("Show more…"), and with the
// default sort, the pages in the order they came, so rows a Load more brought go below.
import type { Engagement } from '../api/types';
import { isDefaultQuery, type EngagementQuery } from '../core/query';
import type { StoreSnapshot } from './storeTypes';

/**
 * Rows a list of the tree shows before a "Show more…" row. VS Code sends every row a tree
 * lists to the window and back, each time the tree changes: 10,000 rows took about a second
 * of the machine's time per refresh, to show a screenful of them.
 */
export const ROW_STEP = 1_000;

/**
 * Whether long lists are shown ROW_STEP rows at a time: a whole set read at once, or pages
 * that brought more than a step each (a service that sends thousands for one page, or every
 * engagement at once). Pages of up to a step loaded one by one with "Load more…" are shown as
 * they come: the user asked for each.
 */
export function stepped(snapshot: StoreSnapshot): boolean {
  return snapshot.complete || snapshot.items.length > ROW_STEP * Math.max(1, snapshot.pages);
}

/**
 * With the default sort, the page each engagement came with (1: the first page, and any
 * engagement that came otherwise, e.g. created here): Load more adds rows below the ones
 * shown, never among them above where the user is reading.
 */
export class PageOrder {
  private readonly cameWith = new Map<string, number>();
  private pagesSeen = 0;
  private pagesFor?: string;
  private pageOrdered?: { items: readonly Engagement[]; pages: number; result: Engagement[] };

  /**
   * With the default sort and pages loaded one by one: each page's rows sorted, the pages in
   * the order they came, so rows a Load more brought go below those already shown.
   */
  apply(snapshot: StoreSnapshot, query: EngagementQuery, sorted: Engagement[]): Engagement[] {
    const environmentId = snapshot.environmentId ?? '';
    if (!isDefaultQuery(query) || snapshot.complete) {
      this.cameWith.clear();
      this.pagesSeen = 0;
      return sorted;
    }
    if (this.pagesFor !== environmentId || snapshot.pages < this.pagesSeen) {
      this.cameWith.clear();
      this.pagesSeen = 0;
    }
    const page = this.pagesSeen > 0 && snapshot.pages > this.pagesSeen ? snapshot.pages : 1;
    for (const e of snapshot.items) if (!this.cameWith.has(e.id)) this.cameWith.set(e.id, page);
    this.pagesSeen = snapshot.pages;
    this.pagesFor = environmentId;
    if (snapshot.pages <= 1) return sorted;
    const kept = this.pageOrdered;
    if (kept && kept.items === sorted && kept.pages === snapshot.pages) return kept.result;
    const pageOf = (e: Engagement) => this.cameWith.get(e.id) ?? 1;
    // Array.prototype.sort is stable: within a page, the sort's order.
    const result = [...sorted].sort((a, b) => pageOf(a) - pageOf(b));
    this.pageOrdered = { items: sorted, pages: snapshot.pages, result };
    return result;
  }
}
