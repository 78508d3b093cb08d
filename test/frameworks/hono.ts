// A service built with Hono 4 the way Hono's documentation builds a CRUD API: sub-apps mounted
// with `app.route`, `bearerAuth` on the API, bodies checked by `zValidator` with zod schemas,
// `c.json` answers, and routes declared with a trailing slash. Hono's own `appendTrailingSlash`
// (`alwaysRedirect: true`) answers a GET without one with a 301 to the path with it; with
// `slashWrites`, writes are redirected the same way, as Django's APPEND_SLASH does for every
// method. With `routing: 'collections'` it is routed the other common way (FastAPI's and most
// routers' style): collection routes end in a slash (`/engagements/`), an item's and the usage
// endpoints do not (`/engagements/{id}`, `/usage/summary`); Hono's `trimTrailingSlash` sends a
// GET with a slash it has no route for to the path without, and `appendTrailingSlash`, used on
// the collection, sends `/engagements` to `/engagements/` (both GETs only; with `slashWrites`,
// writes are redirected too, with a 308 that keeps the method and body, as Starlette's
// `redirect_slashes` does for every method). With `corsOrigin`, Hono's `cors` middleware lets a
// page of that origin call the API (VS Code for the Web): with the headers the contract's
// requests use, or (`corsHeaders: 'djangoDefaults'`) only those django-cors-headers allows when
// left at its defaults, as many services are set up. By default the service tells no version of
// an engagement; with `validators` it sends an `ETag` or a `Last-Modified` with each engagement
// and refuses a PATCH whose `If-Match` or `If-Unmodified-Since` no longer holds (412), written
// by hand as Hono has no middleware for writes' preconditions. Nothing here is shaped for the
// client: the tests run the client against it as it is.
// Started on 127.0.0.1, port 0, by each test.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { zValidator } from '@hono/zod-validator';
import { Hono, type MiddlewareHandler } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { cors } from 'hono/cors';
import { appendTrailingSlash, trimTrailingSlash } from 'hono/trailing-slash';
import { z } from 'zod';
import type { FrameworkRow } from './jsonServer';

/** An engagement as the Hono service holds it: a string id. */
type Row = FrameworkRow<string>;

export interface HonoService {
  baseUrl: string;
  /** Every request it received, as `METHOD /path?query STATUS`. */
  requests: string[];
  /** The conditional headers of every PATCH it received, in order. */
  preconditions: Preconditions[];
  /** The engagements it holds now. */
  held(): Row[];
  close(): Promise<void>;
}

const createSchema = z.object({
  name: z.string().min(1).max(200),
  type: z.string().min(1),
  description: z.string().optional(),
});

const patchSchema = z.object({
  name: z.string().min(1).max(200).optional(),
  description: z.string().optional(),
  status: z.enum(['active', 'completed', 'archived']).optional(),
});

const pageSchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  billingPeriod: z.string().optional(),
});

function seed(count: number): Row[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `eng_${String(i + 1).padStart(3, '0')}`,
    name: `Engagement ${i + 1}`,
    type: i % 2 ? 'pilot' : 'evaluation',
    status: 'active',
    evaluationCount: i,
    createdAt: '2026-10-01T09:00:00.000Z',
    updatedAt: '2026-10-01T09:00:00.000Z',
  }));
}

/**
 * How a create answers: 201 with the engagement (the default); `seeOther`: Post/Redirect/Get,
 * a 303 to the engagement made; `moved`: a 307 to another address, nothing made.
 */
export type CreateAnswer = { kind: 'created' } | { kind: 'seeOther' } | { kind: 'moved'; to: string };

/** What the service tells of an engagement's version: nothing, an `ETag`, or a `Last-Modified`. */
export type Validators = 'none' | 'etag' | 'lastModified';

/**
 * The request headers django-cors-headers allows when `CORS_ALLOW_HEADERS` is left alone (its
 * `corsheaders.defaults.default_headers`, version 4): no `If-Match`, no `If-Unmodified-Since`.
 */
const DJANGO_CORS_DEFAULT_HEADERS = [
  'accept',
  'authorization',
  'content-type',
  'user-agent',
  'x-csrftoken',
  'x-requested-with',
];

/** The conditional headers of one PATCH as the service received them. */
export interface Preconditions {
  ifMatch?: string;
  ifUnmodifiedSince?: string;
}

