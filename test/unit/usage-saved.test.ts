// What a dashboard saved last is shown again only when it reads as such: an entry from an
// older version or edited by hand is ignored rather than posted to the webview.
import assert from 'node:assert/strict';
import { meterFigures } from '../../src/core/meters';
import { keyRows } from '../../src/core/records';
import { isSavedDashboard } from '../../src/usage/persisted';

describe('usage: the dashboard data saved for the next opening', () => {
  const summary = {
    period: '2026-10',
    tier: 'Growth',
    meters: [meterFigures('calls', { used: 82_000, included: 100_000, overage: 0 })],
  };
  const keys = {
    period: '2026-10',
    rows: keyRows([{ keyId: 'key_admin', name: 'Admin', calls: 10, lastUsedAt: '2026-10-02T00:00:00Z' }], 'key_admin'),
    totalCalls: 10,
  };
  const details = { period: '2026-10', page: 1, pageSize: 25, totalCount: 1, columns: ['id'], records: [{ id: 'r1' }] };

  it('accepts what a dashboard saves, after a JSON round trip (as a memento keeps it)', () => {
    const saved = JSON.parse(
      JSON.stringify({ fetchedAt: Date.now(), period: '2026-10', summary, keys, details }),
    ) as unknown;
    assert.equal(isSavedDashboard(saved), true);
    assert.equal(isSavedDashboard({ fetchedAt: 1, period: '2026-10' }), true, 'sections are optional');
  });

  it('refuses anything else', () => {
    for (const bad of [
      undefined,
      null,
      'text',
      [],
      { period: '2026-10' },
      { fetchedAt: 1 },
      { fetchedAt: 1, period: '2026-10', summary: { period: '2026-10', tier: 'x', meters: [{ name: 'calls' }] } },
      { fetchedAt: 1, period: '2026-10', keys: { period: '2026-10', rows: [{}], totalCalls: 1 } },
      { fetchedAt: 1, period: '2026-10', details: { ...details, records: ['r1'] } },
    ]) {
      assert.equal(isSavedDashboard(bad), false, JSON.stringify(bad));
    }
  });

  it('holds no key: key ids are masked', () => {
    const text = JSON.stringify({ keys });
    assert.ok(!text.includes('key_admin'), text);
  });
});
