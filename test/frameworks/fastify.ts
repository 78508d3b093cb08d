// A service written with Fastify 5 the way Fastify's documentation writes a CRUD API: routes
// registered in a plugin under the `/v1` prefix, each with its JSON schema (`querystring`,
// `params`, `body`, `response`), so Fastify itself refuses what the schema does not take with
// its default 400 body `{statusCode, code: "FST_ERR_VALIDATION", error, message}`. The rows are
// held as an ORM would hand them over: integer ids and snake_case columns (`evaluation_count`,
// `created_at`, `updated_at`, `billing_period`, `key_id`, `last_used_at`). Nothing here is
// shaped for the client: it is just enough of the contract's endpoints in Fastify's idiom.
// Fastify's documentation writes plugins, hooks and handlers as async functions whose returned
// value is the reply, whether or not they await anything.
/* eslint-disable @typescript-eslint/require-await */
import type { FastifyPluginAsync } from 'fastify';
import {
  type PagingFastifyService,
  engagementItemRoutes,
  engagementSchema,
  startPagingFastify,
} from './fastifyPagingRoutes';
import { type EngagementRow, PAGING_TYPES, snakeEngagements } from './pagingRows';

export type { EngagementRow } from './pagingRows';
export type FastifyService = PagingFastifyService<EngagementRow>;

/** The engagement types this service takes: it decides them (the contract does not list them). */
export const FASTIFY_TYPES = PAGING_TYPES;

/** `count` rows as the paging services hold them, with three evaluations more on each. */
export function engagementRows(count: number): EngagementRow[] {
  return snakeEngagements(count, 3);
}

const pageQuery = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    billingPeriod: { type: 'string', pattern: '^\\d{4}-\\d{2}$' },
  },
} as const;

interface PageQuery {
  page: number;
  pageSize: number;
  billingPeriod?: string;
}

/** The engagement list: paged, with a total. */
function engagementList(rows: EngagementRow[]): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: PageQuery }>(
      '/engagements',
      {
        schema: {
          querystring: pageQuery,
          response: {
            200: {
              type: 'object',
              properties: {
                data: { type: 'array', items: engagementSchema },
                page: { type: 'integer' },
                page_size: { type: 'integer' },
                total: { type: 'integer' },
              },
            },
          },
        },
      },
      async (request) => {
        const { page, pageSize } = request.query;
        const start = (page - 1) * pageSize;
        return { data: rows.slice(start, start + pageSize), page, page_size: pageSize, total: rows.length };
      },
    );
  };
}

/** The usage routes: summary, by key and the paged detail records, in snake_case. */
const usageRoutes: FastifyPluginAsync = async (app) => {
  const meter = (used: number, included: number) => ({ used, included, overage: Math.max(0, used - included) });
  const periodOf = (query: { billingPeriod?: string }) => query.billingPeriod ?? '2026-10';

  app.get<{ Querystring: PageQuery }>('/usage/summary', { schema: { querystring: pageQuery } }, async (request) => ({
    billing_period: periodOf(request.query),
    tier: 'growth',
    usage: { calls: meter(82_000, 100_000), webhooks: meter(5_200, 5_000), storage_gb: meter(7.35, 10) },
  }));

  app.get<{ Querystring: PageQuery }>('/usage/by-key', { schema: { querystring: pageQuery } }, async (request) => ({
    billing_period: periodOf(request.query),
    keys: [
      { key_id: 'key_prod', name: 'Production', calls: 61_000, last_used_at: '2026-10-20T08:00:00.000Z' },
      { key_id: 'key_stage', name: 'Staging', calls: 21_000, last_used_at: '2026-10-19T17:30:00.000Z' },
    ],
  }));

  const records = Array.from({ length: 130 }, (_, i) => ({
    id: i + 1,
    key_id: i % 2 ? 'key_stage' : 'key_prod',
    endpoint: '/v1/engagements',
    calls: 10 + i,
    recorded_at: new Date(Date.UTC(2026, 9, 1) + i * 3_600_000).toISOString(),
  }));
  app.get<{ Querystring: PageQuery }>('/usage/details', { schema: { querystring: pageQuery } }, async (request) => {
    const { page, pageSize } = request.query;
    const start = (page - 1) * pageSize;
    return { data: records.slice(start, start + pageSize), page, page_size: pageSize, total: records.length };
  });
};

/** Starts the service on 127.0.0.1, on a port the system picks. */
export function startFastifyService(
  rows: EngagementRow[],
  now: () => string = () => new Date().toISOString(),
): Promise<FastifyService> {
  return startPagingFastify(rows, [
    engagementList(rows),
    engagementItemRoutes(rows, { types: FASTIFY_TYPES, now }),
    usageRoutes,
  ]);
}