/**
 * The version headers of a row, and whether a PATCH's conditions still hold for it: If-Match
 * against the ETag, else If-Unmodified-Since against Last-Modified (whole seconds), as HTTP
 * orders them; a condition this service never offered is ignored.
 */
function versionOf(row: Row, validators: Validators) {
  const etag = `"${row.id}-${Date.parse(row.updatedAt ?? '')}"`;
  const lastModified = new Date(row.updatedAt ?? 0).toUTCString();
  return {
    headers: (validators === 'etag'
      ? { ETag: etag }
      : validators === 'lastModified'
        ? { 'Last-Modified': lastModified }
        : {}) as Record<string, string>,
    holds: ({ ifMatch, ifUnmodifiedSince }: Preconditions) => {
      if (validators === 'etag' && ifMatch !== undefined)
        return ifMatch === '*' || ifMatch.split(/\s*,\s*/).includes(etag);
      if (validators === 'lastModified' && ifUnmodifiedSince !== undefined)
        return Date.parse(lastModified) <= Date.parse(ifUnmodifiedSince);
      return true;
    },
  };
}

/**
 * How routes end: `slashed`, every route with a trailing slash (the default); `collections`,
 * only the collection's (`/engagements/`), an item's and the usage endpoints without.
 */
export type Routing = 'slashed' | 'collections';

/** A route's path as this routing declares it: `item` routes lose their slash under `collections`. */
function routePath(routing: Routing, path: string, kind: 'collection' | 'item'): string {
  return routing === 'collections' && kind === 'item' ? path.replace(/\/$/, '') : path;
}

function engagementsApp(rows: Row[], answer: CreateAnswer, routing: Routing, validators: Validators) {
  const app = new Hono();
  const item = routePath(routing, '/engagements/:id/', 'item');
  app.get('/engagements/', zValidator('query', pageSchema), (c) => {
    const { page, pageSize } = c.req.valid('query');
    const data = rows.slice((page - 1) * pageSize, page * pageSize);
    return c.json({ data, page, pageSize, totalCount: rows.length });
  });
  app.get(item, (c) => {
    const row = rows.find((r) => r.id === c.req.param('id'));
    return row ? c.json(row, 200, versionOf(row, validators).headers) : c.json({ message: 'Not found' }, 404);
  });
  app.post('/engagements/', zValidator('json', createSchema), (c) => {
    if (answer.kind === 'moved') return c.redirect(answer.to, 307);
    const input = c.req.valid('json');
    const now = new Date().toISOString();
    const row: Row = {
      id: `eng_${String(rows.length + 1).padStart(3, '0')}`,
      ...input,
      status: 'active',
      evaluationCount: 0,
      createdAt: now,
      updatedAt: now,
    };
    rows.push(row);
    if (answer.kind === 'seeOther') return c.redirect(`/v1/engagements/${row.id}/`, 303);
    return c.json(row, 201, versionOf(row, validators).headers);
  });
  app.patch(item, zValidator('json', patchSchema), (c) => {
    const row = rows.find((r) => r.id === c.req.param('id'));
    if (!row) return c.json({ message: 'Not found' }, 404);
    const sent = { ifMatch: c.req.header('If-Match'), ifUnmodifiedSince: c.req.header('If-Unmodified-Since') };
    if (!versionOf(row, validators).holds(sent))
      return c.json({ message: 'The engagement was changed meanwhile' }, 412, versionOf(row, validators).headers);
    Object.assign(row, c.req.valid('json'), { updatedAt: new Date().toISOString() });
    return c.json(row, 200, versionOf(row, validators).headers);
  });
  return app;
}

function usageApp(routing: Routing) {
  const app = new Hono();
  const period = (asked?: string) => asked ?? '2026-10';
  app.get(routePath(routing, '/summary/', 'item'), zValidator('query', pageSchema), (c) =>
    c.json({
      billingPeriod: period(c.req.valid('query').billingPeriod),
      tier: 'growth',
      usage: {
        calls: { used: 12_500, included: 10_000, overage: 2_500 },
        webhooks: { used: 40, included: 1_000, overage: 0 },
        storage_gb: { used: 1.5, included: 5, overage: 0 },
      },
    }),
  );
  app.get(routePath(routing, '/by-key/', 'item'), zValidator('query', pageSchema), (c) =>
    c.json({
      billingPeriod: period(c.req.valid('query').billingPeriod),
      keys: [{ keyId: 'key_1', name: 'CI', calls: 12_500, lastUsedAt: '2026-10-20T10:00:00Z' }],
    }),
  );
  app.get(routePath(routing, '/details/', 'item'), zValidator('query', pageSchema), (c) => {
    const { page, pageSize } = c.req.valid('query');
    const all = Array.from({ length: 30 }, (_, i) => ({
      timestamp: `2026-10-${String((i % 28) + 1).padStart(2, '0')}T08:00:00Z`,
      endpoint: '/v1/engagements',
      calls: i + 1,
      keyId: 'key_1',
    }));
    return c.json({ data: all.slice((page - 1) * pageSize, page * pageSize), page, pageSize, totalCount: all.length });
  });
  return app;
}

