// The client against json-server (0.17), a fake REST API that nobody here shaped: a server
// written the way its README writes one (`create`, `defaults`, `router` over a database, the
// router mounted under `/v1`), records numbered with integer ids as json-server numbers them,
// the whole list sent as a bare array whatever `page` and `pageSize` say (issue 38). What is
// asserted is what a user relies on: the engagements listed with their ids as text, one read
// by that id, a rename sent to `/v1/engagements/<id>` and landed in json-server's database.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
// json-server 0.17 ships CommonJS without types: its README's three calls, typed here.
import jsonServer from 'json-server';
import type { ApiError } from '../../src/api/errors';
import { ServiceApi } from '../../src/api/service';
import { isAccepted } from '../../src/api/types';

interface Row {
  id: number;
  name: string;
  type: string;
  status: string;
  evaluationCount: number;
  createdAt: string;
  updatedAt: string;
  description?: string;
}

function rows(count: number): Row[] {
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

interface JsonServer {
  server: Server;
  baseUrl: string;
  /** Every request json-server received, as `METHOD /path?query`. */
  requests: string[];
  /** The engagements json-server holds now. */
  held(): Row[];
}

async function startJsonServer(db: { engagements: Row[] }): Promise<JsonServer> {
  const app = jsonServer.create();
  const router = jsonServer.router(db);
  const requests: string[] = [];
  app.use((req: { method: string; originalUrl: string }, _res: unknown, next: () => void) => {
    requests.push(`${req.method} ${req.originalUrl}`);
    next();
  });
  app.use(jsonServer.defaults({ logger: false }));
  app.use('/v1', router);
  const server: Server = await new Promise((resolve) => {
    const s: Server = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    held: () => (router.db.get('engagements').value() as Row[]).map((row) => ({ ...row })),
  };
}

describe('json-server: integer ids, the whole list at once (unit)', function () {
  this.timeout(20_000);
  let js: JsonServer;
  let api: ServiceApi;

  beforeEach(async () => {
    js = await startJsonServer({ engagements: rows(60) });
    api = new ServiceApi({ baseUrl: js.baseUrl, getKey: () => 'json-server-ignores-keys', timeoutMs: 5000 });
  });
  afterEach(async () => {
    await new Promise((resolve) => js.server.close(resolve));
  });

  it('lists every engagement with its id as decimal text, each once', async () => {
    const all = await api.engagements.listAll();
    assert.equal(all.items.length, 60);
    assert.deepEqual(
      all.items.slice(0, 3).map((e) => [e.id, e.name]),
      [
        ['1', 'Engagement 1'],
        ['2', 'Engagement 2'],
        ['3', 'Engagement 3'],
      ],
    );
    assert.ok(all.items.every((e) => typeof e.id === 'string'));
    assert.equal(new Set(all.items.map((e) => e.id)).size, 60, 'each once');
    // The first answer (60 where 1,000 were asked, no total) is also what a service capping its
    // pages at 60 sends; page 2 tells the two apart (the same rows again: json-server ignores
    // `page`). Nothing more is read.
    assert.deepEqual(js.requests, [
      'GET /v1/engagements?page=1&pageSize=1000',
      'GET /v1/engagements?page=2&pageSize=60',
    ]);
  });

  it('reads one engagement by the id it listed', async () => {
    const engagement = await api.engagements.get('42');
    assert.equal(engagement.id, '42');
    assert.equal(engagement.name, 'Engagement 42');
    assert.deepEqual(js.requests, ['GET /v1/engagements/42']);
  });

  it('a rename is one PATCH to /v1/engagements/<id>, and json-server holds the new name', async () => {
    const outcome = await api.engagements.update('7', { name: 'Renamed on json-server' });
    assert.ok(!isAccepted(outcome));
    assert.equal(outcome.engagement.id, '7');
    assert.equal(outcome.engagement.name, 'Renamed on json-server');
    assert.deepEqual(
      js.requests.filter((r) => !r.startsWith('GET')),
      ['PATCH /v1/engagements/7'],
    );
    assert.equal(js.held().find((row) => row.id === 7)?.name, 'Renamed on json-server');
  });

  it('an id beyond 2^53, which JSON cannot carry exactly, is said to be unreadable, never shown as another', async () => {
    await new Promise((resolve) => js.server.close(resolve));
    js = await startJsonServer({ engagements: [{ ...rows(1)[0], id: 2 ** 53 + 2 }] });
    api = new ServiceApi({ baseUrl: js.baseUrl, getKey: () => 'k', timeoutMs: 5000 });
    await assert.rejects(api.engagements.listAll(), (error: ApiError) => {
      assert.equal(error.kind, 'badResponse');
      // The log says which field and why; no id that JSON made up is shown or sent.
      assert.match(error.detail ?? '', /\[0\]\.id: expected an id JSON carries exactly/);
      return true;
    });
    assert.deepEqual(
      js.requests.filter((r) => !r.startsWith('GET /v1/engagements?')),
      [],
    );
  });
});
