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
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { AddressInfo } from 'node:net';

/** An engagement row as the database holds it; a column an old row lacks is absent. */
export interface EngagementRow {
  id: number;
  name: string;
  description: string | null;
  type: string;
  status: string;
  evaluation_count?: number;
  created_at?: string;
  updated_at?: string;
}

export interface FastifyService {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /** Every request Fastify received, as `METHOD /path?query`. */
  requests: string[];
  /** The rows the service holds now (changed in place by its routes). */
  rows: EngagementRow[];
  close(): Promise<void>;
}

/** The engagement types this service takes: it decides them (the contract does not list them). */
export const FASTIFY_TYPES = ['evaluation', 'pilot', 'quality-review'] as const;
const STATUSES = ['active', 'completed', 'archived'];

export function engagementRows(count: number): EngagementRow[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `Engagement ${i + 1}`,
    description: i % 4 ? null : `Row ${i + 1} of the table`,
    type: FASTIFY_TYPES[i % FASTIFY_TYPES.length],
    status: i % 3 ? 'active' : 'completed',
    evaluation_count: i * 3,
    created_at: new Date(Date.UTC(2026, 8, 1, 9) + i * 60_000).toISOString(),
    updated_at: new Date(Date.UTC(2026, 9, 1, 9) + i * 60_000).toISOString(),
  }));
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

const pageQuery = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    billingPeriod: { type: 'string', pattern: '^\\d{4}-\\d{2}$' },
  },
} as const;

const idParams = {
  type: 'object',
  properties: { id: { type: 'integer' } },
  required: ['id'],
} as const;

interface PageQuery {
  page: number;
  pageSize: number;
  billingPeriod?: string;
}

function notFound(what: string) {
  return { statusCode: 404, error: 'Not Found', message: `${what} not found` };
}

/** The engagement routes: list (paged, with a total), read one, create, update. */
function engagementRoutes(rows: EngagementRow[], now: () => string): FastifyPluginAsync {
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
              type: { type: 'string', enum: FASTIFY_TYPES },
              description: { type: 'string', maxLength: 2000 },
            },
          },
          response: { 201: engagementSchema },
        },
      },
      async (request, reply) => {
        const at = now();
        const row: EngagementRow = {
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
              status: { type: 'string', enum: STATUSES },
            },
          },
          response: { 200: engagementSchema },
        },
      },
      async (request, reply) => {
        const row = rows.find((r) => r.id === request.params.id);
        if (!row) return reply.code(404).send(notFound('Engagement'));
        Object.assign(row, request.body, { updated_at: now() });
        return row;
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
export async function startFastifyService(
  rows: EngagementRow[],
  now: () => string = () => new Date().toISOString(),
): Promise<FastifyService> {
  const app: FastifyInstance = Fastify({ logger: false });
  const requests: string[] = [];
  app.addHook('onRequest', async (request, reply) => {
    requests.push(`${request.method} ${request.url}`);
    if (!request.headers.authorization?.startsWith('Bearer '))
      return reply.code(401).send({ statusCode: 401, error: 'Unauthorized', message: 'Missing bearer token' });
  });
  await app.register(engagementRoutes(rows, now), { prefix: '/v1' });
  await app.register(usageRoutes, { prefix: '/v1' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, rows, close: () => app.close() };
}
