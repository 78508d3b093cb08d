// The one place that knows how a service may fill in what the contract leaves open
// ("not shown"): the shape of a single read, of write answers, and of a page. Every endpoint
// module asks these functions; nothing else in the extension knows that a body can be wrapped,
// that a page can be a bare array, or that a write can answer without a body. Then each
// answer is checked against the contract's shapes (`parse*`, `ShapeError`).
import type { KeyUsage, Meter, MeterName, Page, UsageByKey, UsageRecord, UsageSummary } from './types';
import type { Engagement } from '../core/engagement';
import { METER_NAMES } from './types';
import { ENGAGEMENT_FIELDS } from '../core/engagement';
import type { NextSaid, PageAnswer } from './pageLinks';
import { headerTotal, nextOf } from './pageLinks';

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
  /**
   * The id a body that is not the whole resource named (`{"id": "…"}`, some of its fields, a
   * pending body such as `{"status": "pending", "id": "…"}`, bare or wrapped): the resource
   * to read back.
   */
  namedId?: string;
  /** The `Location` header, as sent. */
  location?: string;
  etag?: string;
  /** The `Last-Modified` header, as sent. */
  lastModified?: string;
  /** The `Date` header: when the service answered, by its own clock. */
  date?: string;
}

/**
 * Reads a write answer: 200, 201, 202 or 204, with the resource (bare or wrapped), with some
 * of it or only its id, with an empty body, with something else, or with only a `Location`.
 * Never throws for a 2xx: an answer without a usable resource is for the caller to read back.
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
    lastModified: headers.get('Last-Modified') ?? undefined,
    date: headers.get('Date') ?? undefined,
  };
  if (!text.trim()) return { ...answer, unreadable: 'an empty body' };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ...answer, unreadable: 'a body that is not JSON' };
  }
  const single = unwrapSingle(body, marker);
  try {
    return { ...answer, resource: parse(single) };
  } catch (error) {
    const unreadable = error instanceof ShapeError ? error.message : String(error);
    const named = isObject(single) ? idText(single[marker]) : undefined;
    return named !== undefined ? { ...answer, unreadable, namedId: named } : { ...answer, unreadable };
  }
}

/**
 * The id a `Location` header points at, when it names `{base}/engagements/{id}` (or with a
 * trailing slash) on the
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
  // One trailing slash is a framework's routing (`/engagements/42/`), the same engagement.
  const rest = url.pathname.slice(prefix.length).replace(/\/$/, '');
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

/** Where a page envelope may hold its items, in order of preference. */
const PAGE_ITEM_FIELDS = ['data', 'items', 'records', 'results'] as const;
/** Where it may say its total, page size and page number (at the top, or under `meta` / `pagination`). */
const PAGE_TOTAL_FIELDS = ['totalCount', 'total', 'total_count', 'count'] as const;
const PAGE_SIZE_FIELDS = ['pageSize', 'page_size', 'per_page', 'limit'] as const;
const PAGE_NUMBER_FIELDS = ['page', 'pageNumber', 'current_page'] as const;

/**
 * The items of a page envelope: the first array under a name services use for them, else the
 * envelope's one array field (`{"engagements": […], "total": 230}`). Several arrays and none of
 * those names, or no array at all, is a shape this extension does not guess at.
 */
function pageItems(body: Obj): { field: string; items: unknown[] } {
  for (const field of PAGE_ITEM_FIELDS) {
    const value = body[field];
    if (Array.isArray(value)) return { field, items: value };
  }
  const arrays = Object.keys(body).filter((field) => Array.isArray(body[field]));
  if (arrays.length === 1) return { field: arrays[0], items: body[arrays[0]] as unknown[] };
  if (arrays.length > 1) throw new ShapeError('', 'one array of items', `several arrays (${arrays.join(', ')})`);
  const data = body.data;
  throw new ShapeError('data', 'an array', data === undefined ? 'nothing' : data === null ? 'null' : typeof data);
}

