// A service written with Fastify 5 that pages its lists with limit and offset and a `next` link
// in the body: the envelope Django REST framework's LimitOffsetPagination made common,
// `{count, next, previous, results}`, rewritten in Fastify's idiom (a plugin under `/v1`, a JSON
// schema for each route's querystring, params, body and response). `limit` defaults to 20 and
// may be at most 100, `offset` to 0. `next` and `previous` are absolute URLs built from the
// request's own protocol, host and query string, with `limit` and `offset` replaced (the first
// page's `previous` drops `offset`, as DRF does), and null at either end. The querystring
// schemas say `additionalProperties: false`, so Fastify's default Ajv set-up (removeAdditional)
// drops a parameter the route does not know, such as the `page` and `pageSize` the contract
// names, and the route answers its first page; the dropped parameter still rides along in the
// links, since they are made from the URL asked. A `limit` above the maximum is refused with
// Fastify's 400 (`FST_ERR_VALIDATION`), or, with `overMax: 'clamp'`, cut to the maximum as DRF's
// `max_limit` does. Rows are database rows: integer ids, snake_case columns. The usage detail
// records page the same way; the usage summary and by-key are fixed answers in the contract's
// shape. Any `Authorization: Bearer …` is taken. Started on 127.0.0.1, port 0, by each test.
// Fastify's documentation writes plugins, hooks and handlers as async functions.
/* eslint-disable @typescript-eslint/require-await */
import { type FastifyPluginAsync, type FastifyRequest } from 'fastify';
import {
  type SnakeEngagement,
  type SnakeUsageRecord,
  USAGE_PERIOD,
  snakeEngagements,
  snakeUsageRecords,
} from './pagingRows';
import type { PagingFastifyService } from './fastifyPagingRoutes';
import { engagementSchema, periodProperty, recordSchema, startPagedLists } from './fastifyPagingRoutes';

export interface FastifyOffsetOptions {
  /** How many engagements it holds at the start (numbered from 1). Default 45. */
  count?: number;
  /** The `limit` when none is asked. Default 20. */
  defaultLimit?: number;
  /** The largest `limit`. Default 100. */
  maxLimit?: number;
  /** A larger `limit`: `refuse` (400 from the schema, the default) or `clamp` to the maximum. */
  overMax?: 'refuse' | 'clamp';
  /** How many usage detail records period 2026-10 has (other periods have none). Default 300. */
  usageRecords?: number;
}

export type FastifyOffsetService = PagingFastifyService;

/** A page as DRF's LimitOffsetPagination answers it. */
export interface OffsetPage<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

const pageOf = (items: object) => ({
  type: 'object',
  properties: {
    count: { type: 'integer' },
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items },
  },
});

interface OffsetQuery {
  limit: number;
  offset: number;
  billingPeriod?: string;
}

interface Paging {
  defaultLimit: number;
  maxLimit: number;
  clamp: boolean;
}

/** The querystring schema of a paged route; `extra` adds the route's own parameters. */
function offsetQuerySchema(paging: Paging, extra: object = {}) {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      limit: {
        type: 'integer',
        minimum: 1,
        default: paging.defaultLimit,
        ...(paging.clamp ? {} : { maximum: paging.maxLimit }),
      },
      offset: { type: 'integer', minimum: 0, default: 0 },
      ...extra,
    },
  };
}

/** The URL asked, absolute, with `limit` set and `offset` set (or removed when undefined). */
function linkTo(request: FastifyRequest, limit: number, offset: number | undefined): string {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  url.searchParams.set('limit', String(limit));
  if (offset === undefined) url.searchParams.delete('offset');
  else url.searchParams.set('offset', String(offset));
  return url.toString();
}

/** One page of `all`, with the links DRF's LimitOffsetPagination would give. */
function offsetPage<T>(request: FastifyRequest, all: T[], query: OffsetQuery, paging: Paging): OffsetPage<T> {
  const limit = Math.min(query.limit, paging.maxLimit);
  const { offset } = query;
  const next = offset + limit < all.length ? linkTo(request, limit, offset + limit) : null;
  const previous = offset <= 0 ? null : linkTo(request, limit, offset - limit > 0 ? offset - limit : undefined);
  return { count: all.length, next, previous, results: all.slice(offset, offset + limit) };
}

function engagementRoutes(rows: SnakeEngagement[], paging: Paging): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: OffsetQuery }>(
      '/engagements',
      { schema: { querystring: offsetQuerySchema(paging), response: { 200: pageOf(engagementSchema) } } },
      async (request) => offsetPage(request, rows, request.query, paging),
    );
  };
}

function usageRoutes(records: SnakeUsageRecord[], paging: Paging): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: OffsetQuery & { billingPeriod: string } }>(
      '/usage/details',
      {
        schema: {
          querystring: offsetQuerySchema(paging, { billingPeriod: periodProperty }),
          response: { 200: pageOf(recordSchema) },
        },
      },
      async (request) => {
        const ofPeriod = request.query.billingPeriod === USAGE_PERIOD ? records : [];
        return offsetPage(request, ofPeriod, request.query, paging);
      },
    );
  };
}

/** Starts the limit/offset service on 127.0.0.1, on a port the system picks. */
export async function startFastifyOffsetService(options: FastifyOffsetOptions = {}): Promise<FastifyOffsetService> {
  const paging: Paging = {
    defaultLimit: options.defaultLimit ?? 20,
    maxLimit: options.maxLimit ?? 100,
    clamp: options.overMax === 'clamp',
  };
  const rows = snakeEngagements(options.count ?? 45);
  const records = snakeUsageRecords(options.usageRecords ?? 300);
  return startPagedLists(rows, [engagementRoutes(rows, paging), usageRoutes(records, paging)]);
}
