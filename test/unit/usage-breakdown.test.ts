// Issue 48: usage you can explain. A period of the reference service with planted spikes is read
// whole through the real client (once; a closed period is kept), broken down by a column with
// a sum, day by day with the spike days marked and their largest group named, the day the
// calls passed their included amount, and each key over the last periods against a budget.
// Every expected figure is counted here from the records planted, not by the product's code.
import assert from 'node:assert/strict';
import { BREAKDOWN_CAP, breakdown, crossingDay, dailyBars } from '../../src/core/breakdown';
import { dueKeyBudgets, keyBudgets } from '../../src/core/keyBudget';
import { periodProgress, projectMeter } from '../../src/core/meters';
import { filterRecords, toCsv, toJsonExport } from '../../src/core/records';
import { readTrend } from '../../src/api/usage';
import { breakdownOf } from '../../src/usage/breakdown';
import { keysOverTime } from '../../src/usage/keyTrends';
import { UsageHistory } from '../../src/usage/persisted';
import { RecordsScan } from '../../src/usage/sections';
import type { KeysData } from '../../src/usage/protocol';
import { plantPeriod, PLANTED_KEYS } from '../service/spikes';
import type { SeededDetail } from '../service/types';
import { JsonMemento } from './support/memento';
import { useReferenceService } from './support/referenceService';

const DAY = 86_400_000;
const NOW = new Date('2026-11-20T12:00:00Z');
const PERIOD = '2026-11';
const CLOSED = '2026-10';
const SPIKE = { day: 17, records: 160, keyId: 'key_ci', method: 'POST', endpoint: '/v1/engagements' };

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

