// What the extension keeps per environment in a memento: one store under the engagements'
// and dashboards' cache, the usage history, the shared usage reads and the alert marks. Its
// entries go with their environment, what earlier builds saved still loads (and a window of an
// earlier build still reads what this one writes), and a failed save is logged, and told to the
// user only when it loses something the user did.
import assert from 'node:assert/strict';
import { engagementCache } from '../../src/engagements/store';
import { OwnState } from '../../src/shared/perEnvironment';
import {
  MAX_CACHED_ENVIRONMENTS,
  PerEnvironmentCache,
  PerEnvironmentStore,
  saveFailed,
} from '../../src/shared/perEnvironment';
import { AlertMarks, ReadCoordinator, UsageHistory, isSavedDashboard } from '../../src/usage/persisted';
import { JsonMemento } from './support/memento';

/** The log and the notifications a failed save goes to. */
function sinks() {
  const logged: string[] = [];
  const told: Array<{ level: string; text: string }> = [];
  const services = {
    log: { warn: (line: string) => void logged.push(line) },
    ui: {
      current: {
        message: (level: string, text: string) => {
          told.push({ level, text });
          return Promise.resolve(undefined);
        },
      },
    },
  };
  return { logged, told, services };
}

const isNote = (value: unknown): value is { text: string } =>
  typeof value === 'object' && value !== null && typeof (value as { text?: unknown }).text === 'string';

describe('per-environment store', () => {
  it('keeps entries by environment in one versioned key; forgets one, keeps only those that exist, removes the key when none is left', async () => {
    const memento = new JsonMemento();
    const store = new PerEnvironmentStore(memento, 'notes', { isValid: isNote });
    store.write('a', { text: 'one' });
    store.write('b', { text: 'two' });
    store.write('c', { text: 'three' });
    await Promise.resolve();
    assert.deepEqual(memento.get('notes'), {
      version: 1,
      entries: { a: { text: 'one' }, b: { text: 'two' }, c: { text: 'three' } },
    });
    assert.deepEqual(store.read('b'), { text: 'two' });
    assert.equal(store.read('elsewhere'), undefined);

    store.forget('b');
    assert.equal(store.read('b'), undefined, 'gone with its environment or key');
    store.keepOnly(['c', 'not-stored']);
    assert.equal(store.read('a'), undefined, 'an environment no longer listed is dropped');
    assert.deepEqual(store.read('c'), { text: 'three' });
    store.forget('c');
    assert.equal(memento.data.has('notes'), false, 'nothing left: the key goes');
  });

  it('reads past an entry it cannot use and keeps it as it is', () => {
    const memento = new JsonMemento();
    memento.seed('notes', { version: 1, entries: { a: { text: 7 }, b: { text: 'fine' } } });
    const store = new PerEnvironmentStore(memento, 'notes', { isValid: isNote });
    assert.equal(store.read('a'), undefined);
    store.write('c', { text: 'new' });
    assert.deepEqual(memento.get<{ entries: object }>('notes')?.entries, {
      a: { text: 7 },
      b: { text: 'fine' },
      c: { text: 'new' },
    });
    memento.seed('notes', { version: 2, entries: { b: { text: 'from a later build' } } });
    assert.equal(store.read('b'), undefined, 'a version it does not know is not read');
  });

  it('the cache keeps a bounded number of environments: the least recently fetched go first', () => {
    const memento = new JsonMemento();
    const cache = new PerEnvironmentCache(memento, 'shown', isSavedDashboard);
    for (let i = 0; i <= MAX_CACHED_ENVIRONMENTS; i++)
      cache.write(`env-${i}`, { fetchedAt: 1000 - i * 10, period: '2026-10' });
    const kept = Object.keys(memento.get<{ entries: object }>('shown')?.entries ?? {});
    assert.equal(kept.length, MAX_CACHED_ENVIRONMENTS);
    assert.ok(!kept.includes(`env-${MAX_CACHED_ENVIRONMENTS}`), 'the one fetched longest ago went');
    cache.write('env-late', { fetchedAt: 5000, period: '2026-10' });
    assert.ok(cache.read('env-late'), 'a new fetch is kept');
    assert.equal(cache.read(`env-${MAX_CACHED_ENVIRONMENTS - 1}`), undefined, 'the next oldest made room');
  });
});

