import type { ApiClient } from './client';
import { ApiError, type Endpoint, isApiError } from './errors';
import { fetchAllPages, type PagedResult } from './paging';
import { parseUsageByKey, parseUsageRecord, parseUsageSummary, readPage, unwrapSingle } from './readings';
import { pageQuery } from './pageLinks';
import type { CallOptions, NextPage, Page, UsageByKey, UsageRecord, UsageSummary } from './types';
import { validateBillingPeriod, validatePageRequest } from '../core/validation';
import { DEFAULT_DETAILS_PAGE_SIZE, MAX_DETAILS_PAGE_SIZE } from '../core/records';
import { type TrendPoint, isClosedPeriod, trendPeriods, trendPoint } from '../core/trend';

const USAGE_ENDPOINTS = {
  summary: { method: 'GET', path: '/usage/summary', scope: 'usage:read' },
  details: { method: 'GET', path: '/usage/details', scope: 'usage:read' },
  byKey: { method: 'GET', path: '/usage/by-key', scope: 'usage:read' },
} as const satisfies Record<string, Endpoint>;

function checkPeriod(billingPeriod: string | undefined): void {
  if (billingPeriod === undefined) return;
  const message = validateBillingPeriod(billingPeriod);
  if (message) throw new ApiError('invalidRequest', message, { fieldErrors: { billingPeriod: message } });
}

/**
 * A usage answer is shown as the period asked only when it names that period (or names none
 * the client can read as one): a service that answers every `billingPeriod` with the current
 * period's figures would otherwise show them under each month asked. Without a period asked,
 * the service answers for its current one, whatever that is.
 */
function checkAnswered(endpoint: Endpoint, asked: string | undefined, answered: unknown): void {
  if (asked === undefined || typeof answered !== 'string') return;
  const month = /^(\d{4}-\d{2})(?:$|-\d{2})/.exec(answered.trim())?.[1];
  if (month === undefined || month === asked) return;
  throw new ApiError(
    'otherPeriod',
    `${endpoint.method} ${endpoint.path} asked for ${asked} and answered for ${month}.`,
    { endpoint, period: { asked, answered: month } },
  );
}

/** The billing period a page of records names in its envelope, if any. */
function envelopePeriod(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const envelope = body as Record<string, unknown>;
  return envelope.billingPeriod ?? envelope.billing_period;
}

export interface DetailsRequest {
  billingPeriod?: string;
  page?: number;
  pageSize?: number;
  /** The page as the page before named it (see `PageRequest.next`). */
  next?: NextPage;
}

export class UsageApi {
  constructor(private readonly client: ApiClient) {}

  /** Without a billing period the service answers for the current one. */
  async summary(billingPeriod?: string, options: CallOptions = {}): Promise<UsageSummary> {
    checkPeriod(billingPeriod);
    return this.client.request(USAGE_ENDPOINTS.summary, {
      query: { billingPeriod },
      signal: options.signal,
      parse: (body) => {
        const summary = parseUsageSummary(unwrapSingle(body, 'usage'));
        checkAnswered(USAGE_ENDPOINTS.summary, billingPeriod, summary.billingPeriod);
        return summary;
      },
    });
  }

  async details(
    { billingPeriod, page = 1, pageSize = DEFAULT_DETAILS_PAGE_SIZE, next }: DetailsRequest = {},
    options: CallOptions = {},
  ): Promise<Page<UsageRecord>> {
    checkPeriod(billingPeriod);
    const problem = validatePageRequest(page, pageSize, MAX_DETAILS_PAGE_SIZE);
    if (problem) throw new ApiError('invalidRequest', problem);
    return this.client.request(USAGE_ENDPOINTS.details, {
      ...pageQuery({ page, pageSize }, next, { billingPeriod }),
      signal: options.signal,
      parse: (body, _unread, answer) => {
        checkAnswered(USAGE_ENDPOINTS.details, billingPeriod, envelopePeriod(body));
        return readPage(body, { page, pageSize }, parseUsageRecord, answer);
      },
    });
  }

