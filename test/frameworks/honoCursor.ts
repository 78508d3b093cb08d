// A service built with Hono 4 (on @hono/node-server) that pages with a cursor and never counts
// the whole list, in one of two styles real APIs use, chosen by `style`:
// - `stripe` (the default), Stripe's list objects: `{object: 'list', data, has_more, url}`,
//   newest first, asked with `limit` (default 10, at most 100), `starting_after=<id of the last
//   item seen>` for the next page or `ending_before=<id of the first>` for the one before. An id
//   it does not hold, or a limit out of range, is a 400 in Stripe's error shape
//   (`{error: {type: 'invalid_request_error', code?, param, message}}`), and a create answers 200,
//   as Stripe's do.
// - `token`, the keyset cursor many JSON APIs hand out: `{items, next_cursor}`, oldest first,
//   asked with `limit` (default 20, at most 100) and `cursor=<next_cursor>`, where the cursor is
//   an opaque base64url token (not an id) and `next_cursor` is null on the last page. A cursor it
//   did not make is a 400 `{error: 'invalid_cursor', message}`, a limit out of range is the
//   zod-validator's own 400 (`{success: false, error}`), a create answers 201.
// Hono's idiom otherwise: sub-apps mounted with `app.route`, `bearerAuth` on `/v1/*` (any token,
// or only `token` when given), queries and bodies checked by `zValidator` with zod schemas (zod
// drops a query parameter the schema does not name, so the `page` and `pageSize` the contract
// names are ignored and the first page answered), `c.json` answers. Rows have string ids
// (`eng_0001`, usage records `ur_00001`) and the contract's camelCase names. Usage detail records
// page the same way as engagements; the usage summary and by-key are fixed answers in the
// contract's shape. Started on 127.0.0.1, port 0, by each test.
import { zValidator } from '@hono/zod-validator';
import { type Context, Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { z } from 'zod';
import { serveOnLoopback } from './hono';
import {
  type CamelEngagement,
  type CamelUsageRecord,
  PAGING_STATUSES,
  USAGE_PERIOD,
  camelEngagementId,
  camelEngagements,
  camelUsageRecords,
  fromBase64Url,
  toBase64Url,
  usageByKey,
  usageSummary,
} from './pagingRows';

export type HonoCursorStyle = 'stripe' | 'token';

export interface HonoCursorOptions {
  /** `stripe` (default): `{object, data, has_more, url}` with `starting_after`; `token`: `{items, next_cursor}` with `cursor`. */
  style?: HonoCursorStyle;
  /** How many engagements it holds at the start (`eng_0001`…). Default 45. */
  count?: number;
  /** The `limit` when none is asked. Default 10 (`stripe`) or 20 (`token`). */
  defaultLimit?: number;
  /** The largest `limit`; a larger one is refused with a 400. Default 100. */
  maxLimit?: number;
  /** The one bearer token taken; any is taken when absent. */
  token?: string;
  /** How many usage detail records period 2026-10 has (other periods have none). Default 300. */
  usageRecords?: number;
}

export interface HonoCursorService {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /** Every request received, as `METHOD /path?query`. */
  requests: string[];
  /** The engagements it holds now, oldest first (changed in place by its routes). */
  rows: CamelEngagement[];
  close(): Promise<void>;
}

/** A Stripe list object. */
export interface StripeList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

/** A page of the token style. */
export interface TokenPage<T> {
  items: T[];
  next_cursor: string | null;
}

interface Paging {
  style: HonoCursorStyle;
  defaultLimit: number;
  maxLimit: number;
}

const periodSchema = z
  .string()
  .regex(/^\d{4}-\d{2}$/)
  .default(USAGE_PERIOD);

function listQuerySchema(paging: Paging) {
  return z.object({
    limit: z.coerce.number().int().min(1).max(paging.maxLimit).default(paging.defaultLimit),
    starting_after: z.string().min(1).optional(),
    ending_before: z.string().min(1).optional(),
    cursor: z.string().min(1).optional(),
    billingPeriod: periodSchema,
  });
}
type ListQuery = z.infer<ReturnType<typeof listQuerySchema>>;

const createSchema = z.object({
  name: z.string().min(1).max(200),
  type: z.string().min(1),
  description: z.string().max(2000).optional(),
});

const patchSchema = z.object({
  name: z.string().min(1).max(200).optional(),
  description: z.string().max(2000).optional(),
  status: z.enum(PAGING_STATUSES).optional(),
});

/** What a list answers: its body and status. */
type Answer = { status: 200; body: object } | { status: 400 | 404; body: object };

const stripeError = (param: string, message: string, code?: string) => ({
  error: { type: 'invalid_request_error', ...(code ? { code } : {}), param, message },
});

/** One Stripe list page of `all` (already newest first). */
function stripePage(all: { id: string }[], query: ListQuery, url: string, noun: string): Answer {
  const { limit, starting_after: after, ending_before: before } = query;
  const indexOf = (id: string) => all.findIndex((item) => item.id === id);
  if (after !== undefined) {
    const i = indexOf(after);
    if (i < 0)
      return { status: 400, body: stripeError('starting_after', `No such ${noun}: '${after}'`, 'resource_missing') };
    const data = all.slice(i + 1, i + 1 + limit);
    return { status: 200, body: { object: 'list', data, has_more: i + 1 + limit < all.length, url } };
  }
  if (before !== undefined) {
    const i = indexOf(before);
    if (i < 0)
      return { status: 400, body: stripeError('ending_before', `No such ${noun}: '${before}'`, 'resource_missing') };
    const start = Math.max(0, i - limit);
    return { status: 200, body: { object: 'list', data: all.slice(start, i), has_more: start > 0, url } };
  }
  return { status: 200, body: { object: 'list', data: all.slice(0, limit), has_more: limit < all.length, url } };
}

/** The opaque token for "after the item with this id". */
const cursorAfter = (id: string) => toBase64Url(JSON.stringify({ v: 1, k: id }));

function idOfCursor(token: string): string | undefined {
  try {
    const parsed = JSON.parse(fromBase64Url(token) ?? '') as { v?: unknown; k?: unknown };
    return parsed.v === 1 && typeof parsed.k === 'string' ? parsed.k : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One keyset page of `all` (oldest first): the items after the cursor's, in the order the rows
 * were made (as a keyset on an auto-increment column reads; ids past `eng_9999` do not sort as text).
 */
function tokenPage(all: { id: string }[], query: ListQuery): Answer {
  let rest = all;
  if (query.cursor !== undefined) {
    const after = idOfCursor(query.cursor);
    if (after === undefined)
      return { status: 400, body: { error: 'invalid_cursor', message: 'The cursor is not one this service made' } };
    const at = all.findIndex((item) => item.id === after);
    if (at < 0) return { status: 400, body: { error: 'invalid_cursor', message: 'The cursor names no row' } };
    rest = all.slice(at + 1);
  }
  const items = rest.slice(0, query.limit);
  const next_cursor = rest.length > query.limit ? cursorAfter(items[items.length - 1].id) : null;
  return { status: 200, body: { items, next_cursor } };
}

function listAnswer(paging: Paging, oldestFirst: { id: string }[], query: ListQuery, url: string, noun: string) {
  return paging.style === 'stripe'
    ? stripePage([...oldestFirst].reverse(), query, url, noun)
    : tokenPage(oldestFirst, query);
}

/** The answer when a query or body is refused: Stripe's error shape, or the validator's own. */
function refusedHook(paging: Paging) {
  return (
    result: { success: boolean; error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } },
    c: Context,
  ) => {
    if (result.success || paging.style !== 'stripe' || !result.error) return undefined;
    const issue = result.error.issues[0];
    return c.json(stripeError(issue.path.map(String).join('.'), issue.message), 400);
  };
}

function notFound(paging: Paging, id: string) {
  return paging.style === 'stripe'
    ? stripeError('id', `No such engagement: '${id}'`, 'resource_missing')
    : { error: 'not_found', message: `Engagement ${id} not found` };
}

function engagementsApp(rows: CamelEngagement[], paging: Paging) {
  const app = new Hono();
  const refused = refusedHook(paging);
  app.get('/', zValidator('query', listQuerySchema(paging), refused), (c) => {
    const answer = listAnswer(paging, rows, c.req.valid('query'), '/v1/engagements', 'engagement');
    return c.json(answer.body, answer.status);
  });
  app.get('/:id', (c) => {
    const row = rows.find((r) => r.id === c.req.param('id'));
    return row ? c.json(row) : c.json(notFound(paging, c.req.param('id')), 404);
  });
  app.post('/', zValidator('json', createSchema, refused), (c) => {
    const now = new Date().toISOString();
    const row: CamelEngagement = {
      id: camelEngagementId(rows.length + 1),
      ...c.req.valid('json'),
      status: 'active',
      evaluationCount: 0,
      createdAt: now,
      updatedAt: now,
    };
    rows.push(row);
    return c.json(row, paging.style === 'stripe' ? 200 : 201);
  });
  app.patch('/:id', zValidator('json', patchSchema, refused), (c) => {
    const row = rows.find((r) => r.id === c.req.param('id'));
    if (!row) return c.json(notFound(paging, c.req.param('id')), 404);
    Object.assign(row, c.req.valid('json'), { updatedAt: new Date().toISOString() });
    return c.json(row);
  });
  return app;
}

function usageApp(records: CamelUsageRecord[], paging: Paging) {
  const app = new Hono();
  const refused = refusedHook(paging);
  const periodQuery = z.object({ billingPeriod: periodSchema });
  app.get('/summary', zValidator('query', periodQuery, refused), (c) =>
    c.json(usageSummary(c.req.valid('query').billingPeriod)),
  );
  app.get('/by-key', zValidator('query', periodQuery, refused), (c) =>
    c.json(usageByKey(c.req.valid('query').billingPeriod)),
  );
  app.get('/details', zValidator('query', listQuerySchema(paging), refused), (c) => {
    const query = c.req.valid('query');
    const ofPeriod = query.billingPeriod === USAGE_PERIOD ? records : [];
    const answer = listAnswer(paging, ofPeriod, query, '/v1/usage/details', 'usage record');
    return c.json(answer.body, answer.status);
  });
  return app;
}

/** Starts the cursor-paged Hono service on 127.0.0.1, on a port the system picks. */
export async function startHonoCursorService(options: HonoCursorOptions = {}): Promise<HonoCursorService> {
  const style = options.style ?? 'stripe';
  const paging: Paging = {
    style,
    defaultLimit: options.defaultLimit ?? (style === 'stripe' ? 10 : 20),
    maxLimit: options.maxLimit ?? 100,
  };
  const rows = camelEngagements(options.count ?? 45);
  const records = camelUsageRecords(options.usageRecords ?? 300);
  const requests: string[] = [];
  const app = new Hono();
  app.use(async (c, next) => {
    const url = new URL(c.req.url);
    requests.push(`${c.req.method} ${url.pathname}${url.search}`);
    await next();
  });
  const { token } = options;
  app.use('/v1/*', token ? bearerAuth({ token }) : bearerAuth({ verifyToken: () => true }));
  app.route('/v1/engagements', engagementsApp(rows, paging));
  app.route('/v1/usage', usageApp(records, paging));
  return { ...(await serveOnLoopback(app)), requests, rows };
}