/**
 * Under `collections` routing, a write to a path in its other form, after the routes found none
 * (404), is sent to that form with a 308, as Starlette's `redirect_slashes` does: the
 * collection gains its slash, anything else loses one.
 */
const redirectWrites: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.res.status !== 404) return;
  const url = new URL(c.req.url);
  if (url.pathname === '/v1/engagements') url.pathname += '/';
  else if (url.pathname.endsWith('/') && url.pathname !== '/v1/engagements/') url.pathname = url.pathname.slice(0, -1);
  else return;
  c.res = c.redirect(url.toString(), 308);
};

/** Starts the Hono service with `count` engagements; `token` is the one key it accepts. */
export async function startHonoService(options: {
  count?: number;
  token: string;
  slashWrites?: boolean;
  createAnswer?: CreateAnswer;
  /** Every GET of the usage summary answers 302 to this address (a service moved elsewhere). */
  summaryMovedTo?: string;
  /** A page of this origin may call the API (Hono's `cors` middleware), for VS Code for the Web. */
  corsOrigin?: string;
  /** Which routes end in a slash (default `slashed`: all of them). */
  routing?: Routing;
  /** The request headers `cors` allows: the contract's (the default), or django-cors-headers' defaults. */
  corsHeaders?: 'contract' | 'djangoDefaults';
  /** What it tells of an engagement's version (default `none`). */
  validators?: Validators;
}): Promise<HonoService> {
  const routing = options.routing ?? 'slashed';
  const preconditions: Preconditions[] = [];
  const rows = seed(options.count ?? 60);
  const requests: string[] = [];
  const app = new Hono();
  app.use(async (c, next) => {
    await next();
    const url = new URL(c.req.url);
    requests.push(`${c.req.method} ${url.pathname}${url.search} ${c.res.status}`);
    if (c.req.method === 'PATCH')
      preconditions.push({ ifMatch: c.req.header('If-Match'), ifUnmodifiedSince: c.req.header('If-Unmodified-Since') });
  });
  if (options.corsOrigin) {
    app.use(
      '/v1/*',
      cors({
        origin: options.corsOrigin,
        allowHeaders:
          options.corsHeaders === 'djangoDefaults'
            ? DJANGO_CORS_DEFAULT_HEADERS
            : ['Authorization', 'Content-Type', 'If-Match', 'If-Unmodified-Since'],
        allowMethods: ['GET', 'POST', 'PATCH'],
        exposeHeaders: ['ETag', 'Location'],
      }),
    );
  }
  if (options.slashWrites && routing === 'slashed') {
    app.use(async (c, next) => {
      if (c.req.method === 'GET' || c.req.path.endsWith('/')) return next();
      const url = new URL(c.req.url);
      url.pathname += '/';
      return c.redirect(url.toString(), 301);
    });
  }
  if (routing === 'slashed') app.use(appendTrailingSlash({ alwaysRedirect: true }));
  else {
    if (options.slashWrites) app.use(redirectWrites);
    app.use(trimTrailingSlash());
    app.use('/v1/engagements', appendTrailingSlash());
  }
  app.use('/v1/*', bearerAuth({ token: options.token }));
  if (options.summaryMovedTo) {
    const to = options.summaryMovedTo;
    app.get('/v1/usage/summary/', (c) => c.redirect(to, 302));
  }
  app.route(
    '/v1',
    engagementsApp(rows, options.createAnswer ?? { kind: 'created' }, routing, options.validators ?? 'none'),
  );
  app.route('/v1/usage', usageApp(routing));
  return { ...(await serveOnLoopback(app)), requests, preconditions, held: () => rows.map((row) => ({ ...row })) };
}

/** Serves a Hono app on 127.0.0.1, on a port the system picks: its `/v1` address and how to stop it. */
export async function serveOnLoopback(app: Hono): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
