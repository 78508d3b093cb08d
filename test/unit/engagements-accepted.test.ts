// Writes the service accepted (202) and shows only later, against the reference service over
// real HTTP. The store shows them as pending and looks for them again on one schedule
// (src/engagements/accepted.ts); the waits move the service's clock instead of the real one, so
// a minute of looking takes milliseconds and every request is counted.
import assert from 'node:assert/strict';
import type { ServiceApi } from '../../src/api/service';
import { ACCEPTED_LOOK_DELAYS_MS, lookAgain, type Sleep } from '../../src/engagements/accepted';
import { EngagementStore } from '../../src/engagements/store';
import type { Reading, RunningService } from '../service/server';
import { useReferenceService } from './support/referenceService';
import { pending } from './support/writes';
import { until } from './support/until';

const DELAY = 1_200;
/** Looks in the window: the one with the answer, then one after each wait. */
const MOST_LOOKS = 1 + ACCEPTED_LOOK_DELAYS_MS.length;

describe('writes the service accepted (202) and shows later', function () {
  const reference = useReferenceService();
  let service: RunningService;
  let api: ServiceApi;
  let store: EngagementStore;
  /** The waits asked of the store's sleep, in order. */
  let waits: number[];
  /** When set, a wait hangs until the test moves on (or the look is cancelled). */
  let hold: { release?: () => void } | undefined;

  const advance: Sleep = async (ms, signal) => {
    waits.push(ms);
    if (hold) {
      await new Promise<void>((resolve) => {
        hold!.release = resolve;
        signal.addEventListener('abort', () => resolve());
      });
    }
    reference.clock = new Date(reference.clock.getTime() + ms);
  };

  function use(reading: Reading): void {
    service.setReading(reading);
  }
  const posts = () => service.requests.filter((r) => r.method === 'POST');
  const reads = (path: string) => service.requests.filter((r) => r.method === 'GET' && r.path === path);

  beforeEach(async () => {
    service = reference.service;
    reference.clock = new Date();
    waits = [];
    hold = undefined;
    api = reference.api({ retryLimit: 0 });
    store = new EngagementStore({
      environmentId: () => 'env',
      api: () => api,
      hasKey: () => Promise.resolve(true),
      pageSize: () => 25,
      acceptedLooks: { sleep: advance },
    });
    await store.refresh();
    service.clearRequests();
  });
  afterEach(() => {
    store.dispose();
    service.setReading({});
  });

  it('the schedule looks for about a minute, quickly at first, and ends', () => {
    const total = ACCEPTED_LOOK_DELAYS_MS.reduce((a, b) => a + b, 0);
    assert.ok(total >= 55_000 && total <= 65_000, `${total} ms in all`);
    assert.equal(MOST_LOOKS, 9, 'the integration and e2e suites count on 9 looks at most');
    assert.ok(ACCEPTED_LOOK_DELAYS_MS[0] <= 1_000, 'the first look again within a second');
    assert.ok(
      ACCEPTED_LOOK_DELAYS_MS.every((ms, i) => i === 0 || ms >= ACCEPTED_LOOK_DELAYS_MS[i - 1]),
      'waits never shrink',
    );
  });

  it('a 202 create with a Location: pending in the store, then the engagement, 1 POST and a bounded number of GETs', async () => {
    use({ writes: 'accepted', acceptedDelayMs: DELAY });
    const accepted = pending(await api.engagements.create({ name: 'Later', type: 'onboarding' }));
    assert.ok(accepted.id, 'the Location names it');
    assert.equal(service.store.engagements.length, 60, 'not made yet');
    const tracking = store.track(accepted);
    assert.deepEqual(
      store.snapshot().pending.map((p) => p.write),
      [accepted],
      'shown as pending at once',
    );
    const outcome = await tracking;
    assert.equal(outcome.kind, 'shown');
    const snapshot = store.snapshot();
    assert.deepEqual(snapshot.pending, [], 'no longer pending');
    assert.equal(snapshot.items[0].id, accepted.id, 'the engagement in its place, first');
    assert.equal(snapshot.items[0].name, 'Later');
    assert.equal(snapshot.totalCount, 61);
    assert.equal(posts().length, 1);
    const gets = reads(`/v1/engagements/${accepted.id}`).length;
    // The look with the answer (404), at 0.5 s (404), at 1.5 s: there.
    assert.equal(gets, 3);
    assert.ok(gets <= MOST_LOOKS, `${gets} GETs, at most ${MOST_LOOKS}`);
    assert.equal(service.requests.length, 1 + gets, 'nothing else: no list read');
    assert.deepEqual(waits, [500, 1_000]);
  });

  it('a 202 create with a pending body names it: the GETs of that id, wrapped or not', async () => {
    for (const wrapSingle of [false, true]) {
      use({ writes: 'acceptedBody', acceptedDelayMs: DELAY, wrapSingle });
      service.clearRequests();
      const accepted = pending(
        await api.engagements.create({ name: `Pending body ${wrapSingle}`, type: 'onboarding' }),
      );
      assert.ok(accepted.pending === 'create' && accepted.id);
      assert.equal(accepted.named, 'named', 'by its body, not a Location');
      const outcome = await store.track(accepted);
      assert.equal(outcome.kind, 'shown');
      assert.equal(store.snapshot().items[0].id, accepted.id);
      assert.equal(posts().length, 1);
      assert.equal(reads(`/v1/engagements/${accepted.id}`).length, 3);
      assert.equal(reads('/v1/engagements').length, 0, 'no search');
    }
  });

  it('a 202 create that names nothing: searched for, bounded, never an older one with the same name', async () => {
    const older = service.store.createEngagement({ name: 'Twin', type: 'onboarding' });
    reference.clock = new Date(reference.clock.getTime() + 20 * 60_000);
    use({ writes: 'acceptedSilent', acceptedDelayMs: DELAY });
    const accepted = pending(await api.engagements.create({ name: 'Twin', type: 'onboarding' }));
    assert.equal(accepted.id, undefined);
    const outcome = await store.track(accepted);
    assert.equal(outcome.kind, 'shown');
    const made = service.store.engagements[0];
    assert.equal(outcome.result.engagement.id, made.id);
    assert.equal(outcome.result.source, 'search');
    assert.notEqual(made.id, older.id);
    assert.deepEqual(
      store
        .snapshot()
        .items.filter((e) => e.name === 'Twin')
        .map((e) => e.id),
      [made.id],
      'the new one in the tree, once; not the older twin',
    );
    const lists = reads('/v1/engagements').length;
    // Each look reads the list (61 engagements: a refused size of 1,000 once, then one page of 100).
    assert.ok(lists >= 3 && lists <= 2 * MOST_LOOKS, `${lists} list reads`);
    assert.equal(posts().length, 1);
  });

  it('a 202 update: its new values pending until a read shows them', async () => {
    use({ writes: 'accepted', acceptedDelayMs: DELAY });
    const target = store.snapshot().items[2];
    const accepted = pending(await api.engagements.update(target.id, { status: 'completed', name: 'Done later' }));
    assert.deepEqual(accepted, {
      pending: 'update',
      id: target.id,
      changes: { status: 'completed', name: 'Done later' },
      sentAt: accepted.sentAt,
    });
    const tracking = store.track(accepted);
    assert.equal(store.snapshot().pending.length, 1);
    assert.equal(store.get(target.id)?.name, target.name, 'the store keeps what the service said');
    const outcome = await tracking;
    assert.equal(outcome.kind, 'shown');
    assert.equal(store.get(target.id)?.name, 'Done later');
    assert.equal(store.get(target.id)?.status, 'completed');
    assert.deepEqual(store.snapshot().pending, []);
    assert.equal(service.requests.filter((r) => r.method === 'PATCH').length, 1);
    assert.equal(reads(`/v1/engagements/${target.id}`).length, 3);
  });

  it('never shown within the window: "not shown", after exactly the schedule’s looks, and no longer pending', async () => {
    use({ writes: 'accepted', acceptedDelayMs: 10 * 60_000 });
    const accepted = pending(await api.engagements.create({ name: 'Much later', type: 'onboarding' }));
    const outcome = await store.track(accepted);
    assert.deepEqual(outcome, { kind: 'notShown' });
    assert.deepEqual(waits, ACCEPTED_LOOK_DELAYS_MS, 'the whole schedule, once');
    assert.equal(reads(`/v1/engagements/${accepted.id}`).length, MOST_LOOKS, 'one GET per look, no more');
    assert.deepEqual(store.snapshot().pending, []);
    assert.equal(service.store.deferredCount, 1, 'the service still has it to do');
  });

  it('a look that fails (503) is not the end: the next one finds it', async () => {
    use({ writes: 'accepted', acceptedDelayMs: DELAY });
    const accepted = pending(await api.engagements.create({ name: 'Through a 503', type: 'onboarding' }));
    service.faults.add({ method: 'GET', path: /^\/engagements\/eng_/, kind: 'status', status: 503, times: 1 });
    const errors: unknown[] = [];
    const outcome = await lookAgain((signal) => api.engagements.findAccepted(accepted, { signal }), live(), {
      sleep: advance,
      onError: (error) => errors.push(error),
    });
    assert.equal(outcome.kind, 'shown');
    assert.equal(errors.length, 1);
  });

  it('another environment or key (reset) stops the look: cancelled, nothing more is read', async () => {
    use({ writes: 'accepted', acceptedDelayMs: DELAY });
    const accepted = pending(await api.engagements.create({ name: 'Left behind', type: 'onboarding' }));
    // Looks counted where the client sends them.
    let sent = 0;
    api = reference.api({ retryLimit: 0, fetch: (input, init) => (sent++, fetch(input, init)) });
    hold = {};
    const tracking = store.track(accepted);
    await until(() => hold?.release !== undefined);
    const waited = waits.length;
    store.reset();
    assert.deepEqual(await tracking, { kind: 'cancelled' });
    assert.deepEqual(store.snapshot().pending, []);
    // The reset ended the held wait; what the look does next runs before the next turn of the event loop.
    await new Promise(setImmediate);
    assert.equal(sent, 0, 'no look after the reset');
    assert.equal(waits.length, waited, 'no wait for another look');
  });

  it('the view going away (dispose) stops it too', async () => {
    use({ writes: 'accepted', acceptedDelayMs: DELAY });
    const accepted = pending(await api.engagements.create({ name: 'Closed', type: 'onboarding' }));
    hold = {};
    const tracking = store.track(accepted);
    await until(() => hold?.release !== undefined);
    store.dispose();
    assert.deepEqual(await tracking, { kind: 'cancelled' });
  });

  it('a refresh that shows it ends the look early, with the engagement in place of the pending row', async () => {
    use({ writes: 'accepted', acceptedDelayMs: DELAY });
    const accepted = pending(await api.engagements.create({ name: 'Refreshed in', type: 'onboarding' }));
    hold = {};
    const tracking = store.track(accepted);
    await until(() => hold?.release !== undefined);
    reference.clock = new Date(reference.clock.getTime() + DELAY);
    await store.refresh();
    const outcome = await tracking;
    assert.equal(outcome.kind, 'shown');
    assert.deepEqual(store.snapshot().pending, []);
    assert.equal(store.snapshot().items.filter((e) => e.id === accepted.id).length, 1, 'shown once');
  });
});

const live = () => new AbortController().signal;
