// The last first page of engagements shown per environment, for the view to show at once on
// the next activation (or when the environment is active again) until a refresh lands.
import type { Engagement } from '../api/types';
import { type MementoLike, PerEnvironmentCache, type Saved, type SaveFailed } from '../shared/perEnvironment';

export interface CachedPage extends Saved {
  items: Engagement[];
  totalCount: number;
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
    typeof e.name === 'string' &&
    typeof e.status === 'string' &&
    typeof e.type === 'string'
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