  /** Every record of a period, read concurrently like `EngagementsApi.listAll`. */
  async detailsAll(
    billingPeriod: string | undefined,
    options: CallOptions & { onProgress?: (loaded: number, total: number) => void; limit?: number } = {},
  ): Promise<PagedResult<UsageRecord>> {
    // A service that answers pages larger than the largest size it takes pages in a size of its
    // own: later pages are asked in the largest size the contract allows, never in the one it sent.
    const fetchPage = (page: number, pageSize: number, signal?: AbortSignal) =>
      this.details({ billingPeriod, page, pageSize: Math.min(pageSize, MAX_DETAILS_PAGE_SIZE) }, { signal });
    return fetchAllPages(fetchPage, {
      followNext: (next, page, signal) =>
        this.details({ billingPeriod, page, pageSize: MAX_DETAILS_PAGE_SIZE, next }, { signal }),
      pageSize: MAX_DETAILS_PAGE_SIZE,
      concurrency: this.client.concurrency,
      signal: options.signal,
      onProgress: options.onProgress,
      limit: options.limit,
      idOf: (record) =>
        typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : undefined,
    });
  }

  async byKey(billingPeriod?: string, options: CallOptions = {}): Promise<UsageByKey> {
    checkPeriod(billingPeriod);
    return this.client.request(USAGE_ENDPOINTS.byKey, {
      query: { billingPeriod },
      signal: options.signal,
      parse: (body) => {
        const byKey = parseUsageByKey(unwrapSingle(body, 'keys'));
        checkAnswered(USAGE_ENDPOINTS.byKey, billingPeriod, byKey.billingPeriod);
        return byKey;
      },
    });
  }
}

/** Where the closed periods of a trend are kept between reads (the dashboard's history). */
export interface TrendHistory {
  read(environmentId: string, baseUrl: string): Map<string, TrendPoint>;
  write(environmentId: string, baseUrl: string, points: readonly TrendPoint[]): Promise<void>;
}

// The trend of the last 12 billing periods: closed periods from the stored history, the rest
// read at once (all requests in flight together: one round trip), the current period always
// read again. A period the service does not know (404, or an empty answer) is "no data";
// a period that used nothing is zero, which is data.
export interface TrendRead {
  data: { current: string; points: TrendPoint[] };
  /** How many summaries were asked of the service. */
  requests: number;
}

export async function readTrend(
  summaryOf: (period: string) => Promise<UsageSummary>,
  history: { store: TrendHistory; environmentId: string; baseUrl: string } | undefined,
  current: string,
  describe: (error: unknown) => string,
  /** With it, each period's keys are read too (the per-key trends); a kept period without them is read again. */
  keysOf?: (period: string) => Promise<UsageByKey>,
): Promise<TrendRead> {
  const periods = trendPeriods(current);
  const stored = history ? history.store.read(history.environmentId, history.baseUrl) : new Map<string, TrendPoint>();
  const usable = (point: TrendPoint | undefined): point is TrendPoint =>
    point !== undefined && (keysOf === undefined || point.status !== 'data' || point.keys !== undefined);
  let requests = 0;
  let firstError: unknown;
  const points = await Promise.all(
    periods.map(async (period): Promise<TrendPoint> => {
      const kept = isClosedPeriod(period, current) ? stored.get(period) : undefined;
      if (usable(kept)) return kept;
      requests++;
      try {
        const [summary, byKey] = await Promise.all([
          summaryOf(period),
          // A period whose keys cannot be read still has its meters: its keys are simply not known.
          keysOf?.(period).then(
            (answer) => answer,
            () => undefined,
          ),
        ]);
        const point = trendPoint(period, summary.tier, summary.usage);
        if (byKey && point.status === 'data')
          point.keys = byKey.keys.map((k) => ({ keyId: k.keyId, name: k.name, calls: k.calls }));
        return point;
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
    const fresh = points.filter((p) => isClosedPeriod(p.period, current) && !usable(stored.get(p.period)));
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
