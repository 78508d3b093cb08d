// A service written with Fastify 5 that pages the way GitHub's REST API does: a list answers a
// bare JSON array, and where the rest is says the `Link` header (RFC 8288), e.g.
// `<http://host/v1/engagements?page=2&per_page=30>; rel="next", <…?page=4&per_page=30>; rel="last"`,
// with `prev` and `first` from the second page on, the rels in GitHub's order (prev, next,
// last, first), and no header at all when everything fits on one page. The query is GitHub's:
// `per_page` (default 30, at most 100; more is cut to 100 as GitHub does, or refused with
// Fastify's 400 with `overMax: 'refuse'`) and `page` (from 1); a page past the end is an empty
// array. The links are the URL asked, made absolute from the request's protocol and host, with
// `page` and `per_page` put last. With `total`, it also sends `X-Total-Count`, the count
// json-server and several Express pagination middlewares send. With `links: 'cursor'` it pages
// as GitHub's cursor-paged endpoints do: the links carry an opaque `after=<token>` (next) or
// `before=<token>` (prev), `page` is not a parameter, and there is no `last` link. Fastify's
// idiom otherwise: a plugin under `/v1`, JSON schemas whose `additionalProperties: false` makes
// Fastify's default Ajv set-up (removeAdditional) drop what the route does not know (such as the
// contract's `pageSize`; `page` is honoured in page mode), integer ids and snake_case columns as
// an ORM hands rows over. Usage detail records page the same way; the usage summary and by-key
// are fixed answers in the contract's shape. Any `Authorization: Bearer …` is taken. Started on
// 127.0.0.1, port 0, by each test. Fastify's documentation writes plugins, hooks and handlers as
// async functions.
/* eslint-disable @typescript-eslint/require-await */
import { type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  type SnakeEngagement,
  type SnakeUsageRecord,
  USAGE_PERIOD,
  fromBase64Url,
  snakeEngagements,
  snakeUsageRecords,
  toBase64Url,
} from './pagingRows';
import type { PagingFastifyService } from './fastifyPagingRoutes';
import { engagementSchema, periodProperty, recordSchema, startPagedLists } from './fastifyPagingRoutes';

export interface FastifyLinkHeaderOptions {
  /** How many engagements it holds at the start (numbered from 1). Default 95. */
  count?: number;
  /** The `per_page` when none is asked. Default 30. */
  defaultPerPage?: number;
  /** The largest `per_page`. Default 100. */
  maxPerPage?: number;
  /** A larger `per_page`: `clamp` to the maximum (GitHub, the default) or `refuse` (400 from the schema). */
  overMax?: 'clamp' | 'refuse';
  /** Also send `X-Total-Count: <all items>` on every list. */
  total?: boolean;
  /** `page` (default): links by page number; `cursor`: links with opaque `after`/`before` tokens, no `last`. */
  links?: 'page' | 'cursor';
  /** How many usage detail records period 2026-10 has (other periods have none). Default 300. */
  usageRecords?: number;
}

export type FastifyLinkHeaderService = PagingFastifyService;

interface ListQuery {
  per_page: number;
  page?: number;
  after?: string;
  before?: string;
  billingPeriod?: string;
}

interface Paging {
  defaultPerPage: number;
  maxPerPage: number;
  clamp: boolean;
  total: boolean;
  cursor: boolean;
}

/** The querystring schema of a list route; `extra` adds the route's own parameters. */
function listQuerySchema(paging: Paging, extra: object = {}) {
  const perPage = {
    type: 'integer',
    minimum: 1,
    default: paging.defaultPerPage,
    ...(paging.clamp ? {} : { maximum: paging.maxPerPage }),
  };
  const position = paging.cursor
    ? { after: { type: 'string', minLength: 1 }, before: { type: 'string', minLength: 1 } }
    : { page: { type: 'integer', minimum: 1, default: 1 } };
  return { type: 'object', additionalProperties: false, properties: { per_page: perPage, ...position, ...extra } };
}

/** The URL asked, absolute, with the paging parameters replaced by `set` (in that order, last). */
function linkTo(request: FastifyRequest, set: Record<string, string>): string {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  for (const name of ['page', 'per_page', 'after', 'before']) url.searchParams.delete(name);
  for (const [name, value] of Object.entries(set)) url.searchParams.append(name, value);
  return url.toString();
}

const linkHeader = (links: [string, string][]) => links.map(([rel, url]) => `<${url}>; rel="${rel}"`).join(', ');