describe('usage: a period broken down (reference service, planted spikes)', () => {
  const fixture = useReferenceService({ clock: NOW });
  let records: SeededDetail[];
  const byMask = new Map(PLANTED_KEYS.map((k) => [k.keyId, { keyId: k.keyId, name: k.name }]));

  beforeEach(() => {
    records = plantPeriod(fixture.service.store, {
      period: PERIOD,
      perDay: 24,
      days: 20,
      spikes: [SPIKE],
      included: 400,
    });
    plantPeriod(fixture.service.store, { period: CLOSED, perDay: 30, seed: 11 });
    fixture.service.clearRequests();
  });

  const detailRequests = () => fixture.service.requests.filter((r) => r.path.endsWith('/usage/details')).length;

  it('reads the period whole once through the client, and keeps a closed period across a refresh', async () => {
    const api = fixture.api();
    const scan = new RecordsScan();
    const read = await scan.read(api, PERIOD, () => undefined);
    assert.equal(read.records.length, records.length);
    assert.equal(read.missing, 0);
    assert.equal(read.capped, false);
    assert.equal(detailRequests(), Math.ceil(records.length / 100), 'pages of 100');

    const closed = await scan.read(api, CLOSED, () => undefined);
    assert.equal(closed.records.length, fixture.service.store.details(CLOSED).length);
    fixture.service.clearRequests();
    scan.clear(PERIOD); // a refresh of the dashboard in the current period
    assert.equal(scan.cached(PERIOD), undefined, 'the current period is read again');
    assert.equal((await scan.read(api, CLOSED, () => undefined)).records.length, closed.records.length);
    assert.equal(detailRequests(), 0, 'a closed period is not read again');
  });

  it('stops at its cap and says how many records are not in the figures', async () => {
    const scan = new RecordsScan(200);
    const read = await scan.read(fixture.api(), PERIOD, () => undefined);
    assert.equal(read.records.length, 200);
    assert.equal(read.capped, true);
    assert.equal(read.missing, records.length - 200);
    assert.ok(BREAKDOWN_CAP >= 10_000, 'the product cap reads a large period');
    const made = breakdownOf(read, undefined, byMask, NOW.getTime(), { used: records.length, included: 400 });
    assert.equal(made.data.crossing, undefined, 'a partial read cannot tell when the limit was passed');
  });

  it('groups by any column with a count, a sum and each share; the top groups, then "other"', async () => {
    const scan = await new RecordsScan().read(fixture.api(), PERIOD, () => undefined);
    const byEndpoint = breakdown(scan.records, 'endpoint', 'units');
    const units = new Map<string, number>();
    for (const r of records) units.set(r.endpoint, (units.get(r.endpoint) ?? 0) + r.units);
    const total = records.reduce((n, r) => n + r.units, 0);
    const counts = countBy(records, (r) => r.endpoint);
    assert.equal(byEndpoint.sum, total);
    assert.equal(byEndpoint.count, records.length);
    for (const group of byEndpoint.groups) {
      assert.equal(group.count, counts.get(group.value), group.value);
      assert.equal(group.sum, units.get(group.value), group.value);
      assert.ok(Math.abs(group.share - (units.get(group.value) ?? 0) / total) < 1e-9, group.value);
    }
    const largest = [...units.entries()].sort((a, b) => b[1] - a[1])[0][0];
    assert.equal(byEndpoint.groups[0].value, largest, 'the largest share first');

    const byId = breakdown(scan.records, 'id', undefined, 8);
    assert.equal(byId.groups.length, 8);
    assert.equal(byId.other?.groups, records.length - 8);
    assert.equal(byId.other?.count, records.length - 8);

    // By key (the first grouping): masked ids, the key's name beside.
    const made = breakdownOf(scan, undefined, byMask, NOW.getTime());
    assert.equal(made.data.breakdown.column, 'keyId');
    const ci = countBy(records, (r) => r.keyId).get('key_ci');
    const ciGroup = made.data.breakdown.groups.find((g) => made.data.labels[g.value] === 'CI pipeline');
    assert.equal(ciGroup?.count, ci);
    assert.ok(made.data.numeric.includes('units') && made.data.numeric.includes('durationMs'));
    assert.ok(!made.data.numeric.includes('endpoint'));
  });

  it('marks the spike day with its ratio to the median day and names its largest group (UTC days)', async () => {
    const scan = await new RecordsScan().read(fixture.api(), PERIOD, () => undefined);
    const made = breakdownOf(scan, undefined, byMask, NOW.getTime());
    const { daily } = made.data;
    const start = Date.UTC(2026, 10, 1);
    const perDay = Array.from({ length: 20 }, (_, i) => {
      const day = new Date(start + i * DAY).toISOString().slice(0, 10);
      return records.filter((r) => r.timestamp.startsWith(day)).length;
    });
    assert.equal(daily.timeZone, 'UTC');
    assert.equal(daily.days.length, 20, 'Nov 1 to today (Nov 20)');
    assert.deepEqual(
      daily.days.map((d) => d.count),
      perDay,
    );
    const usual = medianOf(perDay);
    assert.equal(daily.usual, usual);
    const marked = daily.days.filter((d) => d.marked);
    assert.deepEqual(
      marked.map((d) => d.day),
      ['2026-11-17'],
    );
    const spikeDay = records.filter((r) => r.timestamp.startsWith('2026-11-17'));
    assert.equal(marked[0].ratio, spikeDay.length / usual);
    const top = countBy(spikeDay, (r) => `${r.keyId} ${r.method} ${r.endpoint}`);
    const [topCall, topCount] = [...top.entries()].sort((a, b) => b[1] - a[1])[0];
    assert.equal(topCall, 'key_ci POST /v1/engagements');
    assert.deepEqual(marked[0].cause, {
      key: 'CI pipeline',
      method: 'POST',
      endpoint: '/v1/engagements',
      count: topCount,
      share: topCount / spikeDay.length,
    });
  });

  it('says the day the calls passed their included amount from the records, not a projected day', async () => {
    const scan = await new RecordsScan().read(fixture.api(), PERIOD, () => undefined);
    const summary = fixture.service.store.summary(PERIOD).usage.calls;
    const made = breakdownOf(scan, undefined, byMask, NOW.getTime(), summary);
    const inOrder = records.map((r) => r.timestamp).sort();
    const passed = inOrder[summary.included].slice(0, 10); // the call after the included ones
    assert.deepEqual(made.data.crossing, { day: passed, exact: true });
    const progress = periodProgress(PERIOD, NOW.getTime());
    assert.ok(progress);
    assert.equal(
      projectMeter('calls', summary.used, summary.included, progress).exceedsOn,
      undefined,
      'past the included amount: no projected day',
    );
    // Records that are a sample of the calls: the daily shape scaled to the calls, said as "around".
    const sampled = dailyBars(scan.records, scan.columns, { start: progress.start, end: progress.end }, NOW.getTime());
    const scaled = crossingDay(sampled, summary.used * 10, summary.included * 10, true);
    assert.equal(scaled?.exact, false);
    assert.equal(scaled?.day, passed, 'the same day, ten calls a record');
  });

  it('filters the records table by a group and by a day', async () => {
    const scan = await new RecordsScan().read(fixture.api(), PERIOD, () => undefined);
    const ofDay = filterRecords(scan.records, scan.columns, { day: '2026-11-17' });
    assert.equal(ofDay.length, records.filter((r) => r.timestamp.startsWith('2026-11-17')).length);
    const posts = filterRecords(scan.records, scan.columns, { group: { column: 'method', value: 'POST' } });
    assert.equal(posts.length, records.filter((r) => r.method === 'POST').length);
  });

  it('shows each key over the last 12 periods (closed periods read once), its projection and a key past its budget', async () => {
    const api = fixture.api();
    const memento = new JsonMemento();
    const store = new UsageHistory(memento, 'history');
    const history = { store, environmentId: 'env', baseUrl: fixture.service.baseUrl };
    const keysOf = (p: string) => api.usage.byKey(p);
    const first = await readTrend((p) => api.usage.summary(p), history, PERIOD, String, keysOf);
    const byKeyReads = () => fixture.service.requests.filter((r) => r.path.endsWith('/usage/by-key')).length;
    assert.equal(byKeyReads(), 12);
    await new Promise<void>((resolve) => setImmediate(resolve)); // the history's write is in the background
    fixture.service.clearRequests();
    const again = await readTrend((p) => api.usage.summary(p), history, PERIOD, String, keysOf);
    assert.equal(byKeyReads(), 1, 'only the current period is read again');
    assert.deepEqual(again.data.points.slice(0, 11), first.data.points.slice(0, 11));

    const byKey = fixture.service.store.byKey(PERIOD);
    const masks = new Map(byKey.map((k) => [k.keyId, { keyId: k.keyId, name: k.name }]));
    const keys: KeysData = {
      period: PERIOD,
      rows: byKey.map((k) => ({
        name: k.name,
        maskedKeyId: k.keyId,
        calls: k.calls,
        share: 0,
        lastUsedAt: k.lastUsedAt,
        current: false,
      })),
      totalCalls: 0,
    };
    const ciCalls = byKey.find((k) => k.keyId === 'key_ci')?.calls ?? 0;
    const adminCalls = byKey.find((k) => k.keyId === 'key_admin')?.calls ?? 0;
    const elapsed = (NOW.getTime() - Date.UTC(2026, 10, 1)) / DAY;
    const adminProjected = Math.round((adminCalls / elapsed) * 30);
    const budgets = keyBudgets({ 'CI pipeline': ciCalls - 1, key_admin: adminProjected - 1, nothing: -5 });
    const over = keysOverTime(keys, masks, again.data, budgets, NOW.getTime());
    const ci = over.perKey?.key_ci;
    const closedCi = fixture.service.store.byKey(CLOSED).find((k) => k.keyId === 'key_ci')?.calls;
    assert.equal(ci?.calls.length, 12);
    assert.equal(ci?.calls[11], ciCalls);
    assert.equal(ci?.calls[10], closedCi, 'October, from the closed period kept');
    assert.equal(ci?.calls[0], 0, 'a period the key made no calls in');
    assert.equal(ci?.budgetState, 'passed');
    assert.equal(over.perKey?.key_admin.projected, adminProjected);
    assert.equal(over.perKey?.key_admin.budgetState, 'projected');
    assert.equal(over.perKey?.key_writer.budget, undefined);

    const shown = new Set<string>();
    const due = dueKeyBudgets('env', PERIOD, byKey, budgets, periodProgress(PERIOD, NOW.getTime()), (id) =>
      shown.has(id),
    );
    assert.deepEqual(
      due.map((d) => [d.keyId, d.trigger]),
      [
        ['key_admin', 'projected'],
        ['key_ci', 'passed'],
      ].sort((a, b) => byKey.findIndex((k) => k.keyId === a[0]) - byKey.findIndex((k) => k.keyId === b[0])),
    );
    for (const d of due) shown.add(`env|${PERIOD}|key|${d.keyId}`);
    assert.deepEqual(
      dueKeyBudgets('env', PERIOD, byKey, budgets, periodProgress(PERIOD, NOW.getTime()), (id) => shown.has(id)),
      [],
      'once per period and key',
    );
  });
});

describe('usage: exports in the contract’s names', () => {
  it('heads CSV and JSON with the contract’s names where a field is one of its fields, others as sent', () => {
    const records = [{ key_id: 'k1', http_method: 'GET', last_used_at: 'x', BillingPeriod: '2026-11', units: 2 }];
    const header = toCsv(records).split('\r\n')[0];
    assert.equal(header, 'keyId,http_method,lastUsedAt,billingPeriod,units');
    const json = JSON.parse(toJsonExport(records, { billingPeriod: '2026-11', exportedAt: 'now' })) as {
      records: Array<Record<string, unknown>>;
    };
    assert.deepEqual(json.records[0], {
      keyId: 'k1',
      http_method: 'GET',
      lastUsedAt: 'x',
      billingPeriod: '2026-11',
      units: 2,
    });
    assert.equal(
      toCsv([{ keyId: 'a', key_id: 'b' }]).split('\r\n')[0],
      'keyId,key_id',
      'two fields that would share a name keep theirs',
    );
  });
});
