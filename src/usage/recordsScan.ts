// Every record of a period, read once for a filter (all pages concurrently, with progress and
// cancel), kept while the dashboard shows that period, and filtered locally. The export of a
// filtered view writes the same records.
import { ApiError } from '../api/errors';
import type { ServiceApi } from '../api/service';
import type { UsageRecord } from '../api/types';
import { filterRecords, type RecordFilter } from '../core/recordFilter';
import { deriveColumns } from '../core/records';

export interface ScanResult {
  period: string;
  records: UsageRecord[];
  columns: string[];
  /** Records the service announced but would not page to (0 when every one was read). */
  missing: number;
}

export class RecordsScan {
  private result?: ScanResult;
  private running?: { period: string; promise: Promise<ScanResult>; controller: AbortController };

  /** The records of the period when they were read already. */
  cached(period: string): ScanResult | undefined {
    return this.result?.period === period ? this.result : undefined;
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
    const promise = api.usage.detailsAll(period, { signal: inner, onProgress }).then((all) => {
      if (inner.aborted) throw new ApiError('cancelled', 'Reading the records was cancelled.');
      const result = {
        period,
        records: all.items,
        columns: deriveColumns(all.items),
        missing: all.stop ? all.totalCount - all.items.length : 0,
      };
      this.result = result;
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

  /** Forgets what was read (a refresh reads the period again). */
  clear(): void {
    this.cancel();
    this.result = undefined;
  }
}

/** The records of a scan that pass the filter. */
export function filtered(scan: ScanResult, filter: RecordFilter): UsageRecord[] {
  return filterRecords(scan.records, scan.columns, filter);
}
