// json-server 0.17, a fake REST API nobody here shaped, started the way its README starts one
// (`create`, `defaults`, `router` over a database) with the routers mounted under the service's
// prefix: the engagements at `/v1/engagements`, the usage under `/v1/usage` (`summary` and
// `by-key` as json-server's singular resources, `details` as a collection). It numbers records
// with integer ids and sends every collection whole, as a bare array, whatever `page` and
// `pageSize` say; it ignores keys. Used by the unit tests and by the e2e suite (issue 38).
// Started on 127.0.0.1, port 0.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// json-server 0.17 ships CommonJS without types: its README's three calls, typed beside this file.
import jsonServer from 'json-server';

/** An engagement with the contract's field names, its id of the type the framework gives (json-server: a number). */
export interface FrameworkRow<Id = number> {
  id: Id;
  name: string;
  type: string;
  status: string;
  evaluationCount: number;
  createdAt: string;
  updatedAt: string;
  description?: string;
}

/** An engagement as json-server holds it. */
export type JsonServerRow = FrameworkRow;

/** `count` engagements numbered from 1 (evaluation and pilot, every third one completed). */
export function jsonServerRows(count: number): JsonServerRow[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `Engagement ${i + 1}`,
    type: i % 2 ? 'pilot' : 'evaluation',
    status: i % 3 ? 'active' : 'completed',
    evaluationCount: i,
    createdAt: '2026-10-01T09:00:00Z',
    updatedAt: '2026-10-02T09:00:00Z',
  }));
}

export interface JsonServerDb {
  engagements?: object[];
  /** The usage detail records (`/v1/usage/details`). */
  details?: object[];
  /** `/v1/usage/summary`, one object. */
  summary?: object;
  /** `/v1/usage/by-key`, one object. */
  byKey?: object;
}

export interface JsonServer {
  baseUrl: string;
  /** Every request json-server received, as `METHOD /path?query`. */
  requests: string[];
  /** The engagements json-server holds now. */
  held(): JsonServerRow[];
  close(): Promise<void>;
}

export async function startJsonServer(db: JsonServerDb): Promise<JsonServer> {
  const app = jsonServer.create();
  const engagements = jsonServer.router({ engagements: db.engagements ?? [] });
  const usage: Record<string, unknown> = { details: db.details ?? [] };
  if (db.summary) usage.summary = db.summary;
  if (db.byKey) usage['by-key'] = db.byKey;
  const requests: string[] = [];
  app.use((req: { method: string; originalUrl: string }, _res: unknown, next: () => void) => {
    requests.push(`${req.method} ${req.originalUrl}`);
    next();
  });
  app.use(jsonServer.defaults({ logger: false }));
  app.use('/v1/usage', jsonServer.router(usage));
  app.use('/v1', engagements);
  const server: Server = await new Promise((resolve) => {
    const s: Server = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    held: () => (engagements.db.get('engagements').value() as JsonServerRow[]).map((row) => ({ ...row })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
