// The period asked is the period shown (issue 38): a service that answers a summary, the
// per-key usage or a page of records for another billing period than the one asked is not
// shown as the one asked. The real client against the reference service, its answers replaced
// by what such a service sends; the trend read over it.
import assert from 'node:assert/strict';
import type { RequestLog } from '../../src/api/client';
import { shiftPeriod } from '../../src/core/period';
import { readTrend } from '../../src/api/usage';
import { rejectsWith } from './support/apiErrors';
import { useReferenceService } from './support/referenceService';

describe('usage: the period asked is the period shown (unit)', () => {
  const reference = useReferenceService();
  const current = () => reference.service.store.currentPeriod();
  const summaryOf = (period: string) => reference.service.store.summary(period);
  /** The service answers GET `path` with `body` (`times` times, or for the rest of the test). */
  const answers = (path: string, body: unknown, times?: number) =>
    reference.service.faults.add({ method: 'GET', path, kind: 'body', body, times });

  it('a summary of another period than the one asked is refused, naming both periods', async () => {
    const logged: RequestLog[] = [];
    const api = reference.api({ onRequest: (entry) => logged.push(entry) });
    const asked = shiftPeriod(current(), -1);
    answers('/usage/summary', summaryOf(current()));
    const error = await rejectsWith(api.usage.summary(asked), 'otherPeriod');
    assert.deepEqual(error.period, { asked, answered: current() });
    assert.equal(error.message, `GET /usage/summary asked for ${asked} and answered for ${current()}.`);
    assert.equal(logged.at(-1)?.outcome, 'otherPeriod', 'the log says what went wrong');
    assert.equal(reference.service.requests.length, 1, 'not asked again: the same question gets the same answer');
  });

  it('the per-key usage and a page of records naming another period are refused the same way', async () => {
    const api = reference.api();
    const asked = shiftPeriod(current(), -1);
    answers('/usage/by-key', { billingPeriod: current(), keys: [] });
    const byKey = await rejectsWith(api.usage.byKey(asked), 'otherPeriod');
    assert.deepEqual(byKey.period, { asked, answered: current() });
    answers('/usage/details', {
      billing_period: current(),
      items: [{ id: 'rec_1' }],
      page: 1,
      pageSize: 25,
      totalCount: 1,
    });
    const details = await rejectsWith(api.usage.details({ billingPeriod: asked }), 'otherPeriod');
    assert.deepEqual(details.period, { asked, answered: current() });
  });

  it('the period asked, written as a date in it, a period not asked for, or none at all: shown', async () => {
    const api = reference.api();
    const asked = shiftPeriod(current(), -1);
    answers('/usage/summary', { ...summaryOf(asked), billingPeriod: `${asked}-01` }, 1);
    assert.equal((await api.usage.summary(asked)).billingPeriod, `${asked}-01`);
    // Without a period asked the service answers for its current one, whatever it is.
    answers('/usage/summary', summaryOf(asked), 1);
    assert.equal((await api.usage.summary()).billingPeriod, asked);
    // Records whose page names no period are the period's asked.
    assert.ok(Array.isArray((await api.usage.details({ billingPeriod: asked })).data));
  });

  it('a service that answers every period with the current one: the trend shows the current period, the other 11 marked, not 12 equal months', async () => {
    const api = reference.api();
    answers('/usage/summary', summaryOf(current()));
    const read = await readTrend(
      (period) => api.usage.summary(period),
      undefined,
      current(),
      (error) => (error as Error).message,
    );
    const points = read.data.points;
    assert.equal(points.length, 12);
    assert.equal(points.at(-1)?.status, 'data', 'the current period, as asked');
    assert.deepEqual(
      points.slice(0, 11).map((p) => p.status),
      Array(11).fill('error'),
      'each earlier period marked, none shown with the current figures',
    );
    const first = points[0];
    assert.match(first.status === 'error' ? first.message : '', /answered for /);
  });
});
