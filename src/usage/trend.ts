// The trend of the last 12 billing periods: closed periods from the stored history, the rest
// read at once (all requests in flight together: one round trip), the current period always
// read again. A period the service does not know (404, or an empty answer) is "no data";
// a period that used nothing is zero, which is data.
import { type ApiError, isApiError } from '../api/errors';
import type { UsageSummary } from '../api/types';
import { isClosedPeriod, trendPeriods, trendPoint, type TrendPoint } from '../core/trend';
import type { TrendData } from './protocol';
import type { UsageHistory } from './history';

export interface TrendRead {
  data: TrendData;
  /** How many summaries were asked of the service. */
  requests: number;
}

export async function readTrend(
  summaryOf: (period: string) => Promise<UsageSummary>,
  history: { store: UsageHistory; environmentId: string; baseUrl: string } | undefined,
  current: string,
  describe: (error: unknown) => string,
): Promise<TrendRead> {
  const periods = trendPeriods(current);
  const stored = history ? history.store.read(history.environmentId, history.baseUrl) : new Map<string, TrendPoint>();
  let requests = 0;
  let firstError: unknown;
  const points = await Promise.all(
    periods.map(async (period): Promise<TrendPoint> => {
      const kept = isClosedPeriod(period, current) ? stored.get(period) : undefined;
      if (kept) return kept;
      requests++;
      try {
        const summary = await summaryOf(period);
        return trendPoint(period, summary.tier, summary.usage);
      } catch (error) {
        if (isApiError(error) && (error.kind === 'notFound' || isEmptyAnswer(error)))
          return { period, status: 'noData' };
        // A rejected key or a missing scope is the dashboard's to say, once.
        if (isApiError(error) && ['unauthorized', 'forbidden', 'cancelled'].includes(error.kind)) throw error;
        firstError ??= error;
        return { period, status: 'error', message: describe(error) };
      }
    }),
  );
  const failed = points.filter((p) => p.status === 'error');
  // Not one period could be read: the section says why (with Retry), as the others do.
  if (failed.length === points.length) throw firstError;
  if (history) {
    const fresh = points.filter((p) => isClosedPeriod(p.period, current) && !stored.has(p.period));
    // Kept in the background: the trend is shown without waiting for VS Code to persist its
    // global state (the value reads back at once; a failed write is the store's to report).
    void history.store.write(history.environmentId, history.baseUrl, fresh);
  }
  return { data: { current, points }, requests };
}

/** An answer with nothing in it: an empty body, or no `usage` at all. */
function isEmptyAnswer(error: ApiError): boolean {
  if (error.kind !== 'badResponse') return false;
  const fields = error.fieldErrors ?? {};
  return /got an empty body$/.test(fields.body ?? '') || /got nothing$/.test(fields.usage ?? '');
}
