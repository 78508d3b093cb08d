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
// 127.0.0.1, port 0, by each test. Fastify's documentation writes handlers as async functions.
/* eslint-disable @typescript-eslint/require-await */
import Fastify, { type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AddressInfo } from 'node:net';
import {
  PAGING_STATUSES,
  type SnakeEngagement,
  type SnakeUsageRecord,
  USAGE_PERIOD,
  fromBase64Url,
  snakeEngagements,
  snakeUsageRecords,
  toBase64Url,
  usageByKey,
  usageSummary,
} from './pagingRows';

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

export interface FastifyLinkHeaderService {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /** Every request received, as `METHOD /path?query`. */
  requests: string[];
  /** The engagements it holds now (changed in place by its routes). */
  rows: SnakeEngagement[];
  close(): Promise<void>;
}

const engagementSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    type: { type: 'string' },
    status: { type: 'string' },
    evaluation_count: { type: 'integer' },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
  },
} as const;

const recordSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    timestamp: { type: 'string' },
    key_id: { type: 'string' },
    endpoint: { type: 'string' },
    method: { type: 'string' },
    status_code: { type: 'integer' },
    units: { type: 'integer' },
  },
} as const;

const periodProperty = { type: 'string', pattern: '^\\d{4}-\\d{2}$', default: USAGE_PERIOD } as const;
const idParams = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } as const;

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

const notFound = (what: string) => ({ statusCode: 404, error: 'Not Found', message: `${what} not found` });

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

    app.get<{ Params: { id: number } }>(
      '/engagements/:id',
      { schema: { params: idParams, response: { 200: engagementSchema } } },
      async (request, reply) => {
        const row = rows.find((r) => r.id === request.params.id);
        return row ?? reply.code(404).send(notFound('Engagement'));
      },
    );

    app.post<{ Body: { name: string; type: string; description?: string } }>(
      '/engagements',
      {
        schema: {
          body: {
            type: 'object',
            required: ['name', 'type'],
            additionalProperties: false,
            properties: {
              name: { type: 'string', minLength: 1, maxLength: 200 },
              type: { type: 'string', minLength: 1 },
              description: { type: 'string', maxLength: 2000 },
            },
          },
          response: { 201: engagementSchema },
        },
      },
      async (request, reply) => {
        const at = new Date().toISOString();
        const row: SnakeEngagement = {
          id: Math.max(0, ...rows.map((r) => r.id)) + 1,
          name: request.body.name,
          description: request.body.description ?? null,
          type: request.body.type,
          status: 'active',
          evaluation_count: 0,
          created_at: at,
          updated_at: at,
        };
        rows.push(row);
        return reply.code(201).send(row);
      },
    );

    app.patch<{ Params: { id: number }; Body: { name?: string; description?: string; status?: string } }>(
      '/engagements/:id',
      {
        schema: {
          params: idParams,
          body: {
            type: 'object',
            minProperties: 1,
            additionalProperties: false,
            properties: {
              name: { type: 'string', minLength: 1, maxLength: 200 },
              description: { type: 'string', maxLength: 2000 },
              status: { type: 'string', enum: PAGING_STATUSES },
            },
          },
          response: { 200: engagementSchema },
        },
      },
      async (request, reply) => {
        const row = rows.find((r) => r.id === request.params.id);
        if (!row) return reply.code(404).send(notFound('Engagement'));
        Object.assign(row, request.body, { updated_at: new Date().toISOString() });
        return row;
      },
    );
  };
}

function usageRoutes(records: SnakeUsageRecord[], paging: Paging): FastifyPluginAsync {
  return async (app) => {
    const periodQuery = {
      type: 'object',
      additionalProperties: false,
      properties: { billingPeriod: periodProperty },
    } as const;
    app.get<{ Querystring: { billingPeriod: string } }>(
      '/usage/summary',
      { schema: { querystring: periodQuery } },
      async (request) => usageSummary(request.query.billingPeriod),
    );
    app.get<{ Querystring: { billingPeriod: string } }>(
      '/usage/by-key',
      { schema: { querystring: periodQuery } },
      async (request) => usageByKey(request.query.billingPeriod),
    );
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
  const app = Fastify({ logger: false });
  const requests: string[] = [];
  app.addHook('onRequest', async (request, reply) => {
    requests.push(`${request.method} ${request.url}`);
    if (!request.headers.authorization?.startsWith('Bearer '))
      return reply.code(401).send({ statusCode: 401, error: 'Unauthorized', message: 'Missing bearer token' });
  });
  await app.register(engagementRoutes(rows, paging), { prefix: '/v1' });
  await app.register(usageRoutes(records, paging), { prefix: '/v1' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, rows, close: () => app.close() };
}