describe('per-environment store: a failed save', () => {
  it('is logged with what was saved and why, and not told when it only loses a copy kept for speed', async () => {
    const memento = new JsonMemento();
    const { logged, told, services } = sinks();
    const history = new UsageHistory(memento, 'history', saveFailed(services, 'the usage history'));
    memento.failing = true;
    await history.write('env', 'http://a/v1', [{ period: '2026-09', status: 'noData' }]);
    const cache = engagementCache(memento, 'cache', saveFailed(services, 'the engagements shown'));
    cache.write('env', { items: [], totalCount: 0, pageSize: 25, fetchedAt: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(logged, [
      'Could not save the usage history: Error: ENOSPC: no space left on device',
      'Could not save the engagements shown: Error: ENOSPC: no space left on device',
    ]);
    assert.deepEqual(told, [], 'nothing the user did was lost');
  });

  it('is told to the user when it loses something the user did, and resolves to false', async () => {
    const memento = new JsonMemento();
    const { logged, told, services } = sinks();
    const store = new PerEnvironmentStore(memento, 'notes', {
      isValid: isNote,
      failed: saveFailed(services, 'the notes'),
    });
    memento.failing = true;
    const saved = await store.change((entries) => {
      entries.a = { text: 'typed' };
      return true;
    }, 'Your note for A was not saved.');
    assert.equal(saved, false);
    assert.deepEqual(told, [{ level: 'warning', text: 'Your note for A was not saved.' }]);
    assert.equal(logged.length, 1);
    memento.failing = false;
    assert.equal(await store.change(() => false, 'unchanged'), true, 'nothing changed: nothing saved, nothing told');
    assert.equal(told.length, 1);
  });

  it('alert marks: a failed "Don\'t Show Again" is told (and still holds in this window); a failed shown mark is only logged', async () => {
    const memento = new JsonMemento();
    const { logged, told, services } = sinks();
    const marks = new AlertMarks(new OwnState(memento), 'shown', saveFailed(services, 'the usage alerts shown'));
    const now = Date.UTC(2026, 10, 12);
    memento.failing = true;
    assert.equal(await marks.remember('env', ['env|2026-11|calls|80'], now), false);
    assert.deepEqual(told, [], 'an alert the extension marked: the user did nothing');
    assert.equal(logged.length, 1);
    assert.equal(
      await marks.remember('env', ['env|2026-11|muted'], now, 'Could not save "Don\'t Show Again" for Prod.'),
      false,
    );
    assert.deepEqual(told, [{ level: 'warning', text: 'Could not save "Don\'t Show Again" for Prod.' }]);
    assert.equal(logged.length, 2);
    assert.ok('env|2026-11|muted' in marks.read('env'), 'this window still honours the choice');
  });

  it('rejects when the store has nowhere to report it (never swallowed)', async () => {
    const memento = new JsonMemento();
    const store = new PerEnvironmentStore(memento, 'notes', { isValid: isNote });
    memento.failing = true;
    await assert.rejects(
      store.change(() => true),
      /ENOSPC/,
    );
  });
});

describe('per-environment store: what earlier builds saved', () => {
  it('the engagements shown and the usage history load as saved', () => {
    const memento = new JsonMemento();
    memento.seed('cache', {
      version: 1,
      entries: {
        'env-1': {
          items: [{ id: 'e1', name: 'Kickoff', status: 'active', type: 'onboarding' }],
          totalCount: 1,
          pageSize: 25,
          fetchedAt: 1_700_000_000_000,
        },
      },
    });
    assert.equal(engagementCache(memento, 'cache').read('env-1')?.items[0].name, 'Kickoff');

    memento.seed('history', {
      version: 1,
      entries: {
        env: {
          baseUrl: 'http://a/v1',
          points: {
            '2026-08': { period: '2026-08', status: 'noData' },
            '2026-09': {
              period: '2026-09',
              status: 'data',
              tier: 'Growth',
              meters: { calls: { used: 5, included: 100 } },
            },
          },
        },
      },
    });
    const history = new UsageHistory(memento, 'history');
    assert.deepEqual([...history.read('env', 'http://a/v1').keys()].sort(), ['2026-08', '2026-09']);
  });

  it('the shared reads keep their unversioned shape: a window of an earlier build and this one share them', () => {
    const memento = new JsonMemento();
    const summary = {
      billingPeriod: '2026-11',
      tier: 'Growth',
      usage: { calls: { used: 1, included: 100, overage: 0 } },
    };
    // As an earlier build's window wrote it.
    memento.seed('reads', { env: { at: 1000, window: 'old-window', summary } });
    const reads = new ReadCoordinator(memento, 'reads', 'new-window');
    const claim = reads.claim('env', '2026-11', 60_000, 2000);
    assert.deepEqual(claim, { read: false, summary, by: 'old-window' });
    reads.claim('other', '2026-11', 60_000, 2000);
    assert.deepEqual(
      memento.get('reads'),
      { env: { at: 1000, window: 'old-window', summary }, other: { at: 2000, window: 'new-window' } },
      'written in the shape the earlier build reads',
    );
  });

  it("the alert marks keep their flat shape of ids; an environment's go with it", async () => {
    const memento = new JsonMemento();
    memento.seed('shown', {
      'env|2026-11|calls|80': 1,
      'env|2026-11|muted': 2,
      'other|2026-11|webhooks|100': 3,
    });
    const marks = new AlertMarks(memento, 'shown');
    assert.deepEqual(marks.read('env'), { 'env|2026-11|calls|80': 1, 'env|2026-11|muted': 2 });
    await marks.remember('other', ['other|2026-11|calls|80'], Date.UTC(2026, 10, 12));
    assert.deepEqual(Object.keys(memento.get<object>('shown') ?? {}).sort(), [
      'env|2026-11|calls|80',
      'env|2026-11|muted',
      'other|2026-11|calls|80',
      'other|2026-11|webhooks|100',
    ]);
    marks.forget('env');
    await Promise.resolve();
    assert.deepEqual(Object.keys(memento.get<object>('shown') ?? {}).sort(), [
      'other|2026-11|calls|80',
      'other|2026-11|webhooks|100',
    ]);
    marks.keepOnly([]);
    await Promise.resolve();
    assert.equal(memento.data.has('shown'), false);
  });

  it('alert marks of periods before the previous one are forgotten when one is added', async () => {
    const memento = new JsonMemento();
    memento.seed('shown', { 'env|2026-09|calls|80': 1, 'env|2026-10|calls|80': 2, 'other|2026-08|muted': 3 });
    const marks = new AlertMarks(memento, 'shown');
    await marks.remember('env', ['env|2026-11|calls|100'], Date.UTC(2026, 10, 12));
    assert.deepEqual(memento.get('shown'), {
      'env|2026-10|calls|80': 2,
      'env|2026-11|calls|100': Date.UTC(2026, 10, 12),
    });
  });
});
