// What the two paging Fastify services (fastifyOffset.ts, fastifyLinkHeader.ts) have alike, as
// one Fastify plugin each, written once: the engagement and record schemas of their snake_case
// rows, the routes of one engagement (read, create answered 201, PATCH, each schema-checked),
// and the usage summary and by-key as fixed answers in the contract's shape. Each service adds
// its own paged list and records routes, which are where they differ.
/* eslint-disable @typescript-eslint/require-await */
import Fastify, { type FastifyPluginAsync } from 'fastify';
import type { AddressInfo } from 'node:net';
import { PAGING_STATUSES, type SnakeEngagement, USAGE_PERIOD, usageByKey, usageSummary } from './pagingRows';

export const engagementSchema = {
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

export const recordSchema = {
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

export const periodProperty = { type: 'string', pattern: '^\\d{4}-\\d{2}$', default: USAGE_PERIOD } as const;
const idParams = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } as const;
const notFound = (what: string) => ({ statusCode: 404, error: 'Not Found', message: `${what} not found` });

/** Reading, creating and changing one engagement of `rows` (changed in place). */
export function engagementItemRoutes(rows: SnakeEngagement[]): FastifyPluginAsync {
  return async (app) => {
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

/** The usage summary and by-key of any period, fixed answers. */
export function usageTotalsRoutes(): FastifyPluginAsync {
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
  };
}

/** A paging service as the tests hold it: its address, every request it received, its rows. */
export interface PagingFastifyService {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /** Every request received, as `METHOD /path?query`. */
  requests: string[];
  /** The engagements it holds now (changed in place by its routes). */
  rows: SnakeEngagement[];
  close(): Promise<void>;
}

/**
 * Starts a paging service on 127.0.0.1 (a port the system picks): any bearer token taken, every
 * request noted, its engagement and usage plugins under `/v1`.
 */
export async function startPagingFastify(
  rows: SnakeEngagement[],
  plugins: FastifyPluginAsync[],
): Promise<PagingFastifyService> {
  const app = Fastify({ logger: false });
  const requests: string[] = [];
  app.addHook('onRequest', async (request, reply) => {
    requests.push(`${request.method} ${request.url}`);
    if (!request.headers.authorization?.startsWith('Bearer '))
      return reply.code(401).send({ statusCode: 401, error: 'Unauthorized', message: 'Missing bearer token' });
  });
  for (const plugin of plugins) await app.register(plugin, { prefix: '/v1' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, rows, close: () => app.close() };
}
