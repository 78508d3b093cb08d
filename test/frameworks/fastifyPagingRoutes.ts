// What the two paging Fastify services (fastifyOffset.ts, fastifyLinkHeader.ts) have alike, as
// one Fastify plugin each, written once: the engagement and record schemas of their snake_case
// rows, the routes of one engagement (read, create answered 201, PATCH, each schema-checked),
// and the usage summary and by-key as fixed answers in the contract's shape. Each service adds
// its own paged list and records routes, which are where they differ.
/* eslint-disable @typescript-eslint/require-await */
import Fastify, { type FastifyPluginAsync } from 'fastify';
import type { AddressInfo } from 'node:net';
import {
  type EngagementRow,
  PAGING_STATUSES,
  type SnakeEngagement,
  USAGE_PERIOD,
  usageByKey,
  usageSummary,
} from './pagingRows';

/** An object schema of these properties, in this order (Fastify writes them so): text unless said otherwise. */
function columns(names: string[], kinds: { integer: string[]; nullable?: string[] }) {
  const typeOf = (name: string) =>
    kinds.integer.includes(name) ? 'integer' : kinds.nullable?.includes(name) ? ['string', 'null'] : 'string';
  return { type: 'object', properties: Object.fromEntries(names.map((name) => [name, { type: typeOf(name) }])) };
}

export const engagementSchema = columns(
  ['id', 'name', 'description', 'type', 'status', 'evaluation_count', 'created_at', 'updated_at'],
  { integer: ['id', 'evaluation_count'], nullable: ['description'] },
);

export const recordSchema = columns(['id', 'timestamp', 'key_id', 'endpoint', 'method', 'status_code', 'units'], {
  integer: ['id', 'status_code', 'units'],
});

export const periodProperty = { type: 'string', pattern: '^\\d{4}-\\d{2}$', default: USAGE_PERIOD } as const;
const idParams = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } as const;
const notFound = (what: string) => ({ statusCode: 404, error: 'Not Found', message: `${what} not found` });

export interface ItemRoutesOptions {
  /** The types a create takes; default any non-empty text. */
  types?: readonly string[];
  /** The time a create or a change is stamped with; default the real one. */
  now?: () => string;
}

/** Reading, creating and changing one engagement of `rows` (changed in place). */
export function engagementItemRoutes(rows: EngagementRow[], options: ItemRoutesOptions = {}): FastifyPluginAsync {
  const now = options.now ?? (() => new Date().toISOString());
  const typeSchema = options.types ? { type: 'string', enum: options.types } : { type: 'string', minLength: 1 };
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
              type: typeSchema,
              description: { type: 'string', maxLength: 2000 },
            },
          },
          response: { 201: engagementSchema },
        },
      },
      async (request, reply) => {
        const at = now();
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
        Object.assign(row, request.body, { updated_at: now() });
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

/** A Fastify service as the tests hold it: its address, every request it received, its rows. */
export interface PagingFastifyService<Row extends EngagementRow = SnakeEngagement> {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /** Every request received, as `METHOD /path?query`. */
  requests: string[];
  /** The engagements it holds now (changed in place by its routes). */
  rows: Row[];
  close(): Promise<void>;
}

/**
 * Starts a paging service on 127.0.0.1 (a port the system picks): any bearer token taken, every
 * request noted, its engagement and usage plugins under `/v1`.
 */
export async function startPagingFastify<Row extends EngagementRow>(
  rows: Row[],
  plugins: FastifyPluginAsync[],
): Promise<PagingFastifyService<Row>> {
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

/** A paging service: one engagement's routes and the usage totals, shared, and its own paged lists. */
export function startPagedLists(rows: SnakeEngagement[], lists: FastifyPluginAsync[]): Promise<PagingFastifyService> {
  return startPagingFastify(rows, [engagementItemRoutes(rows), usageTotalsRoutes(), ...lists]);
}
