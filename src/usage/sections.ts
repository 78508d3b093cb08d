// The dashboard's sections and how the meters and the per-key table are read from the service
// (the records are in recordsPage.ts, the trend in trend.ts), one summary per period and load.
import type { ServiceApi } from '../api/service';
import type { UsageSummary } from '../api/types';
import { meterFigures, USAGE_METERS } from '../core/meters';
import { keyIdOfApiKey, keyRows, type KeySort, sortKeyRows } from '../core/records';
import type { DetailsData, KeysData, SummaryData, TrendData } from './protocol';

export interface SectionData {
  summary: SummaryData;
  keys: KeysData;
  details: DetailsData;
  trend: TrendData;
}
export type SectionName = keyof SectionData;
export const SECTIONS: readonly SectionName[] = ['summary', 'keys', 'details', 'trend'];
/** What changes with the period shown (the trend always ends at the current period). */
export const PERIOD_SECTIONS: readonly SectionName[] = ['summary', 'keys', 'details'];

/** The per-key table's masked ids → the key id and name (host side only). */
export type KeysByMask = Map<string, { keyId: string; name: string }>;

export function summarySection(summary: UsageSummary, period: string): SummaryData {
  return {
    period,
    tier: summary.tier,
    meters: USAGE_METERS.map((meter) => meterFigures(meter, summary.usage[meter])),
  };
}

/** The per-key table, with the row of this environment's own key marked. */
export async function readKeys(
  api: ServiceApi,
  period: string,
  sort: KeySort,
  ownKey: Promise<string | undefined>,
  signal: AbortSignal,
): Promise<{ data: KeysData; byMask: KeysByMask }> {
  const [byKey, key] = await Promise.all([api.usage.byKey(period, { signal }), ownKey]);
  // Only a boolean per row leaves this function: the key never reaches the webview.
  const rows = keyRows(byKey.keys, keyIdOfApiKey(key));
  return {
    data: { period, rows: sortKeyRows(rows, sort), totalCalls: rows.reduce((sum, row) => sum + row.calls, 0) },
    byMask: new Map(rows.map((row, i) => [row.maskedKeyId, { keyId: byKey.keys[i].keyId, name: row.name }])),
  };
}

/** "name (masked id)" of the key the records are filtered to, when the per-key table knows it. */
export function filterKeyName(keysByMask: KeysByMask, keyId: string | undefined): string | undefined {
  const key = keyId === undefined ? undefined : [...keysByMask.entries()].find(([, k]) => k.keyId === keyId);
  return key ? `${key[1].name} (${key[0]})` : undefined;
}

/** Summaries asked for during one load, one per period: the trend and the meters share the current period's. */
export class SummaryReads {
  private reads = new Map<string, Promise<UsageSummary>>();

  /** `loaded`: a summary was read (and its load not cancelled). */
  constructor(private readonly loaded: (summary: UsageSummary) => void) {}

  /** A new load reads each period again. */
  clear(): void {
    this.reads = new Map();
  }

  of(api: ServiceApi, period: string, signal: AbortSignal): Promise<UsageSummary> {
    let read = this.reads.get(period);
    if (!read) {
      read = api.usage.summary(period, { signal });
      this.reads.set(period, read);
      read.then(
        (summary) => {
          if (!signal.aborted) this.loaded(summary);
        },
        () => undefined,
      );
    }
    return read;
  }
}
