import assert from 'node:assert/strict';
import { meterFigures, meterTexts, roundPercent } from '../../src/core/meters';

describe('usage: meter maths', () => {
  it('computes the percentage and a normal level below 80 %', () => {
    const calls = meterFigures('calls', { used: 50_000, included: 100_000, overage: 0 });
    assert.equal(calls.percent, 50);
    assert.equal(calls.fill, 0.5);
    assert.equal(calls.level, 'normal');
    assert.equal(calls.overage, 0);
    assert.deepEqual(meterTexts(calls, 'en-US'), { used: '50,000', included: '100,000', percent: '50%' });
  });

  it('warns from 80 % up to and including 100 %', () => {
    assert.equal(meterFigures('calls', { used: 79_999, included: 100_000, overage: 0 }).level, 'normal');
    assert.equal(meterFigures('calls', { used: 80_000, included: 100_000, overage: 0 }).level, 'warning');
    const seeded = meterFigures('calls', { used: 82_140, included: 100_000, overage: 0 });
    assert.equal(seeded.level, 'warning');
    assert.equal(meterTexts(seeded, 'en-US').percent, '82%');
    assert.equal(meterFigures('webhooks', { used: 20_000, included: 20_000, overage: 0 }).level, 'warning');
  });

  it('past 100 % it is an error with the overage, and the bar stays full', () => {
    const calls = meterFigures('calls', { used: 108_450, included: 100_000, overage: 8_450 });
    assert.equal(calls.level, 'error');
    assert.equal(calls.fill, 1);
    assert.equal(calls.overage, 8_450);
    assert.deepEqual(meterTexts(calls, 'en-US'), {
      used: '108,450',
      included: '100,000',
      percent: '108%',
      overage: '+8,450',
    });
  });

  it('works out the overage when the service reports none, and trusts a larger reported one', () => {
    assert.equal(meterFigures('calls', { used: 120, included: 100, overage: 0 }).overage, 20);
    assert.equal(meterFigures('calls', { used: 120, included: 100, overage: 25 }).overage, 25);
  });

  it('handles fractional storage without float noise', () => {
    const storage = meterFigures('storage_gb', { used: 7.35, included: 10, overage: 0 });
    assert.equal(storage.unit, 'gb');
    assert.equal(storage.level, 'normal');
    assert.deepEqual(meterTexts(storage, 'en-US'), { used: '7.35 GB', included: '10.00 GB', percent: '74%' });
    const over = meterFigures('storage_gb', { used: 10.35, included: 10, overage: 0 });
    // 10.35 - 10 is 0.34999… in floating point; the figure shown is 0.35.
    assert.equal(over.overage, 0.35);
    assert.equal(over.level, 'error');
    assert.equal(meterTexts(over, 'en-US').overage, '+0.35 GB');
    assert.equal(
      meterTexts(meterFigures('storage_gb', { used: 8.004, included: 10, overage: 0 }), 'de').used,
      '8,00\u00a0GB',
    );
  });

  it('never shows 100 % for a meter just below or above it, nor 80 % below the warning', () => {
    assert.equal(roundPercent(99.6), 99);
    assert.equal(roundPercent(100.2), 101);
    assert.equal(roundPercent(100), 100);
    assert.equal(roundPercent(79.7), 79);
    assert.equal(
      meterTexts(meterFigures('calls', { used: 99_960, included: 100_000, overage: 0 }), 'en-US').percent,
      '99%',
    );
  });

  it('half a unit over the included amount reads just above 100 %, not 101 %', () => {
    const half = meterFigures('storage_gb', { used: 100.5, included: 100, overage: 0.5 });
    assert.equal(half.level, 'error');
    assert.deepEqual(meterTexts(half, 'en-US'), {
      used: '100.50 GB',
      included: '100.00 GB',
      percent: '100.5%',
      overage: '+0.50 GB',
    });
    const calls = meterFigures('calls', { used: 10_001, included: 10_000, overage: 1 });
    assert.equal(meterTexts(calls, 'en-US').percent, '100.01%', 'one call over ten thousand');
    assert.equal(
      meterTexts(meterFigures('calls', { used: 1_000_001, included: 1_000_000, overage: 1 }), 'en-US').percent,
      '100.001%',
    );
    assert.equal(
      meterTexts(meterFigures('calls', { used: 1_020, included: 1_000, overage: 20 }), 'en-US').percent,
      '102%',
    );
    assert.equal(meterTexts(meterFigures('calls', { used: 100, included: 100, overage: 0 }), 'en-US').percent, '100%');
    assert.equal(meterTexts(half, 'de').percent, '100,5\u00a0%');
  });

  it('a meter with nothing included: 0 % when unused, an error when used', () => {
    const unused = meterFigures('webhooks', { used: 0, included: 0, overage: 0 });
    assert.equal(unused.percent, 0);
    assert.equal(unused.level, 'normal');
    const used = meterFigures('webhooks', { used: 5, included: 0, overage: 5 });
    assert.equal(used.percent, undefined);
    assert.equal(used.level, 'error');
    assert.equal(used.fill, 1);
    assert.equal(meterTexts(used, 'en-US').percent, '—');
  });

  it('ignores negative figures a broken answer might carry', () => {
    const odd = meterFigures('calls', { used: -5, included: 100, overage: -1 });
    assert.equal(odd.used, 0);
    assert.equal(odd.overage, 0);
    assert.equal(odd.level, 'normal');
  });
});