/**
 * A page, in any of the forms a service may use: an envelope with its items under `data`,
 * `items`, `records`, `results` (or its one array field), its total, page size and page
 * number at the top or under `meta` or `pagination` under any of the names above (the
 * contract's `{data, page, pageSize, totalCount}`, `{items, total}`, Django's `{count, next,
 * previous, results}`, Laravel's `{data, meta: {current_page, per_page, total}}`), or a bare
 * array. `page` and `pageSize` are what the service says it answered; when it does not say,
 * the request's. Without a total, one more item is assumed after a full page.
 */
export function readPage<T>(
  body: unknown,
  request: { page: number; pageSize: number },
  parseItem: (item: unknown, path: string) => T,
  answer?: PageAnswer,
): Page<T> {
  if (Array.isArray(body)) {
    const data = body.map((item, index) => parseItem(item, `[${index}]`));
    const said = nextOf(undefined, body, request.page, answer);
    return withTotal(data, request.page, request.pageSize, headerTotal(answer), said);
  }
  if (!isObject(body)) throw new ShapeError('', 'a page of items', body === null ? 'null' : typeof body);
  const { field, items } = pageItems(body);
  const data = items.map((item, index) => parseItem(item, `${field}[${index}]`));
  const meta = [body, body.meta, body.pagination].filter(isObject);
  /** The first of `names` that the envelope or its `meta`/`pagination` holds: its name and value. */
  const find = (names: readonly string[]): { name: string; value: unknown } | undefined => {
    for (const name of names)
      for (const m of meta) if (m[name] !== undefined && m[name] !== null) return { name, value: m[name] };
    return undefined;
  };
  const page = whole(find(PAGE_NUMBER_FIELDS)?.value);
  const pageSize = whole(find(PAGE_SIZE_FIELDS)?.value);
  const total = find(PAGE_TOTAL_FIELDS);
  const totalCount = whole(total?.value);
  if (total !== undefined && totalCount === undefined)
    throw new ShapeError(
      total.name,
      'a whole number',
      typeof total.value === 'string' ? `"${total.value.slice(0, 20)}"` : typeof total.value,
    );
  const at = page !== undefined && page >= 1 ? page : request.page;
  return withTotal(
    data,
    at,
    pageSize !== undefined && pageSize >= 1 ? pageSize : request.pageSize,
    totalCount ?? headerTotal(answer),
    nextOf(body, items, at, answer),
  );
}

/**
 * The page with its total: the one said, else estimated: what was seen up to this page, one
 * more after a full page or one the service said more follow (`more`).
 */
function withTotal<T>(
  data: T[],
  page: number,
  pageSize: number,
  totalCount: number | undefined,
  said: NextSaid,
): Page<T> {
  const base = { data, page, pageSize, ...said };
  if (totalCount !== undefined) return { ...base, totalCount };
  const seen = (page - 1) * pageSize + data.length;
  const full = said.more ?? data.length >= pageSize;
  return { ...base, totalCount: full ? seen + 1 : seen, totalEstimated: true };
}

// Run-time checks of the service's answers against the contract's shapes. Extra fields are
// kept; a missing or mistyped required field throws a ShapeError naming the field's path.
export class ShapeError extends Error {
  override readonly name = 'ShapeError';
  constructor(
    readonly field: string,
    readonly expected: string,
    readonly got: string,
  ) {
    super(`${field || 'body'}: expected ${expected}, got ${got}`);
  }
}

