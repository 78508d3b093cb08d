// How each section of the dashboard is read from the service: the meters and the per-key table
// (one summary per period and load), the records (a page, or a scan for a filter); the trend is src/api/usage.ts's `readTrend`.
import { ApiError } from '../api/errors';
import { PageReader } from '../api/paging';
import type { ServiceApi } from '../api/service';
import type { UsageByKey, UsageRecord, UsageSummary } from '../api/types';
import { USAGE_METERS, meterFigures } from '../core/meters';
import type { KeySort, RecordFilter } from '../core/records';
import {
  deriveColumns,
  filterRecords,
  keyColumn,
  keyIdOfApiKey,
  keyRows,
  maskKeyId,
  sortKeyRows,
} from '../core/records';
import { BREAKDOWN_CAP } from '../core/breakdown';
import { comparePeriods } from '../core/period';
import type { DashboardState, DetailsData, KeysData, SummaryData, TrendData, ViewState } from './protocol';

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
  byKeyOf: Promise<UsageByKey>,
  period: string,
  sort: KeySort,
  ownKey: Promise<string | undefined>,
): Promise<{ data: KeysData; byMask: KeysByMask }> {
  const [byKey, key] = await Promise.all([byKeyOf, ownKey]);
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

/**
 * The records as the dashboard shows them: each key id in the form the per-key table shows it
 * (its mask there; an id the table does not list, masked alone), so a key reads the same in
 * both tables. Filters and exports work on the records as the service sent them.
 */
export function recordsShown(details: DetailsData, keysByMask: KeysByMask): DetailsData {
  const column = keyColumn(details.columns);
  if (column === undefined) return details;
  const maskOf = new Map([...keysByMask].map(([mask, key]) => [key.keyId, mask]));
  return {
    ...details,
    records: details.records.map((record) => {
      const id = record[column];
      return typeof id === 'string' ? { ...record, [column]: maskOf.get(id) ?? maskKeyId(id) } : record;
    }),
  };
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

/** Usage by key asked for during one load, one per period: the per-key table and the per-key trends share a period's. */
export class ByKeyReads {
  private reads = new Map<string, Promise<UsageByKey>>();

  /** A new load reads each period again. */
  clear(): void {
    this.reads = new Map();
  }

  of(api: ServiceApi, period: string, signal: AbortSignal): Promise<UsageByKey> {
    let read = this.reads.get(period);
    if (!read) {
      read = api.usage.byKey(period, { signal });
      this.reads.set(period, read);
      read.catch(() => undefined);
    }
    return read;
  }
}

// The records section: a page as the service pages it (or paged here when the service sent
// every record at once: `PageReader` decides), or, with a filter, a page of the period's records
// that pass it (the whole period read once, with progress, and filtered here).
/** What one period's records table learned of the service's paging (a refresh starts again). */
export class RecordsPages {
  private current?: { period: string; reader: PageReader<UsageRecord> };

  of(period: string): PageReader<UsageRecord> {
    if (this.current?.period !== period) this.current = { period, reader: new PageReader<UsageRecord>() };
    return this.current.reader;
  }

  clear(): void {
    this.current = undefined;
  }
}

/** The page `view` asks for; `view.page` becomes the page shown. */
export async function readRecordsPage(
  api: ServiceApi,
  view: ViewState,
  signal: AbortSignal,
  pages: RecordsPages = new RecordsPages(),
): Promise<DetailsData> {
  const { period, page, pageSize } = view;
  const shown = await pages.of(period).read(
    (p, size, inner) => api.usage.details({ billingPeriod: period, page: p, pageSize: size }, { signal: inner }),
    page,
    pageSize,
    signal,
    (next, p, inner) => api.usage.details({ billingPeriod: period, page: p, pageSize, next }, { signal: inner }),
  );
  view.page = shown.page;
  return {
    period,
    page: shown.page,
    pageSize: shown.pageSize,
    ...(shown.total !== undefined ? { totalCount: shown.total } : {}),
    hasNext: shown.hasNext,
    columns: deriveColumns(shown.items),
    records: shown.items,
  };
}

/** A page of the records of the whole period that pass the filter; the scan's progress is in `state.scan`. */
export async function readFilteredPage(
  scan: RecordsScan,
  api: ServiceApi,
  state: DashboardState,
  filter: RecordFilter,
  signal: AbortSignal,
  changed: () => void,
): Promise<DetailsData> {
  const period = state.view.period;
  try {
    const all = await scan.read(
      api,
      period,
      (loaded, total) => {
        if (signal.aborted) return;
        state.scan = { phase: 'running', purpose: 'filter', loaded, total };
        changed();
      },
      signal,
    );
    const matched = filtered(all, filter);
    const { pageSize } = state.view;
    const pages = Math.max(1, Math.ceil(matched.length / pageSize));
    if (state.view.page > pages) state.view.page = pages;
    const page = state.view.page;
    const records = matched.slice((page - 1) * pageSize, page * pageSize);
    return {
      period,
      page,
      pageSize,
      totalCount: matched.length,
      columns: all.columns,
      records,
      filtered: { matched: matched.length, total: all.records.length },
    };
  } finally {
    if (!signal.aborted) state.scan = undefined;
  }
}

// Every record of a period, read once for a filter (all pages concurrently, with progress and
// cancel), kept while the dashboard shows that period, and filtered locally. The export of a
// filtered view writes the same records.
export interface ScanResult {
  period: string;
  records: UsageRecord[];
  columns: string[];
  /** Records the service announced but would not page to, or past the cap (0 when every one was read). */
  missing: number;
  /** Reading stopped at the cap (`BREAKDOWN_CAP`). */
  capped: boolean;
}

/** Closed periods kept read (besides the period shown): their records no longer change. */
const KEPT_PERIODS = 3;

export class RecordsScan {
  /** The periods read, the latest last; a closed period's stays across a refresh. */
  private readonly results = new Map<string, ScanResult>();
  private running?: { period: string; promise: Promise<ScanResult>; controller: AbortController };

  /** How many records are read at most (whole pages). */
  constructor(private readonly cap = BREAKDOWN_CAP) {}

  /** The records of the period when they were read already. */
  cached(period: string): ScanResult | undefined {
    return this.results.get(period);
  }

  /** Reads every record of the period (or returns the ones read); one read at a time per period. */
  read(
    api: ServiceApi,
    period: string,
    onProgress: (loaded: number, total: number) => void,
    signal?: AbortSignal,
  ): Promise<ScanResult> {
    const cached = this.cached(period);
    if (cached) return Promise.resolve(cached);
    if (this.running?.period === period) return this.running.promise;
    this.running?.controller.abort();
    const controller = new AbortController();
    const inner = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
    const promise = api.usage.detailsAll(period, { signal: inner, onProgress, limit: this.cap }).then((all) => {
      if (inner.aborted) throw new ApiError('cancelled', 'Reading the records was cancelled.');
      const capped = all.items.length >= this.cap && (all.next !== undefined || all.totalCount > all.items.length);
      const result: ScanResult = {
        period,
        records: all.items,
        columns: deriveColumns(all.items),
        missing: all.stop || capped ? Math.max(0, all.totalCount - all.items.length) : 0,
        capped,
      };
      this.results.delete(period);
      this.results.set(period, result);
      while (this.results.size > KEPT_PERIODS + 1) this.results.delete(this.results.keys().next().value as string);
      return result;
    });
    const running = { period, promise, controller };
    this.running = running;
    void promise
      .finally(() => {
        if (this.running === running) this.running = undefined;
      })
      .catch(() => undefined);
    return promise;
  }

  cancel(): void {
    this.running?.controller.abort();
  }

  /**
   * Forgets what was read (a refresh reads the period again); with `current`, only the periods
   * not closed before it (a closed period's records are kept: they no longer change).
   */
  clear(current?: string): void {
    this.cancel();
    for (const period of [...this.results.keys()])
      if (current === undefined || comparePeriods(period, current) >= 0) this.results.delete(period);
  }
}

/** The records of a scan that pass the filter. */
export function filtered(scan: ScanResult, filter: RecordFilter): UsageRecord[] {
  return filterRecords(scan.records, scan.columns, filter);
}
