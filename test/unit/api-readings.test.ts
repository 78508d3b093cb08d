// The client against what real services do beyond the named readings of the contract: paging
// that follows what the service does (a repeated page, a total that changes, bare arrays,
// fields under `meta`) and writes whose answers name no engagement or whose outcome is unknown.
// Every named reading (test/service/readings.ts) × every road is one table: test/unit/readings.test.ts.
import assert from 'node:assert/strict';
import { createClock } from '@sinonjs/fake-timers';
import { ServiceApi } from '../../src/api/service';
import { rejectsWith } from './support/apiErrors';
import { closedPort, startLoopbackServer } from './support/loopback';
import { useReferenceService } from './support/referenceService';
import { until } from './support/until';
import { done } from './support/writes';

const TOTAL = 137;

describe('paging that follows the service', function () {
  const reference = useReferenceService();
  const service = reference.service;
  let api: ServiceApi;
  beforeEach(() => {
    service.store.seedEngagements(TOTAL);
    api = reference.api();
  });

  it('a service that says it answered the page asked for but repeats the first: stops, nothing twice', async () => {
    const first = service.store.engagements.slice(0, 25);
    service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      transform: (_body, query) => ({ data: first, page: Number(query.page ?? 1), pageSize: 25, totalCount: TOTAL }),
    });
    const all = await api.engagements.listAll({ pageSize: 25 });
    assert.equal(all.items.length, 25);
    assert.equal(all.stop, 'repeatsPages');
  });

  it('a total that grows while reading: the extra pages are read too', async () => {
    let calls = 0;
    service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      transform: (body) => {
        calls++;
        // After the first page, the service reports 30 more than it had.
        if (calls === 2) service.store.seedEngagements(TOTAL + 30);
        return body;
      },
    });
    const all = await api.engagements.listAll({ pageSize: 50, concurrency: 1 });
    assert.equal(new Set(all.items.map((e) => e.id)).size, all.items.length);
    assert.ok(all.items.length >= TOTAL, `${all.items.length} read`);
    assert.ok(all.requests <= 10);
  });

  it('a total that shrinks: stops at the last item, no endless reading', async () => {
    service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      times: 1,
      transform: (body) => ({ ...(body as object), totalCount: 500 }),
    });
    const all = await api.engagements.listAll({ pageSize: 50 });
    assert.equal(all.items.length, TOTAL);
    assert.ok(all.requests <= 12, `${all.requests} requests`);
  });

  it('a bare array for the engagement list: read page by page until a short page', async () => {
    service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      transform: (body) => (body as { data: unknown[] }).data,
    });
    const all = await api.engagements.listAll({ pageSize: 50 });
    assert.equal(all.items.length, TOTAL);
    assert.deepEqual(
      all.items.map((e) => e.id),
      service.store.engagements.map((e) => e.id),
    );
  });

  it('the size a service took is kept across clients sharing the memory (another environment, a new key), per base URL', async () => {
    const listSizes = new Map<string, number>();
    const client = () =>
      new ServiceApi({ baseUrl: service.baseUrl, getKey: () => service.keys.admin, retryLimit: 0, listSizes });
    const sizesAsked = () => service.requests.map((r) => `${r.status} ${r.query.pageSize}`);
    await client().engagements.listAll();
    assert.deepEqual(sizesAsked(), ['400 1000', '200 100', '200 100']);
    service.clearRequests();
    await client().engagements.listAll();
    assert.deepEqual(sizesAsked(), ['200 100', '200 100'], 'no size asked that this service refused');
    service.clearRequests();
    // A client of its own remembers nothing of the others.
    await new ServiceApi({
      baseUrl: service.baseUrl,
      getKey: () => service.keys.admin,
      retryLimit: 0,
    }).engagements.listAll();
    assert.deepEqual(sizesAsked(), ['400 1000', '200 100', '200 100']);
    assert.deepEqual([...listSizes.keys()], [service.baseUrl.replace(/\/+$/, '')]);
  });

  it('a bare array from a service that puts at most 100 on a page, asked for 1,000: reads on past the short first page', async () => {
    service.setReading({ pageSizeCap: 100 });
    service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      transform: (body) => (body as { data: unknown[] }).data,
    });
    try {
      const all = await api.engagements.listAll();
      assert.equal(all.items.length, TOTAL, 'not only the first 100');
      assert.equal(all.stop, undefined);
      const asked = service.requests.map((r) => `${r.query.page}×${r.query.pageSize}`);
      assert.deepEqual(asked, ['1×1000', '2×100']);
    } finally {
      service.setReading({});
    }
  });

  it('a bare array shorter than the size asked and nothing after it: one more request, then done', async () => {
    service.store.seedEngagements(7);
    service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      transform: (body) => (body as { data: unknown[] }).data,
    });
    const all = await api.engagements.listAll();
    assert.equal(all.items.length, 7);
    assert.equal(all.totalCount, 7);
    assert.equal(all.stop, undefined);
    assert.deepEqual(
      service.requests.map((r) => `${r.status} ${r.query.page}×${r.query.pageSize}`),
      ['400 1×1000', '200 1×100', '200 2×7'],
    );
  });

  it('paging fields under `meta`', async () => {
    service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      transform: (body) => {
        const { data, ...meta } = body as { data: unknown[] };
        return { data, meta };
      },
    });
    const all = await api.engagements.listAll({ pageSize: 40 });
    assert.equal(all.items.length, TOTAL);
  });
});

