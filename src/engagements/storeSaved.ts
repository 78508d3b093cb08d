// The page the store saves for the next session: the first page of each environment, shown at
// once when the extension starts again, until a refresh lands.
import type { Loaded, StoreSource } from './storeTypes';
import { dedupe } from './storeTypes';

/**
 * The most engagements saved for the next session: the largest page the view asks for. A
 * service may answer far more on a page (one that does not page at all sends every one);
 * the workspace state is not the place for thousands.
 */
export const SAVED_ITEMS_MAX = 100;

/** The page an earlier session saved for the active environment, as the store shows it. */
export function savedPage(source: StoreSource): Loaded | undefined {
  const id = source.environmentId();
  const page = id === undefined ? undefined : source.cache?.read(id);
  if (!page) return undefined;
  const items = dedupe(page.items).slice(0, SAVED_ITEMS_MAX);
  const totalCount = Math.max(page.totalCount, items.length);
  return { items, totalCount, pages: 1, pageSize: page.pageSize, fetchedAt: page.fetchedAt, fromCache: true };
}

/** Saves the first page of what a read returned, for the next session. */
export function savePage(source: StoreSource, loaded: Loaded & { fetchedAt: number }): void {
  const id = source.environmentId();
  if (id !== undefined)
    source.cache?.write(id, {
      items: loaded.items.slice(0, Math.min(loaded.pageSize, SAVED_ITEMS_MAX)),
      totalCount: loaded.totalCount,
      pageSize: loaded.pageSize,
      fetchedAt: loaded.fetchedAt,
    });
}

/** Forgets the page saved for the active environment. */
export function forgetPage(source: StoreSource): void {
  const id = source.environmentId();
  if (id !== undefined) source.cache?.forget(id);
}
