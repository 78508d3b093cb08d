// Parsing and validation of query parameters and JSON request bodies.
import type { Parsed } from './replies';
import { errorReply, fail, fieldErrors, ok } from './replies';
import { parsePeriod, periodOf } from './period';

export interface RequestInput {
  query: URLSearchParams;
  /** Raw request body text ('' when none was sent). */
  bodyText: string;
  contentType: string | undefined;
  now: Date;
}

export interface Paging {
  page: number;
  pageSize: number;
}

const INTEGER = /^\d+$/;

function integerParam(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
): Parsed<number> {
  const raw = query.get(name);
  if (raw === null) return ok(fallback);
  const value = INTEGER.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer between ${min} and ${max}`;
    return fail(fieldErrors(400, 'invalid_parameter', { [name]: `${name} must be ${range}` }));
  }
  return ok(value);
}

/** `page` (default 1, ≥ 1) and `pageSize` (default 25, 1–`maxPageSize`, 100 unless told). */
export function parsePaging(query: URLSearchParams, maxPageSize = 100): Parsed<Paging> {
  const page = integerParam(query, 'page', 1, 1, Number.MAX_SAFE_INTEGER);
  if (!page.ok) return page;
  const pageSize = integerParam(query, 'pageSize', 25, 1, maxPageSize);
  if (!pageSize.ok) return pageSize;
  return ok({ page: page.value, pageSize: pageSize.value });
}

export function slicePage<T>(items: readonly T[], { page, pageSize }: Paging): T[] {
  const start = (page - 1) * pageSize;
  return start >= items.length ? [] : items.slice(start, start + pageSize);
}

/** `billingPeriod`: YYYY-MM with month 01–12, not after the current period; default current. */
export function parseBillingPeriod(input: RequestInput): Parsed<string> {
  const current = periodOf(input.now);
  const raw = input.query.get('billingPeriod');
  if (raw === null) return ok(current);
  if (!parsePeriod(raw)) {
    return fail(
      fieldErrors(400, 'invalid_parameter', {
        billingPeriod: 'billingPeriod must have the form YYYY-MM with a month from 01 to 12',
      }),
    );
  }
  if (raw > current)
    return fail(fieldErrors(400, 'invalid_parameter', { billingPeriod: 'billingPeriod is in the future' }));
  return ok(raw);
}

/** The body as a JSON object; 400 for a non-JSON content type, invalid JSON or a non-object. */
export function parseJsonObject(input: RequestInput): Parsed<Record<string, unknown>> {
  const mediaType = (input.contentType ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/json') {
    return fail(errorReply(400, 'invalid_body', 'The request body must be JSON with Content-Type: application/json'));
  }
  let value: unknown;
  try {
    value = JSON.parse(input.bodyText);
  } catch {
    return fail(errorReply(400, 'invalid_json', 'The request body is not valid JSON'));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(errorReply(400, 'invalid_body', 'The request body must be a JSON object'));
  }
  return ok(value as Record<string, unknown>);
}
