// The Engagements view's store as the extension makes one, over a client the suite made.
import type { ServiceApi } from '../../../src/api/service';
import { EngagementStore, type StoreSource } from '../../../src/engagements/store';

/**
 * The Engagements view's store over `api`: one environment ('env') with a key, 25 engagements a
 * page, as the view asks; `source` says otherwise where a suite needs it.
 */
export function storeOver(api: ServiceApi, source: Partial<StoreSource> = {}): EngagementStore {
  return new EngagementStore({
    environmentId: () => 'env',
    api: () => api,
    hasKey: () => Promise.resolve(true),
    pageSize: () => 25,
    ...source,
  });
}