/** An opaque token for the position of the item with this id (GitHub's look like this too). */
const cursorFor = (id: number) => toBase64Url(`cursor:v1:${id}`);

function idOfCursor(token: string): number | undefined {
  const match = /^cursor:v1:(\d+)$/.exec(fromBase64Url(token) ?? '');
  return match ? Number(match[1]) : undefined;
}

class BadCursor extends Error {}

/** One page of `all` by page number, with GitHub's links. */
function byPage<T>(request: FastifyRequest, all: T[], perPage: number, page: number) {
  const lastPage = Math.max(1, Math.ceil(all.length / perPage));
  const link = (n: number) => linkTo(request, { page: String(n), per_page: String(perPage) });
  const links: [string, string][] = [];
  if (page > 1) links.push(['prev', link(page - 1)]);
  if (page < lastPage) links.push(['next', link(page + 1)], ['last', link(lastPage)]);
  if (page > 1) links.push(['first', link(1)]);
  return { items: all.slice((page - 1) * perPage, page * perPage), links };
}

/** One page of `all` after or before a cursor, with links carrying cursors and no `last`. */
function byCursor<T extends { id: number }>(request: FastifyRequest, all: T[], perPage: number, query: ListQuery) {
  const indexOf = (token: string) => {
    const id = idOfCursor(token);
    const index = all.findIndex((item) => item.id === id);
    if (index < 0) throw new BadCursor(`The cursor '${token}' is not valid`);
    return index;
  };
  let start = 0;
  if (query.after !== undefined) start = indexOf(query.after) + 1;
  else if (query.before !== undefined) start = Math.max(0, indexOf(query.before) - perPage);
  const end = query.before === undefined ? start + perPage : indexOf(query.before);
  const items = all.slice(start, end);
  const link = (set: Record<string, string>) => linkTo(request, { per_page: String(perPage), ...set });
  const links: [string, string][] = [];
  if (start > 0 && items.length) links.push(['prev', link({ before: cursorFor(items[0].id) })]);
  if (end < all.length && items.length) links.push(['next', link({ after: cursorFor(items[items.length - 1].id) })]);
  if (start > 0) links.push(['first', link({})]);
  return { items, links };
}

/** Answers one page of `all` as a bare array, with `Link` (and `X-Total-Count` when asked). */
function listReply<T extends { id: number }>(
  request: FastifyRequest<{ Querystring: ListQuery }>,
  reply: FastifyReply,
  all: T[],
  paging: Paging,
) {
  const perPage = Math.min(request.query.per_page, paging.maxPerPage);
  let page: { items: T[]; links: [string, string][] };
  try {
    page = paging.cursor
      ? byCursor(request, all, perPage, request.query)
      : byPage(request, all, perPage, request.query.page ?? 1);
  } catch (error) {
    if (!(error instanceof BadCursor)) throw error;
    return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: error.message });
  }
  if (page.links.length) void reply.header('link', linkHeader(page.links));
  if (paging.total) void reply.header('x-total-count', String(all.length));
  return page.items;
}

function engagementRoutes(rows: SnakeEngagement[], paging: Paging): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: ListQuery }>(
      '/engagements',
      {
        schema: {
          querystring: listQuerySchema(paging),
          response: { 200: { type: 'array', items: engagementSchema } },
        },
      },
      async (request, reply) => listReply(request, reply, rows, paging),
    );
  };
}

function usageRoutes(records: SnakeUsageRecord[], paging: Paging): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: ListQuery }>(
      '/usage/details',
      {
        schema: {
          querystring: listQuerySchema(paging, { billingPeriod: periodProperty }),
          response: { 200: { type: 'array', items: recordSchema } },
        },
      },
      async (request, reply) =>
        listReply(request, reply, request.query.billingPeriod === USAGE_PERIOD ? records : [], paging),
    );
  };
}

/** Starts the Link-header service on 127.0.0.1, on a port the system picks. */
export async function startFastifyLinkHeaderService(
  options: FastifyLinkHeaderOptions = {},
): Promise<FastifyLinkHeaderService> {
  const paging: Paging = {
    defaultPerPage: options.defaultPerPage ?? 30,
    maxPerPage: options.maxPerPage ?? 100,
    clamp: options.overMax !== 'refuse',
    total: options.total ?? false,
    cursor: options.links === 'cursor',
  };
  const rows = snakeEngagements(options.count ?? 95);
  const records = snakeUsageRecords(options.usageRecords ?? 300);
  return startPagedLists(rows, [engagementRoutes(rows, paging), usageRoutes(records, paging)]);
}
