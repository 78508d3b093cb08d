import assert from 'node:assert/strict';
import * as period from '../../src/core/period';

describe('usage: billing period arithmetic', () => {
  it('reads only YYYY-MM with a real month', () => {
    assert.deepEqual(period.parsePeriod('2026-11'), { year: 2026, month: 11 });
    for (const bad of ['2026-13', '2026-00', '2026-1', '26-11', '2026/11', ' 2026-11', '2026-11-01', ''])
      assert.equal(period.parsePeriod(bad), undefined, bad);
  });

  it('the current period is the UTC month, also in the last hour of a month', () => {
    assert.equal(period.currentPeriod(Date.UTC(2026, 10, 19, 12)), '2026-11');
    assert.equal(period.periodOf(Date.UTC(2026, 11, 31, 23, 59, 59)), '2026-12');
    assert.equal(period.periodOf(Date.UTC(2027, 0, 1, 0, 0, 0)), '2027-01');
  });

  it('steps back and forth across year boundaries', () => {
    assert.equal(period.shiftPeriod('2026-01', -1), '2025-12');
    assert.equal(period.shiftPeriod('2025-12', 1), '2026-01');
    assert.equal(period.shiftPeriod('2026-03', -15), '2024-12');
    assert.equal(period.shiftPeriod('2026-03', 24), '2028-03');
    assert.equal(period.shiftPeriod('2026-03', 0), '2026-03');
    assert.throws(() => period.shiftPeriod('0000-01', -1), RangeError);
    assert.throws(() => period.shiftPeriod('2026-13', 1), RangeError);
  });

  it('orders periods', () => {
    assert.ok(period.comparePeriods('2025-12', '2026-01') < 0);
    assert.ok(period.comparePeriods('2026-02', '2026-01') > 0);
    assert.equal(period.comparePeriods('2026-02', '2026-02'), 0);
  });

  it('refuses a future period and anything that is not a period', () => {
    const now = Date.UTC(2026, 11, 15);
    assert.equal(period.isFuturePeriod('2027-01', now), true);
    assert.equal(period.isFuturePeriod('2026-12', now), false);
    assert.deepEqual(period.choosePeriod('2027-01', now), { ok: false, reason: 'future' });
    assert.deepEqual(period.choosePeriod('2026-12', now), { ok: true, period: '2026-12' });
    assert.deepEqual(period.choosePeriod(' 2019-04 ', now), { ok: true, period: '2019-04' });
    assert.deepEqual(period.choosePeriod('2026-13', now), { ok: false, reason: 'invalid' });
    assert.deepEqual(period.choosePeriod('next month', now), { ok: false, reason: 'invalid' });
  });

  it('names a period for people, in the locale', () => {
    assert.equal(period.periodLabel('2026-11', 'en-US'), 'November 2026');
    assert.equal(period.periodLabel('2026-01', 'de'), 'Januar 2026');
    assert.equal(period.periodLabel('nonsense', 'en-US'), 'nonsense');
  });
});
