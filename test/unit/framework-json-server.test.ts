// The client against json-server (0.17), a fake REST API that nobody here shaped: a server
// written the way its README writes one (`create`, `defaults`, `router` over a database, the
// router mounted under `/v1`), records numbered with integer ids as json-server numbers them,
// the whole list sent as a bare array whatever `page` and `pageSize` say (issue 38). What is
// asserted is what a user relies on: the engagements listed with their ids as text, one read
// by that id, a rename sent to `/v1/engagements/<id>` and landed in json-server's database.
import assert from 'node:assert/strict';
import type { RequestLog } from '../../src/api/client';
import { changedFields } from '../../src/api/engagements';
import { ServiceApi } from '../../src/api/service';
import { isAccepted } from '../../src/api/types';
import { EngagementStore } from '../../src/engagements/store';
import { type JsonServer, jsonServerRows as rows, startJsonServer } from '../frameworks/jsonServer';
import { loggingClient } from './support/clients';

describe('json-server: integer ids, the whole list at once (unit)', function () {
  this.timeout(20_000);
  let js: JsonServer;
  let api: ServiceApi;

  beforeEach(async () => {
    js = await startJsonServer({ engagements: rows(60) });
    api = new ServiceApi({ baseUrl: js.baseUrl, getKey: () => 'json-server-ignores-keys', timeoutMs: 5000 });
  });
  afterEach(async () => {
    await js.close();
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

  it('a row whose id is beyond 2^53, which JSON cannot carry exactly, is left out and counted, never shown as another', async () => {
    // Until issue 45 this failed the whole list; now only the row is left out (the others would
    // still be listed), and its id is neither shown nor sent.
    await js.close();
    js = await startJsonServer({ engagements: [{ ...rows(1)[0], id: 2 ** 53 + 2 }] });
    const logged: string[] = [];
    api = new ServiceApi({
      baseUrl: js.baseUrl,
      getKey: () => 'k',
      timeoutMs: 5000,
      onRequest: (entry) => logged.push(entry.unknownFields ?? ''),
    });
    const all = await api.engagements.listAll();
    assert.deepEqual(all.items, []);
    assert.equal(all.skipped, 1);
    // The log says which field and why.
    assert.match(logged.join('\n'), /\[0\]\.id: expected an id JSON carries exactly/);
    assert.deepEqual(
      js.requests.filter((r) => !r.startsWith('GET /v1/engagements?')),
      [],
    );
  });
});

// Issue 45, part 2: a row never sinks a list. json-server keeps a create exactly as it was sent
// (name, type, description: no status), and holds whatever rows it is given; the answers are
// read as the extension reads them, through the real client and the store.
describe('json-server: a create kept as sent, a row without an id (unit)', function () {
  this.timeout(20_000);
  let js: JsonServer;
  let api: ServiceApi;
  let store: EngagementStore;
  let logged: RequestLog[];

  const start = async (engagements: object[]) => {
    js = await startJsonServer({ engagements });
    ({ api, logged } = loggingClient(js.baseUrl, 'json-server-ignores-keys'));
    store = new EngagementStore({
      environmentId: () => 'json',
      api: () => api,
      hasKey: () => Promise.resolve(true),
      pageSize: () => 25,
    });
  };
  afterEach(async () => {
    store.dispose();
    await js.close();
  });

  it('a create json-server answers without a status is created, said once, and listed with its status unknown', async () => {
    await start(rows(3));
    await store.ensureLoaded();
    const outcome = await api.engagements.create({ name: 'Kept as sent', type: 'pilot' });
    assert.ok(!isAccepted(outcome));
    // The answer is the engagement: no read-back, no "may have been made".
    assert.equal(outcome.source, 'answer');
    assert.deepEqual(
      [outcome.engagement.id, outcome.engagement.name, outcome.engagement.type],
      ['4', 'Kept as sent', 'pilot'],
    );
    assert.equal(outcome.engagement.status, undefined, 'unknown, not made up');
    assert.deepEqual(
      js.requests.filter((r) => !r.startsWith('GET /v1/engagements?')),
      ['POST /v1/engagements'],
    );
    assert.equal(js.held().find((row) => row.id === 4)?.status, undefined, 'json-server holds it without one');

    // Every later list read: the new row with the others, the view not stuck on old data.
    await store.refresh();
    const snapshot = store.snapshot();
    assert.equal(snapshot.phase, 'loaded');
    assert.equal(snapshot.error, undefined);
    assert.deepEqual(
      snapshot.items.map((e) => [e.id, e.status]),
      [
        ['1', 'completed'],
        ['2', 'active'],
        ['3', 'active'],
        ['4', undefined],
      ],
    );
    assert.equal(snapshot.hasMore, false);
    assert.equal(snapshot.skipped, undefined, 'nothing left out');
    // The log names the field once for the answer.
    const list = logged.filter((entry) => entry.method === 'GET').at(-1);
    assert.match(
      list?.unknownFields ?? '',
      /^status unknown on 1 item \(first: \[3\]\.status: expected a string, got nothing\);/,
    );
  });

  it('an engagement json-server holds without a status opens by its id, and can be given one', async () => {
    const [kept] = rows(1).map(({ status: _status, ...row }) => row);
    await start([kept]);
    const engagement = await api.engagements.get('1');
    assert.deepEqual([engagement.id, engagement.name, engagement.status], ['1', 'Engagement 1', undefined]);
    // Any status is a change from an unknown one.
    const changes = changedFields(engagement, { status: 'active' });
    assert.deepEqual(changes, { status: 'active' });
    const outcome = await api.engagements.update('1', changes);
    assert.ok(!isAccepted(outcome));
    assert.equal(outcome.engagement.status, 'active');
    assert.equal(js.held()[0].status, 'active', 'json-server holds the status given');
  });

  it('a row without an id is left out and counted; the others are listed', async () => {
    const [first, second, third] = rows(3);
    const withoutId: Record<string, unknown> = { ...second };
    delete withoutId.id;
    await start([first, withoutId, third]);
    await store.ensureLoaded();
    const snapshot = store.snapshot();
    assert.equal(snapshot.phase, 'loaded');
    assert.equal(snapshot.error, undefined);
    assert.deepEqual(
      snapshot.items.map((e) => e.id),
      ['1', '3'],
    );
    assert.equal(snapshot.skipped, 1, 'the view says how many');
    assert.equal(snapshot.hasMore, false, 'the row left out is not one more to load');
    assert.equal(snapshot.stop, undefined, 'nor a sign that the service ended early');
    const list = logged.filter((entry) => entry.method === 'GET').at(-1);
    assert.match(
      list?.unknownFields ?? '',
      /^1 item without a usable id left out \(first: \[1\]\.id: expected .*got nothing\)$/,
    );
  });
});
