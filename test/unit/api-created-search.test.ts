// A create the service accepted (202) without naming it, or one whose outcome is unknown, is
// looked for in the whole list, again and again (9 looks in about a minute). Against the
// reference service over real HTTP with 450 engagements (5 pages of 100): the first look reads
// every page; a later look reads one item of the first page for the total, and every page again
// only once the total has grown (the contract has no delete). A service whose total cannot be
// checked against what was read is read whole on every look, as before.
import assert from 'node:assert/strict';
import type { ServiceApi } from '../../src/api/service';
import { ACCEPTED_LOOK_DELAYS_MS, lookAgain, type Sleep } from '../../src/engagements/accepted';
import { useReferenceService } from './support/referenceService';
import { pending } from './support/writes';

const ENGAGEMENTS = 450;
const DELAY = 1_200;

describe('looking again for a create nothing named (unit)', function () {
  const reference = useReferenceService({ engagementCount: ENGAGEMENTS });
  let api: ServiceApi;

  /** Each wait moves the service's clock instead of the real one. */
  const advance: Sleep = (ms) => {
    reference.clock = new Date(reference.clock.getTime() + ms);
    return Promise.resolve();
  };
  const listReads = () => reference.service.requests.filter((r) => r.method === 'GET' && r.path === '/v1/engagements');
  /** Reads of one item, for the list's total. */
  const totalReads = () => listReads().filter((r) => r.query.pageSize === '1').length;
  /** Reads of pages of the whole list. */
  const pageReads = () => listReads().filter((r) => r.query.pageSize !== '1').length;
  const look = (write: ReturnType<typeof pending>) =>
    lookAgain((signal) => api.engagements.findAccepted(write, { signal }), new AbortController().signal, {
      sleep: advance,
    });

  beforeEach(() => {
    reference.clock = new Date();
    api = reference.api({ retryLimit: 0 });
  });
  afterEach(() => reference.service.setReading({}));

  it('made a look later: one whole read with the answer, totals until it grew, then one whole read finds it', async () => {
    reference.service.setReading({ writes: 'acceptedSilent', acceptedDelayMs: DELAY });
    const write = pending(await api.engagements.create({ name: 'Named by nothing', type: 'onboarding' }));
    assert.equal(write.id, undefined, 'the answer named nothing');
    const firstRead = pageReads();
    assert.equal(firstRead, 6, 'with the answer: 1,000 refused, then 5 pages of 100');
    const outcome = await look(write);
    assert.equal(outcome.kind, 'shown');
    if (outcome.kind === 'shown') {
      assert.equal(outcome.result.engagement.name, 'Named by nothing');
      assert.equal(outcome.result.engagement.id, reference.service.store.engagements[0].id);
    }
    // Looks at 0.5 s (not made: the total is 450) and 1.5 s (made: 451, so every page again).
    assert.equal(totalReads(), 2);
    assert.equal(pageReads() - firstRead, 5, 'one whole read after the total grew');
  });

  it('never made within the window: the whole list read once, then one item per look', async () => {
    reference.service.setReading({ writes: 'acceptedSilent', acceptedDelayMs: 10 * 60_000 });
    const write = pending(await api.engagements.create({ name: 'Much later', type: 'onboarding' }));
    assert.deepEqual(await look(write), { kind: 'notShown' });
    assert.equal(totalReads(), ACCEPTED_LOOK_DELAYS_MS.length, 'one item read per look');
    assert.equal(pageReads(), 6, 'the whole list only with the answer (it was 9 whole reads: 46 requests)');
  });

  it('another create meanwhile grows the total: the whole list is read again, and the one made is still not taken for it', async () => {
    reference.service.setReading({ writes: 'acceptedSilent', acceptedDelayMs: 10 * 60_000 });
    const write = pending(await api.engagements.create({ name: 'Mine', type: 'onboarding' }));
    reference.service.store.createEngagement({ name: 'Someone else’s', type: 'onboarding' });
    const before = pageReads();
    assert.equal((await api.engagements.findAccepted(write)) ?? 'not there', 'not there');
    assert.equal(pageReads() - before, 5, 'the total grew: every page read again');
    assert.equal((await api.engagements.findAccepted(write)) ?? 'not there', 'not there');
    assert.equal(pageReads() - before, 5, 'unchanged since: one item read, no page');
  });

  it('a create whose outcome is unknown: findCreated reads the whole list once, then the total, until it grows', async () => {
    const input = { name: 'Maybe made', type: 'onboarding' };
    const sentAt = Date.now();
    assert.equal(await api.engagements.findCreated(input, sentAt), undefined);
    const firstRead = pageReads();
    assert.equal(await api.engagements.findCreated(input, sentAt), undefined);
    assert.equal(pageReads(), firstRead, 'nothing added: no page read');
    assert.equal(totalReads(), 1);
    reference.service.store.createEngagement(input);
    assert.equal((await api.engagements.findCreated(input, sentAt))?.name, 'Maybe made');
    assert.equal(pageReads() - firstRead, 5);
  });

  it('a service whose pages cannot show the whole list (it ignores `page`): every look reads it whole', async () => {
    reference.service.setReading({ writes: 'acceptedSilent', acceptedDelayMs: 10 * 60_000, ignorePage: true });
    const write = pending(await api.engagements.create({ name: 'Unproven total', type: 'onboarding' }));
    const firstRead = pageReads();
    assert.deepEqual(await look(write), { kind: 'notShown' });
    assert.equal(totalReads(), 0, 'its total was not proven by a whole read: never relied on');
    assert.ok(
      pageReads() - firstRead >= ACCEPTED_LOOK_DELAYS_MS.length,
      `every look read the list (${pageReads() - firstRead} page reads in ${ACCEPTED_LOOK_DELAYS_MS.length} looks)`,
    );
  });
});
