// The usage records' page sizes and the key table's first order: what the extension needs of
// src/core/records.ts when it starts (a dashboard opened or restored), without loading it.
import type { SortDirection } from './query';

/** Rows per page of the usage records: the contract's default and maximum. */
export const DEFAULT_DETAILS_PAGE_SIZE = 25;
export const MAX_DETAILS_PAGE_SIZE = 100;

export type KeyColumn = 'name' | 'keyId' | 'calls' | 'share' | 'lastUsedAt';

export interface KeySort {
  column: KeyColumn;
  direction: SortDirection;
}

export const DEFAULT_KEY_SORT: KeySort = { column: 'calls', direction: 'desc' };
