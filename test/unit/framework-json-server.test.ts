// The client against json-server (0.17), a fake REST API that nobody here shaped: a server
// written the way its README writes one (`create`, `defaults`, `router` over a database, the
// router mounted under `/v1`), records numbered with integer ids as json-server numbers them,
// the whole list sent as a bare array whatever `page` and `pageSize` say (issue 38). What is
// asserted is what a user relies on: the engagements listed with their ids as text, one read
// by that id, a rename sent to `/v1/engagements/<id>` and landed in json-server's database.
import assert from 'node:assert/strict';
import type { ApiError } from '../../src/api/errors';
import { ServiceApi } from '../../src/api/service';
import { isAccepted } from '../../src/api/types';
import { type JsonServer, jsonServerRows as rows, startJsonServer } from '../frameworks/jsonServer';

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

  it('an id beyond 2^53, which JSON cannot carry exactly, is said to be unreadable, never shown as another', async () => {
    await js.close();
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
