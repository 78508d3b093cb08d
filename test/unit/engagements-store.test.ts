// The engagements store against the reference service over real HTTP: first page, Load more,
// refresh keeping what was shown, stale-while-refresh on failure, local writes, reset.
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors';
import type { ServiceApi } from '../../src/api/service';
import type { EngagementStore } from '../../src/engagements/store';
import { useReferenceService } from './support/referenceService';
import { until } from './support/until';
import { storeOver } from './support/store';

describe('engagements store against the reference service', function () {
  let key: string | undefined;
  let env: string | undefined;
  let pageSize: number;
  let api: ServiceApi;
  let store: EngagementStore;
  let changes: number;

  const reference = useReferenceService();
  const service = reference.service;
  beforeEach(() => {
    key = service.keys.admin;
    env = 'e-1';
    pageSize = 25;
    api = reference.api({ getKey: () => key, retryLimit: 0 });
    store = storeOver(api, {
      environmentId: () => env,
      api: () => (env ? api : undefined),
      hasKey: () => Promise.resolve(key !== undefined),
      pageSize: () => pageSize,
    });
    changes = 0;
    store.onDidChange(() => changes++);
  });
  const listCalls = () => service.requests.filter((r) => r.method === 'GET' && r.path === '/v1/engagements');

  it('loads the first page once, however many ask', async () => {
    await Promise.all([store.ensureLoaded(), store.ensureLoaded(), store.refresh()]);
    const s = store.snapshot();
    assert.equal(s.phase, 'loaded');
    assert.equal(s.items.length, 25);
    assert.equal(s.totalCount, 60);
    assert.equal(s.hasMore, true);
    assert.deepEqual(
      s.items.map((e) => e.id),
      service.store.engagements.slice(0, 25).map((e) => e.id),
      'in the service order',
    );
    assert.equal(listCalls().length, 1);
    assert.deepEqual(listCalls()[0].query, { page: '1', pageSize: '25' });
    assert.ok(changes >= 2, 'listeners heard the start and the end');
    assert.ok(store.seenStatuses().includes('paused'), 'statuses seen are remembered');
    assert.ok(store.seenTypes().length >= 3);
  });

  it('Load more appends the next pages until all are shown', async () => {
    await store.ensureLoaded();
    await store.loadMore();
    assert.equal(store.snapshot().items.length, 50);
    await store.loadMore();
    const s = store.snapshot();
    assert.equal(s.items.length, 60);
    assert.equal(s.hasMore, false);
    assert.equal(new Set(s.items.map((e) => e.id)).size, 60, 'each id once');
    await store.loadMore();
    assert.deepEqual(
      listCalls().map((r) => r.query.page),
      ['1', '2', '3'],
      'nothing is read past the end',
    );
  });

  it('a row without an id on a later page is left out and counted: Load more and the whole set end where the service ends (issue 45)', async () => {
    const rows = service.store.engagements;
    const idless = rows[30].id;
    service.store.setEngagements(rows.map((e, i) => (i === 30 ? { ...e, id: null as unknown as string } : e)));
    await store.ensureLoaded();
    await store.loadMore();
    let s = store.snapshot();
    assert.equal(s.error, undefined, 'the page with that row is read');
    assert.deepEqual([s.items.length, s.skipped, s.hasMore], [49, 1, true]);
    await store.loadMore();
    s = store.snapshot();
    // The service's total (60) counts the row left out: nothing more to load, nothing missing.
    assert.deepEqual([s.items.length, s.skipped, s.hasMore, s.stop], [59, 1, false, undefined]);
    assert.ok(!s.items.some((e) => e.id === idless));
    assert.deepEqual(
      listCalls().map((r) => r.query.page),
      ['1', '2', '3'],
    );
    assert.equal(await store.loadAll(), true);
    s = store.snapshot();
    assert.deepEqual([s.items.length, s.skipped, s.complete, s.error], [59, 1, true, undefined]);
  });

  it('an item pushed to the next page by a new engagement is not shown twice', async () => {
    await store.ensureLoaded();
    service.store.createEngagement({ name: 'Brand new', type: 'onboarding' });
    await store.loadMore();
    const ids = store.snapshot().items.map((e) => e.id);
    assert.equal(ids.length, new Set(ids).size);
    assert.equal(
      ids.length,
      49,
      'page 2 repeats the last item of page 1; it shows once (the new one appears after a refresh)',
    );
    assert.equal(store.snapshot().totalCount, 61);
  });

  it('a refresh re-reads as many pages as were shown, with the current page size', async () => {
    await store.ensureLoaded();
    await store.loadMore();
    service.clearRequests();
    pageSize = 10;
    await store.refresh();
    assert.deepEqual(
      listCalls()
        .map((r) => `${r.query.page}/${r.query.pageSize}`)
        .sort(),
      ['1/10', '2/10', '3/10', '4/10', '5/10'],
    );
    assert.equal(store.snapshot().items.length, 50);
  });

  it('a failed refresh keeps the last good items and says why; the next success clears it', async () => {
    await store.ensureLoaded();
    const before = store.snapshot();
    service.faults.add({ method: 'GET', path: '/engagements', kind: 'status', status: 503, times: 1 });
    await store.refresh();
    const failed = store.snapshot();
    assert.equal(failed.phase, 'loaded');
    assert.equal(failed.items, before.items, 'the same items stay on screen');
    assert.equal(failed.fetchedAt, before.fetchedAt, 'and keep their age');
    assert.ok(failed.error instanceof ApiError);
    assert.equal(failed.error.kind, 'server');
    await store.refresh();
    assert.equal(store.snapshot().error, undefined);
  });

  it('a first load that fails is a failure, with the error kind for the welcome content', async () => {
    key = 'key_admin.wrong';
    await store.ensureLoaded();
    assert.equal(store.snapshot().phase, 'failed');
    assert.equal((store.snapshot().error as ApiError).kind, 'unauthorized');
    key = service.keys.usageOnly;
    await store.refresh();
    assert.equal((store.snapshot().error as ApiError).kind, 'forbidden');
  });

  it('without a key or an environment it does not call the service', async () => {
    key = undefined;
    await store.ensureLoaded();
    assert.equal(store.snapshot().phase, 'keyMissing');
    env = undefined;
    store.reset();
    assert.equal(store.snapshot().phase, 'noEnvironment');
    await store.refresh();
    assert.equal(service.requests.length, 0);
  });

  it('keeps a write made while a refresh was in flight', async () => {
    await store.ensureLoaded();
    const target = store.snapshot().items[3];
    service.faults.add({ method: 'GET', path: '/engagements', kind: 'latency', ms: 150, times: 1 });
    const refreshing = store.refresh();
    // The service answers the refresh with the old version; the PATCH lands first locally.
    const updated = {
      ...target,
      name: 'Renamed locally',
      updatedAt: new Date(Date.parse(target.updatedAt ?? '') + 60_000).toISOString(),
    };
    const created = { ...target, id: 'eng_local', name: 'Created locally' };
    store.upsert(updated);
    store.upsert(created, true);
    await refreshing;
    const items = store.snapshot().items;
    assert.equal(items.find((e) => e.id === target.id)?.name, 'Renamed locally');
    assert.equal(items[0].id, 'eng_local');
  });

  it('reset drops what is shown and ignores the answer of a load still in flight', async () => {
    service.faults.add({ method: 'GET', path: '/engagements', kind: 'latency', ms: 200, times: 1 });
    const asked = service.requests.length;
    const loading = store.ensureLoaded();
    await until(() => service.requests.length > asked, 'the first page asked for');
    assert.equal(store.snapshot().phase, 'loading');
    store.reset();
    await loading;
    assert.equal(store.snapshot().items.length, 0);
    assert.equal(store.snapshot().phase, 'idle');
    assert.equal(store.snapshot().refreshing, false);
    await store.ensureLoaded();
    assert.equal(store.snapshot().items.length, 25);
  });

  it('counts its age from the last successful read', async () => {
    assert.equal(store.age(), Number.POSITIVE_INFINITY);
    await store.ensureLoaded();
    assert.ok(store.age() < 5000);
    assert.ok(store.age(Date.now() + 10_000) >= 10_000);
  });
});
