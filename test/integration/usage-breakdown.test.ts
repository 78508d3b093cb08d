// Issue 48 in the real extension host against the reference service: the current period, past
// its included calls, with a planted spike. "Break down the period" reads it whole with progress
// and Cancel; the day the calls passed their included amount is said by the dashboard and by the
// status bar's tooltip (never a projected day); a day chosen filters the records. Expected
// figures are counted here from the planted records.
import assert from 'node:assert/strict';
import type { UsageExports } from '../../src/testing/usage';
import { plantPeriod } from '../service/spikes';
import { openDashboard, posted, settled, utcPeriod } from './support/dashboard';
import { setSetting, suiteContext, useEnvironment, waitFor } from './support/helpers';

const dayName = (day: string) =>
  new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

describe('Usage breakdown, day by day and the day a limit was passed', function () {
  this.timeout(60_000);
  const ctx = suiteContext({ afresh: true, settings: ['usage.statusBar'] });
  const usage = (): UsageExports => {
    assert.ok(ctx.exports.usage);
    return ctx.exports.usage;
  };

  it('reads the period whole once, says the day the calls passed their included amount, here and in the status bar', async () => {
    const period = utcPeriod(0);
    const today = new Date().getUTCDate();
    const spikeDay = Math.max(1, today - 2);
    const records = plantPeriod(ctx.service.store, {
      period,
      perDay: 15,
      days: today,
      spikes: [{ day: spikeDay, records: 120, keyId: 'key_ci', method: 'POST', endpoint: '/v1/engagements' }],
      included: 15 * Math.max(1, spikeDay - 1) + 30,
      now: new Date(),
    });
    await setSetting('usage.statusBar', true);
    await useEnvironment(ctx, ctx.service.keys.admin, 'Breakdown');
    const probe = await openDashboard(ctx);
    await settled(probe, 'the meters', (s) => s.summary.status === 'ready');
    const unknown =
      "API calls are past the included amount; the usage dashboard's breakdown shows the day they passed it.";
    await waitFor(() => usage().statusBar().tooltip.includes(unknown) || undefined, 'the tooltip without a day');
    assert.doesNotMatch(usage().statusBar().tooltip, /around|reached/, 'no projected day');

    ctx.service.clearRequests();
    await probe.receive({ type: 'breakdown' });
    const state = await settled(probe, 'the breakdown', (s) => s.breakdown?.status === 'ready');
    assert.ok(state.breakdown?.status === 'ready');
    const pages = ctx.service.requests.filter((r) => r.path === '/v1/usage/details').length;
    assert.equal(pages, Math.ceil(records.length / 100), 'the period read once, in pages of 100');
    const included = ctx.service.store.summary(period).usage.calls.included;
    const inOrder = records.map((r) => r.timestamp).sort();
    const passed = inOrder[included].slice(0, 10); // the call after the included ones
    assert.deepEqual(state.breakdown.data.crossing, { day: passed, exact: true });
    await waitFor(
      () =>
        usage()
          .statusBar()
          .tooltip.includes(`API calls passed the included amount on ${dayName(passed)} (UTC, from the records).`) ||
        undefined,
      'the tooltip with the day',
    );

    // A day chosen: the records of that day, from the records read (nothing read again).
    ctx.service.clearRequests();
    const day = `${period}-${String(spikeDay).padStart(2, '0')}`;
    await probe.receive({ type: 'setFilter', filter: { day } });
    const filtered = await settled(probe, 'the records of the day', (s) => s.details.data?.filtered !== undefined);
    assert.equal(filtered.details.data?.filtered?.matched, records.filter((r) => r.timestamp.startsWith(day)).length);
    assert.equal(ctx.service.requests.filter((r) => r.path === '/v1/usage/details').length, 0);
  });

  it('shows its progress while reading, and Cancel stops it and leaves nothing half-read', async () => {
    plantPeriod(ctx.service.store, {
      period: utcPeriod(0),
      perDay: 15,
      days: new Date().getUTCDate(),
      now: new Date(),
    });
    await useEnvironment(ctx, ctx.service.keys.admin, 'Cancel');
    const probe = await openDashboard(ctx);
    const release = ctx.service.holdAnswers();
    try {
      void probe.receive({ type: 'breakdown' });
      // Not `settled`: the read waits on the held answers, so the dashboard is not idle.
      const reading = await waitFor(() => {
        const now = posted(probe);
        return now.breakdown?.status === 'loading' ? now : undefined;
      }, 'the read under way');
      assert.equal(reading.scan, undefined, 'no page answered yet: no progress to show but the read itself');
      await probe.receive({ type: 'cancelScan' });
    } finally {
      release();
    }
    const state = await settled(probe, 'the read cancelled', (s) => s.breakdown === undefined && s.scan === undefined);
    assert.equal(state.breakdown, undefined);
  });
});
