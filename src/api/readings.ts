// The one place that knows how a service may fill in what the contract leaves open
// ("not shown"): the shape of a single read, of write answers, and of a page. Every endpoint
// module asks these functions; nothing else in the extension knows that a body can be wrapped,
// that a page can be a bare array, or that a write can answer without a body.
import type { Page } from './types';
import { ShapeError } from './validate';

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A single resource, as itself or wrapped as `{"data": {...}}`. `marker` is a field the bare
 * resource always has (`id` of an engagement, `usage` of a summary, `keys` of by-key): a body
 * that lacks it but holds an object under `data` is the wrapped form.
 */
export function unwrapSingle(body: unknown, marker: string): unknown {
  if (isObject(body) && !(marker in body) && isObject(body.data)) return body.data;
  return body;
}

/** What a POST or PATCH answered, before any read-back. */
export interface WriteAnswer<T> {
  status: number;
  /** The resource the answer carried (bare or wrapped), when it carried a readable one. */
  resource?: T;
  /** Why the body could not serve as the resource (empty, not JSON, another shape). */
  unreadable?: string;
  /** The `Location` header, as sent. */
  location?: string;
  etag?: string;
}

/**
 * Reads a write answer: 200, 201, 202 or 204, with the resource (bare or wrapped), with an
 * empty body, with something else, or with only a `Location`. Never throws for a 2xx: an
 * answer without a usable resource is for the caller to read back.
 */
export function readWriteAnswer<T>(
  status: number,
  text: string,
  headers: { get(name: string): string | null },
  parse: (body: unknown) => T,
  marker: string,
): WriteAnswer<T> {
  const answer: WriteAnswer<T> = {
    status,
    location: headers.get('Location') ?? undefined,
    etag: headers.get('ETag') ?? undefined,
  };
  if (!text.trim()) return { ...answer, unreadable: 'an empty body' };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ...answer, unreadable: 'a body that is not JSON' };
  }
  try {
    return { ...answer, resource: parse(unwrapSingle(body, marker)) };
  } catch (error) {
    return { ...answer, unreadable: error instanceof ShapeError ? error.message : String(error) };
  }
}

/**
 * The id a `Location` header points at, when it names `{base}/engagements/{id}` on the
 * environment's own origin and under its base URL; undefined for anything else, so the key
 * is never sent elsewhere because a service said so.
 */
export function locatedId(location: string | undefined, baseUrl: string, collection: string): string | undefined {
  if (!location) return undefined;
  let url: URL;
  try {
    url = new URL(location, `${baseUrl}/`);
  } catch {
    return undefined;
  }
  const base = new URL(baseUrl);
  if (url.origin !== base.origin || url.search || url.hash) return undefined;
  const prefix = `${base.pathname.replace(/\/+$/, '')}/${collection}/`;
  if (!url.pathname.startsWith(prefix)) return undefined;
  const rest = url.pathname.slice(prefix.length);
  if (!rest || rest.includes('/')) return undefined;
  try {
    const id = decodeURIComponent(rest);
    return id && id !== '.' && id !== '..' ? id : undefined;
  } catch {
    return undefined;
  }
}

function whole(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * A page, in any of the forms a service may use: the envelope `{data, page, pageSize,
 * totalCount}` (the paging fields may also sit under `meta` or `pagination`), or a bare
 * array. `page` and `pageSize` are what the service says it answered; when it does not say,
 * the request's. Without a `totalCount`, one more item is assumed after a full page.
 */
export function readPage<T>(
  body: unknown,
  request: { page: number; pageSize: number },
  parseItem: (item: unknown, path: string) => T,
): Page<T> {
  if (Array.isArray(body)) {
    const data = body.map((item, index) => parseItem(item, `[${index}]`));
    return withTotal(data, request.page, request.pageSize, undefined);
  }
  if (!isObject(body)) throw new ShapeError('', 'a page of items', body === null ? 'null' : typeof body);
  if (!Array.isArray(body.data))
    throw new ShapeError('data', 'an array', body.data === undefined ? 'nothing' : typeof body.data);
  const data = body.data.map((item, index) => parseItem(item, `data[${index}]`));
  const meta = [body, body.meta, body.pagination].filter(isObject);
  const field = (name: string) => meta.map((m) => m[name]).find((v) => v !== undefined);
  const page = whole(field('page'));
  const pageSize = whole(field('pageSize'));
  const total = field('totalCount') ?? field('total');
  const totalCount = whole(total);
  if (total !== undefined && totalCount === undefined)
    throw new ShapeError(
      'totalCount',
      'a whole number',
      typeof total === 'string' ? `"${total.slice(0, 20)}"` : typeof total,
    );
  return withTotal(
    data,
    page !== undefined && page >= 1 ? page : request.page,
    pageSize !== undefined && pageSize >= 1 ? pageSize : request.pageSize,
    totalCount,
  );
}

function withTotal<T>(data: T[], page: number, pageSize: number, totalCount: number | undefined): Page<T> {
  if (totalCount !== undefined) return { data, page, pageSize, totalCount };
  const seen = (page - 1) * pageSize + data.length;
  return { data, page, pageSize, totalCount: data.length < pageSize ? seen : seen + 1, totalEstimated: true };
}
