// The engagements store's whole-set mode against the reference service over real HTTP: every
// page read by the client's concurrent reader, progress, reuse while fresh, cancel, failure,
// local writes, and refreshes that read the whole set again.
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors';
import type { ServiceApi } from '../../src/api/service';
import { EngagementStore } from '../../src/engagements/store';
import type { RunningService } from '../service/server';
import { useReferenceService } from './support/referenceService';
import { until } from './support/until';

describe('engagements store: the whole set', function () {
  let service: RunningService;
  let api: ServiceApi;
  let store: EngagementStore;
  let env: string;

  const reference = useReferenceService();
  beforeEach(() => {
    service = reference.service;
    service.store.seedEngagements(1000);
    env = 'e-1';
    api = reference.api({ retryLimit: 0 });
    store = new EngagementStore({
      environmentId: () => env,
      api: () => api,
      hasKey: () => Promise.resolve(true),
      pageSize: () => 25,
    });
  });
  const listCalls = () => service.requests.filter((r) => r.method === 'GET' && r.path === '/v1/engagements');

  it('reads every page and shows them all, in the service order, with progress on the way', async () => {
    await store.ensureLoaded();
    assert.equal(store.snapshot().hasMore, true);
    const progress: Array<{ loaded: number; total: number }> = [];
    store.onDidChange(() => {
      const reading = store.snapshot().readingAll;
      if (reading) progress.push(reading);
    });
    service.clearRequests();
    assert.equal(await store.loadAll(), true);
    const s = store.snapshot();
    assert.equal(s.items.length, 1000);
    assert.deepEqual(
      s.items.map((e) => e.id),
      service.store.engagements.map((e) => e.id),
    );
    assert.equal(s.complete, true);
    assert.equal(s.hasMore, false, 'no "Load more…" once everything is loaded');
    assert.equal(s.readingAll, undefined, 'the progress is gone');
    assert.deepEqual(
      listCalls().map((r) => `${r.status} ${r.query.pageSize}`),
      ['400 1000', ...Array<string>(10).fill('200 100')],
      'pages of 1,000 asked first (this service refuses more than 100), then ceil(1000 / 100) pages of 100',
    );
    assert.ok(progress.length >= 2, 'progress was reported');
    assert.equal(progress.at(-1)?.loaded, 1000);
    assert.equal(progress.at(-1)?.total, 1000);
  });

  it('a service that answers the first page again: the whole read says so and offers no "Load more…"', async () => {
    service.setReading({ ignorePage: true });
    try {
      await store.ensureLoaded();
      assert.equal(store.snapshot().hasMore, true, 'the first page cannot tell');
      assert.equal(await store.loadAll(), true);
      const shown = store.snapshot();
      assert.equal(shown.items.length, 100, 'the one page the service gives');
      assert.equal(shown.stop, 'ignoresPage', 'the view can say why the rest is missing');
      assert.equal(shown.hasMore, false, 'Load more would only read the same page again');
      assert.equal(shown.complete, false);
    } finally {
      service.setReading({});
    }
  });

  it('reuses a whole set read lately, and reads again when asked for fresh data', async () => {
    await store.loadAll();
    service.clearRequests();
    assert.equal(await store.loadAll(60_000), true);
    assert.equal(listCalls().length, 0, 'reused while fresh');
    assert.equal(await store.loadAll(0), true);
    assert.equal(listCalls().length, 10);
  });

  it('a service that takes pages of 1,000: one request for 1,000 engagements', async () => {
    service.setReading({ pageSizeMax: 1_000 });
    try {
      assert.equal(await store.loadAll(), true);
      assert.equal(store.snapshot().items.length, 1000);
      assert.equal(store.snapshot().complete, true);
      assert.deepEqual(
        listCalls().map((r) => `${r.status} ${r.query.page}×${r.query.pageSize}`),
        ['200 1×1000'],
      );
    } finally {
      service.setReading({});
    }
  });

  it('every engagement already read with the pages shown, lately: nothing more is asked', async () => {
    service.store.seedEngagements(60);
    await store.ensureLoaded();
    await store.loadMore();
    await store.loadMore();
    assert.equal(store.snapshot().items.length, 60);
    assert.equal(store.snapshot().complete, false, 'pages loaded one by one are not a whole set yet');
    service.clearRequests();
    assert.equal(await store.loadAll(60_000), true);
    assert.equal(listCalls().length, 0, 'the 60 were all read');
    assert.equal(store.snapshot().complete, true);
    assert.deepEqual(
      store.snapshot().items.map((e) => e.id),
      service.store.engagements.map((e) => e.id),
    );
    // Asked for fresh data, it reads again.
    assert.equal(await store.loadAll(0), true);
    assert.ok(listCalls().length >= 1);
  });

  it('a part read, or pages read too long ago: the whole set is read', async () => {
    await store.ensureLoaded();
    service.clearRequests();
    assert.equal(await store.loadAll(60_000), true);
    assert.ok(listCalls().length > 1, 'the 975 not yet read');

    let now = Date.parse('2026-11-16T09:00:00Z');
    const small = new EngagementStore({
      environmentId: () => 'e-2',
      api: () => api,
      hasKey: () => Promise.resolve(true),
      pageSize: () => 25,
      now: () => now,
    });
    service.store.seedEngagements(20);
    await small.ensureLoaded();
    now += 20;
    service.clearRequests();
    assert.equal(await small.loadAll(20), true);
    assert.equal(
      listCalls().length,
      1,
      'read 20 ms ago by the store’s clock, with less than 20 ms allowed: read again',
    );
  });

  it('calls while one runs share it', async () => {
    await Promise.all([store.loadAll(), store.loadAll(), store.loadAll()]);
    assert.equal(listCalls().length, 11, 'one refused size, then 10 pages');
  });

  it('a refresh after a whole-set read reads the whole set again (pages of 100, not 25)', async () => {
    await store.loadAll();
    service.store.createEngagement({ name: 'Arrived later', type: 'onboarding' });
    service.clearRequests();
    await store.refresh();
    assert.equal(store.snapshot().items.length, 1001);
    assert.equal(store.snapshot().complete, true);
    assert.equal(listCalls().length, 11);
  });

  it('cancelled, it keeps what was shown and reports no error', async () => {
    await store.ensureLoaded();
    const before = store.snapshot().items;
    // Answers held: the read is surely under way (a page asked, none answered) when it is cancelled.
    service.clearRequests();
    const release = service.holdAnswers();
    const reading = store.loadAll();
    await until(() => service.requests.some((r) => r.path === '/v1/engagements'), 'a page asked');
    assert.ok(store.snapshot().readingAll, 'reading');
    store.cancelLoadAll();
    assert.equal(await reading, false);
    release();
    const s = store.snapshot();
    assert.equal(s.items, before);
    assert.equal(s.complete, false);
    assert.equal(s.error, undefined);
    assert.equal(s.readingAll, undefined);
  });

  it('a failed read keeps what was shown and says why', async () => {
    await store.ensureLoaded();
    const before = store.snapshot().items;
    service.faults.add({ method: 'GET', path: '/engagements', kind: 'status', status: 503, times: 1 });
    assert.equal(await store.loadAll(), false);
    const s = store.snapshot();
    assert.equal(s.items, before);
    assert.ok(s.error instanceof ApiError && s.error.kind === 'server');
    assert.equal(s.complete, false);
  });

  it('keeps a write made while every page was being read', async () => {
    await store.ensureLoaded();
    const target = store.snapshot().items[2];
    service.setLatency(50);
    const asked = listCalls().length;
    const reading = store.loadAll();
    await until(() => listCalls().length > asked, 'every page being read');
    store.upsert({
      ...target,
      name: 'Renamed meanwhile',
      updatedAt: new Date(Date.parse(target.updatedAt ?? '') + 60_000).toISOString(),
    });
    await reading;
    service.setLatency(0);
    assert.equal(store.get(target.id)?.name, 'Renamed meanwhile');
  });

  it('another environment or key forgets the whole set', async () => {
    await store.loadAll();
    env = 'e-2';
    store.reset();
    assert.equal(store.snapshot().complete, false);
    assert.equal(store.snapshot().items.length, 0);
    service.clearRequests();
    await store.loadAll(60_000);
    assert.equal(listCalls().length, 10, 'read again for the new environment');
  });
});