type Obj = Record<string, unknown>;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? 'a long string' : `"${value}"`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${value}`;
  return typeof value === 'object' ? 'an object' : typeof value;
}

function object(value: unknown, path: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ShapeError(path, 'an object', describe(value));
  return value as Obj;
}

function string(obj: Obj, key: string, path: string): string {
  const value = obj[key];
  if (typeof value !== 'string')
    throw new ShapeError(join(path, key), 'a string', value === undefined ? 'nothing' : describe(value));
  return value;
}

function optionalString(obj: Obj, key: string, path: string): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ShapeError(join(path, key), 'a string', describe(value));
  return value;
}

/** Numbers may arrive as numeric strings; they are read as numbers. */
function number(obj: Obj, key: string, path: string, { integer = false } = {}): number {
  const raw = obj[key];
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new ShapeError(
      join(path, key),
      integer ? 'an integer' : 'a number',
      raw === undefined ? 'nothing' : describe(raw),
    );
  }
  return value;
}

function array(obj: Obj, key: string, path: string): unknown[] {
  const value = obj[key];
  if (!Array.isArray(value))
    throw new ShapeError(join(path, key), 'an array', value === undefined ? 'nothing' : describe(value));
  return value;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/**
 * An id as the service gives it: a non-empty string as it is, an integer as its decimal text
 * (json-server, Rails, Django and Spring number their records), sent back in paths as it came.
 * An integer beyond 2^53 has lost digits in JSON (it reads as a neighbour), so it is refused
 * rather than shown, or written, as another record's id. Undefined for anything else.
 */
function idText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

function id(obj: Obj, path: string): string {
  const value = obj.id;
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  const unsafe = typeof value === 'number' && Number.isInteger(value);
  throw new ShapeError(
    join(path, 'id'),
    unsafe ? 'an id JSON carries exactly (a whole number up to 2^53)' : 'a non-empty string or a whole number',
    value === undefined ? 'nothing' : describe(value),
  );
}

/** The fields an engagement is listed by besides its id: unknown when missing or malformed. */
export type ListedField = 'name' | 'type' | 'status';

/**
 * An engagement. Only its id is needed to list it, open it and write to it: without a usable
 * id the answer is unreadable, the field named. Every other field may be missing or malformed:
 * it is left out (shown as unknown) and told to `unread`, so one row never hides the others or
 * fails a write. `needs` names the fields of `ListedField` that must be there all the same (a
 * write's answer without them is not the engagement but a part of it, read back).
 */
export function parseEngagement(
  value: unknown,
  path = '',
  unread?: UnreadFields,
  needs: readonly ListedField[] = [],
): Engagement {
  const obj = contractNames(object(value, path), ENGAGEMENT_FIELDS);
  const engagement: Engagement = { ...obj, id: id(obj, path) };
  for (const key of ENGAGEMENT_FIELDS) if (key !== 'id') delete engagement[key];
  const shown = (key: string, read: () => unknown, optional = false): unknown => {
    if (optional && (obj[key] === undefined || obj[key] === null)) return undefined;
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      if ((needs as readonly string[]).includes(key)) throw error;
      unread?.add(key, error);
      return undefined;
    }
  };
  for (const key of ['name', 'type', 'status'] as const) {
    const text = shown(key, () => string(obj, key, path));
    if (typeof text === 'string') engagement[key] = text;
  }
  const description = shown('description', () => optionalString(obj, 'description', path), true);
  const evaluationCount = shown('evaluationCount', () => number(obj, 'evaluationCount', path, { integer: true }));
  const createdAt = shown('createdAt', () => string(obj, 'createdAt', path));
  const updatedAt = shown('updatedAt', () => string(obj, 'updatedAt', path));
  if (typeof description === 'string') engagement.description = description;
  if (typeof evaluationCount === 'number') engagement.evaluationCount = evaluationCount;
  if (typeof createdAt === 'string') engagement.createdAt = createdAt;
  if (typeof updatedAt === 'string') engagement.updatedAt = updatedAt;
  return engagement;
}

/**
 * A row of a list left out for want of a usable id. Paging still counts it, and knows it again
 * when a service answers the same page twice, by where it stood on its page and what it held.
 */
export class UnlistedRow {
  constructor(readonly key: string) {}
}

/**
 * A row of a list: the engagement, or an `UnlistedRow` when it has no usable id (nothing could
 * open it or write to it, nor tell it from another): left out of the list, and told to `unread`
 * (the log names it, and the page counts it as skipped).
 */
export function parseListedEngagement(value: unknown, path: string, unread?: UnreadFields): Engagement | UnlistedRow {
  try {
    return parseEngagement(value, path, unread);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    unread?.leaveOut(error);
    return new UnlistedRow(`\u0000${path} ${JSON.stringify(value) ?? String(value)}`);
  }
}

/** What paging knows a row by: an engagement's id, or an unlisted row's key. */
export function rowKey(row: Engagement | UnlistedRow): string {
  return row instanceof UnlistedRow ? row.key : row.id;
}

/** Whether a row is listed: an engagement, not a row left out. */
export function isListed(row: Engagement | UnlistedRow): row is Engagement {
  return !(row instanceof UnlistedRow);
}

/** A page of rows as engagements, the rows without a usable id left out and counted (`skipped`). */
export function withoutUnlisted(page: Page<Engagement | UnlistedRow>): Page<Engagement> {
  const data = page.data.filter(isListed);
  const skipped = page.data.length - data.length;
  return skipped ? { ...page, data, skipped } : { ...page, data };
}

/**
 * The object with each of the contract's camelCase `fields` that it lacks taken from its
 * snake_case name, as the model serializers of Rails, Django and most ORMs write them
 * (`evaluation_count`, `created_at`, `billing_period`); the snake_case key is then dropped, as
 * it is the same field. A field under both names keeps the contract's and both are kept.
 */
function contractNames(obj: Obj, fields: readonly string[]): Obj {
  let named: Obj | undefined;
  for (const field of fields) {
    const snake = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (snake === field || !(snake in obj) || obj[field] !== undefined) continue;
    named ??= { ...obj };
    named[field] = named[snake];
    delete named[snake];
  }
  return named ?? obj;
}

/**
 * The fields besides the id that one reading (one answer) found missing or malformed: each
 * field once, with how many items lacked it and the first of them, so a page of 10,000 rows that
 * all lack `createdAt` is one line of the log, not 10,000. Then the items left out of a list for
 * want of a usable id, counted the same way.
 */
export class UnreadFields {
  private readonly fields = new Map<string, { count: number; first: ShapeError }>();
  private leftOut?: { count: number; first: ShapeError };

  add(field: string, error: ShapeError): void {
    const known = this.fields.get(field);
    if (known) known.count++;
    else this.fields.set(field, { count: 1, first: error });
  }

  /** An item left out of a list: it has no usable id. */
  leaveOut(error: ShapeError): void {
    if (this.leftOut) this.leftOut.count++;
    else this.leftOut = { count: 1, first: error };
  }

  /**
   * `evaluationCount unknown on 3 items (first: results[2].evaluationCount: expected an integer, got nothing)`,
   * then `1 item without a usable id left out (first: …)`; undefined when none.
   */
  summary(): string | undefined {
    const parts = [...this.fields].map(
      ([field, { count, first }]) => `${field} unknown on ${items(count)} (first: ${first.message})`,
    );
    if (this.leftOut)
      parts.push(`${items(this.leftOut.count)} without a usable id left out (first: ${this.leftOut.first.message})`);
    return parts.length ? parts.join('; ') : undefined;
  }
}

function items(count: number): string {
  return `${count} item${count === 1 ? '' : 's'}`;
}

/** A usage detail record: the contract leaves its fields open, so any object is one. */
export function parseUsageRecord(value: unknown, path: string): UsageRecord {
  return object(value, path);
}

function parseMeter(value: unknown, path: string): Meter {
  const obj = object(value, path);
  return {
    ...obj,
    used: number(obj, 'used', path),
    included: number(obj, 'included', path),
    overage: number(obj, 'overage', path),
  };
}

export function parseUsageSummary(value: unknown): UsageSummary {
  const obj = contractNames(object(value, ''), ['billingPeriod']);
  const usageObj = object(obj.usage, 'usage');
  const usage = {} as Record<MeterName, Meter>;
  for (const name of METER_NAMES) usage[name] = parseMeter(usageObj[name], `usage.${name}`);
  return {
    ...obj,
    billingPeriod: string(obj, 'billingPeriod', ''),
    tier: string(obj, 'tier', ''),
    usage: { ...usageObj, ...usage },
  };
}

function parseKeyUsage(value: unknown, path: string): KeyUsage {
  const obj = contractNames(object(value, path), ['keyId', 'lastUsedAt']);
  return {
    ...obj,
    keyId: string(obj, 'keyId', path),
    name: string(obj, 'name', path),
    calls: number(obj, 'calls', path),
    lastUsedAt: optionalString(obj, 'lastUsedAt', path) ?? '',
  };
}

export function parseUsageByKey(value: unknown): UsageByKey {
  const obj = contractNames(object(value, ''), ['billingPeriod']);
  return {
    ...obj,
    billingPeriod: string(obj, 'billingPeriod', ''),
    keys: array(obj, 'keys', '').map((item, index) => parseKeyUsage(item, `keys[${index}]`)),
  };
}