describe('writes whose answers name no engagement, and writes whose outcome is unknown', function () {
  /** The service's latency is timed by this clock, which only the tests move. */
  const clock = createClock();
  const reference = useReferenceService({ timers: clock });
  const service = reference.service;
  let api: ServiceApi;
  beforeEach(() => (api = reference.api({ timeoutMs: 600, retryLimit: 0 })));

  it('a Location on another origin is never followed: the key goes nowhere else', async () => {
    const other = await startLoopbackServer();
    try {
      service.setReading({ writes: 'location' });
      for (const location of [
        `${other.origin}/v1/engagements/x`,
        `//127.0.0.1:${other.port}/v1/engagements/x`,
        '/v2/engagements/x',
        '/v1/other/x',
      ]) {
        service.faults.add({
          method: 'POST',
          kind: 'status',
          status: 201,
          body: '',
          headers: { Location: location },
          times: 1,
        });
        // Ours answers 201 with no body: nothing names an engagement, so none is made… and none found.
        await rejectsWith(api.engagements.create({ name: `Lost ${location}`, type: 'x' }), 'badResponse');
      }
      assert.deepEqual(other.received, [], 'the foreign server got no request');
      assert.ok(
        service.requests.every((r) => !r.path.includes('/x')),
        'no read of a Location outside the base URL',
      );
    } finally {
      await other.close();
    }
  });

  it('a create that timed out is unknown, and findCreated finds it when it was made', async () => {
    service.faults.add({ method: 'POST', kind: 'latency', ms: 1500, times: 1 });
    const sentAt = Date.now();
    const error = await rejectsWith(api.engagements.create({ name: 'Slow create', type: 'onboarding' }), 'timeout');
    assert.equal(error.writeOutcome, 'unknown');
    assert.ok(!service.store.engagements.some((e) => e.name === 'Slow create'), 'not made when the client gave up');
    // The service carries it out after the client gave up.
    await clock.tickAsync(1500);
    await until(() => service.store.engagements.some((e) => e.name === 'Slow create'), 'the late create carried out');
    const found = await api.engagements.findCreated({ name: 'Slow create', type: 'onboarding' }, sentAt);
    assert.equal(found?.name, 'Slow create');
    assert.equal(await api.engagements.findCreated({ name: 'Never made', type: 'onboarding' }, sentAt), undefined);
  });

  it('a 500 on PATCH is unknown; checkUpdate tells whether it was applied', async () => {
    const target = service.store.engagements[0];
    service.faults.add({ method: 'PATCH', kind: 'status', status: 503, times: 1 });
    const error = await rejectsWith(api.engagements.update(target.id, { name: 'Maybe' }), 'server');
    assert.equal(error.writeOutcome, 'unknown');
    assert.equal((await api.engagements.checkUpdate(target.id, { name: 'Maybe' })).applied, false);
    service.store.updateEngagement(target.id, { name: 'Maybe' });
    assert.equal((await api.engagements.checkUpdate(target.id, { name: 'Maybe' })).applied, true);
  });

  it('a refused connection is certainly not applied; a 4xx neither', async () => {
    const port = await closedPort();
    const offline = new ServiceApi({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      getKey: () => 'k-123456',
      timeoutMs: 500,
      retryLimit: 0,
    });
    const refused = await rejectsWith(offline.engagements.create({ name: 'x', type: 'y' }), 'network');
    assert.equal(refused.writeOutcome, undefined);
    const invalid = await rejectsWith(
      api.engagements.update(service.store.engagements[0].id, { status: 'nope' }),
      'invalidRequest',
    );
    assert.equal(invalid.writeOutcome, undefined);
  });

  it('a 2xx whose body is not an engagement is read back, not reported as a failure', async () => {
    const target = service.store.engagements[0];
    service.faults.add({ method: 'PATCH', kind: 'transform', times: 1, transform: () => ({ ok: true }) });
    const result = done(await api.engagements.update(target.id, { name: 'Read back' }));
    assert.equal(result.source, 'reread');
    assert.equal(result.engagement.name, 'Read back');
  });

  it('a PATCH carries the expected version: a change made meanwhile answers 412 (conflict)', async () => {
    const target = await api.engagements.get(service.store.engagements[0].id);
    service.store.updateEngagement(target.id, { name: 'Changed by someone else' });
    const error = await rejectsWith(
      api.engagements.update(target.id, { status: 'completed' }, { expectedUpdatedAt: target.updatedAt }),
      'conflict',
    );
    assert.equal(error.status, 412);
    const patch = service.requests.find((r) => r.method === 'PATCH');
    assert.ok(patch, 'sent');
    assert.equal(service.store.getEngagement(target.id)?.status, target.status, 'not overwritten');
  });
});
