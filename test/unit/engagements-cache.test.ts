// The first page saved per environment: shown at once by a new store (the next activation)
// before the service answers, marked until a refresh lands, dropped with a rejected key;
// the memento holds only engagements, for a bounded number of environments.
import assert from 'node:assert/strict';
import { ServiceApi } from '../../src/api/service';
import { MAX_CACHED_ENVIRONMENTS } from '../../src/shared/perEnvironment';
import { SAVED_ITEMS_MAX, engagementCache } from '../../src/engagements/store';
import { JsonMemento } from './support/memento';
import { useReferenceService } from './support/referenceService';
import { storeOver } from './support/store';

const KEY = 'engagementUsage.engagements.cache';

describe('engagements saved between sessions', function () {
  const reference = useReferenceService();
  const service = reference.service;
  let memento: JsonMemento;
  let key: string | undefined;

  beforeEach(() => {
    memento = new JsonMemento();
    key = service.keys.admin;
  });

  /** A store as the extension makes one at activation, for environment `env`. */
  const storeFor = (env: string | (() => string | undefined)) => {
    const api = new ServiceApi({ baseUrl: service.baseUrl, getKey: () => key, timeoutMs: 5000, retryLimit: 0 });
    return storeOver(api, {
      environmentId: typeof env === 'function' ? env : () => env,
      hasKey: () => Promise.resolve(key !== undefined),
      cache: engagementCache(memento, KEY),
    });
  };
  const listCalls = () => service.requests.filter((r) => r.path === '/v1/engagements');

  it('shows the page saved by the last session at once, marked, and refreshes it behind', async () => {
    const first = storeFor('env-1');
    assert.equal(first.snapshot().fromCache, false, 'nothing saved yet');
    await first.ensureLoaded();
    const shown = first.snapshot().items.map((e) => e.id);

    // The next activation: answers are slow now.
    service.setLatency(300);
    service.clearRequests();
    const next = storeFor('env-1');
    const at = next.snapshot();
    assert.equal(listCalls().length, 0, 'no request was needed to show it');
    assert.deepEqual(
      at.items.map((e) => e.id),
      shown,
      'the saved page is there at once',
    );
    assert.equal(at.fromCache, true);
    assert.equal(at.phase, 'idle', 'a view that becomes visible still loads');
    assert.equal(at.hasMore, true, 'Load more is offered as before');
    assert.ok(next.seenTypes().length > 0, 'its types are known to the create flow');

    service.store.createEngagement({ name: 'Made meanwhile', type: 'onboarding' });
    const refreshing = next.ensureLoaded();
    assert.equal(next.snapshot().fromCache, true, 'still marked while the refresh runs');
    await refreshing;
    assert.equal(next.snapshot().fromCache, false);
    assert.equal(next.snapshot().items[0].name, 'Made meanwhile', 'the refresh landed');
    assert.equal(listCalls().length, 1, 'one request: the first page');
  });

  it('keeps the pages of several environments apart, and of a bounded number of them', async () => {
    for (let i = 0; i <= MAX_CACHED_ENVIRONMENTS; i++) {
      service.store.seedEngagements(30 + i);
      await storeFor(`env-${i}`).ensureLoaded();
    }
    const stored = memento.get<{ entries: Record<string, { totalCount: number; items: unknown[] }> }>(KEY);
    assert.ok(stored);
    assert.equal(Object.keys(stored.entries).length, MAX_CACHED_ENVIRONMENTS);
    assert.equal(stored.entries['env-0'], undefined, 'the oldest went');
    assert.equal(stored.entries['env-3'].totalCount, 33);
    assert.equal(stored.entries['env-3'].items.length, 25, 'only the first page is kept');
    assert.equal(storeFor('env-3').snapshot().totalCount, 33);
    assert.equal(storeFor('env-elsewhere').snapshot().items.length, 0);
  });

  it('never keeps anything key-like', async () => {
    await storeFor('env-1').ensureLoaded();
    const text = [...memento.data.values()].join('');
    for (const secret of Object.values(service.keys) as string[])
      assert.ok(!text.includes(secret), 'no key in the memento');
    assert.ok(!/bearer|authorization/i.test(text));
  });

  it('drops the saved page when the key is rejected, missing, or the environment changes', async () => {
    await storeFor('env-1').ensureLoaded();
    key = 'key_admin.revoked';
    const rejected = storeFor('env-1');
    assert.equal(rejected.snapshot().fromCache, true);
    await rejected.ensureLoaded();
    assert.equal(rejected.snapshot().items.length, 0, 'a rejected key does not keep showing what another read');
    assert.equal(rejected.snapshot().phase, 'failed');
    assert.equal(storeFor('env-1').snapshot().fromCache, false, 'and it is forgotten');

    key = service.keys.admin;
    await storeFor('env-1').ensureLoaded();
    key = undefined;
    const keyless = storeFor('env-1');
    await keyless.ensureLoaded();
    assert.equal(keyless.snapshot().phase, 'keyMissing');
    assert.equal(keyless.snapshot().items.length, 0);

    // Switching environments shows the other one's page, at once.
    key = service.keys.admin;
    let env = 'env-1';
    const switching = storeFor(() => env);
    await switching.ensureLoaded();
    env = 'env-2';
    switching.reset();
    assert.equal(switching.snapshot().items.length, 0, 'nothing saved for env-2');
    await switching.ensureLoaded();
    env = 'env-1';
    switching.reset();
    assert.equal(switching.snapshot().fromCache, true);
    assert.equal(switching.snapshot().items.length, 25);
  });

  it('saves at most 100 engagements when the service sends thousands for one page', async () => {
    service.store.seedEngagements(3000);
    service.setReading({ noPaging: true });
    try {
      const first = storeFor('env-1');
      await first.ensureLoaded();
      assert.equal(first.snapshot().items.length, 3000, 'the view has every one the service sent');
      assert.equal(first.snapshot().pages, 1, 'in one page');
      const saved = memento.data.get(KEY) ?? '';
      const entry = (JSON.parse(saved) as { entries: Record<string, { items: unknown[] }> }).entries['env-1'];
      assert.equal(entry.items.length, SAVED_ITEMS_MAX);
      assert.ok(saved.length < 100_000, `the workspace state holds ${saved.length} characters`);

      // The next activation shows those 100 at once, of 3,000, until the service answers.
      service.setLatency(300);
      const next = storeFor('env-1');
      assert.equal(next.snapshot().fromCache, true);
      assert.deepEqual(
        next.snapshot().items.map((e) => e.id),
        service.store.engagements.slice(0, SAVED_ITEMS_MAX).map((e) => e.id),
      );
      assert.equal(next.snapshot().totalCount, 3000);
      await next.ensureLoaded();
      assert.equal(next.snapshot().items.length, 3000);
      assert.equal(next.snapshot().fromCache, false);
    } finally {
      service.setReading({});
      service.setLatency(0);
    }
  });

  it('saves an engagement whose status is unknown, and how many rows had no id (issue 45)', async () => {
    service.store.seedEngagements(10);
    const rows = service.store.engagements;
    const statusless = rows[2].id;
    service.store.setEngagements(
      rows.map((e, i) =>
        i === 2
          ? { ...e, status: undefined as unknown as string }
          : i === 5
            ? { ...e, id: null as unknown as string }
            : e,
      ),
    );
    await storeFor('env-1').ensureLoaded();
    const next = storeFor('env-1').snapshot();
    assert.equal(next.fromCache, true);
    assert.equal(next.items.length, 9);
    assert.equal(next.items.find((e) => e.id === statusless)?.status, undefined, 'kept with its status unknown');
    assert.equal(next.skipped, 1);
    assert.equal(next.hasMore, false, 'no Load more for the row left out');
  });

  it('ignores what it cannot read (an older format, a hand-edited entry)', () => {
    void memento.update(KEY, {
      version: 1,
      entries: { 'env-1': { items: [{ id: 1 }], totalCount: 1, pageSize: 25, fetchedAt: 1 } },
    });
    assert.equal(storeFor('env-1').snapshot().items.length, 0);
    void memento.update(KEY, { version: 0, entries: {} });
    assert.equal(storeFor('env-1').snapshot().items.length, 0);
    void memento.update(KEY, 'garbage');
    assert.equal(storeFor('env-1').snapshot().items.length, 0);
  });
});
