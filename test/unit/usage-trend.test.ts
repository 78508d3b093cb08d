import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors';
import { alertId, alertThresholds, dueAlerts } from '../../src/core/alerts';
import { dailyPace, meterFigures, periodProgress, projectMeter, projectPeriod } from '../../src/core/meters';
import { chartMax, isClosedPeriod, meterChange, trendPeriods, trendPoint, type TrendPoint } from '../../src/core/trend';
import { readTrend } from '../../src/api/usage';
import { ReadCoordinator, UsageHistory } from '../../src/usage/persisted';
import { until } from './support/until';

/** A memento in memory, as VS Code's behaves: values are copied in and out. */
class Memento {
  private readonly values = new Map<string, unknown>();
  writes = 0;
  get<T>(key: string): T | undefined {
    const value = this.values.get(key);
    return value === undefined ? undefined : (structuredClone(value) as T);
  }
  update(key: string, value: unknown): Promise<void> {
    this.writes++;
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, structuredClone(value));
    return Promise.resolve();
  }
}

const usage = (calls: number, webhooks = 0, storage = 0) => ({
  calls: { used: calls, included: 100_000, overage: Math.max(0, calls - 100_000) },
  webhooks: { used: webhooks, included: 20_000, overage: 0 },
  storage_gb: { used: storage, included: 10, overage: 0 },
});

describe('usage: trend of the last periods', () => {
  it('lists the 12 periods ending with the current one, across a year boundary', () => {
    const periods = trendPeriods('2026-02');
    assert.equal(periods.length, 12);
    assert.equal(periods[0], '2025-03');
    assert.equal(periods[10], '2026-01');
    assert.equal(periods[11], '2026-02');
    assert.ok(isClosedPeriod('2026-01', '2026-02'));
    assert.ok(!isClosedPeriod('2026-02', '2026-02'));
  });

  it('reads a summary with every meter at zero as data (zero), and keeps the figures otherwise', () => {
    const zero = trendPoint('2025-01', 'Growth', usage(0, 0, 0));
    assert.equal(zero.status, 'data', 'zero is data; "no data" is for periods the service does not know');
    assert.equal(zero.status === 'data' && zero.meters.calls.used, 0);
    assert.equal(zero.status === 'data' && zero.meters.calls.included, 100_000);
    const point = trendPoint('2025-02', 'Growth', usage(1234.5678, 10, 0.1 + 0.2));
    assert.equal(point.status, 'data');
    assert.equal(point.status === 'data' && point.meters.calls.used, 1234.568);
    assert.equal(point.status === 'data' && point.meters.storage_gb.used, 0.3);
    const odd = trendPoint('2025-03', 'Growth', usage(-5, Number.NaN));
    assert.equal(odd.status === 'data' && odd.meters.calls.used, 0, 'negative figures count as zero');
    assert.equal(odd.status === 'data' && odd.meters.webhooks.used, 0, 'unreadable figures count as zero');
  });

  it('gives the change against the period before, none next to "no data"', () => {
    const points: TrendPoint[] = [
      { period: '2026-08', status: 'noData' },
      trendPoint('2026-09', 'Growth', usage(50_000)),
      trendPoint('2026-10', 'Growth', usage(60_000)),
      trendPoint('2026-11', 'Growth', usage(45_000, 5)),
    ];
    assert.deepEqual(meterChange(points, '2026-10', 'calls'), { from: '2026-09', delta: 10_000, percent: 20 });
    assert.deepEqual(meterChange(points, '2026-11', 'calls'), { from: '2026-10', delta: -15_000, percent: -25 });
    assert.deepEqual(
      meterChange(points, '2026-11', 'webhooks'),
      { from: '2026-10', delta: 5, percent: undefined },
      'from nothing: no percentage',
    );
    assert.equal(meterChange(points, '2026-09', 'calls'), undefined, 'the period before has no data');
    assert.equal(meterChange(points, '2026-08', 'calls'), undefined);
    assert.equal(chartMax(points, 'calls'), 100_000, 'the included amount is on the chart');
    assert.equal(chartMax([{ period: '2026-01', status: 'noData' }], 'calls'), 1);
  });
});

describe('usage: projection of the current period', () => {
  const now = Date.UTC(2026, 10, 16); // 16 Nov 2026, 00:00 UTC: 15 of 30 days elapsed

  it('knows how far the period is, and has none for a period that is over or to come', () => {
    const progress = periodProgress('2026-11', now);
    assert.ok(progress);
    assert.equal(progress.totalDays, 30);
    assert.equal(progress.elapsedDays, 15);
    assert.equal(progress.daysLeft, 15);
    assert.equal(periodProgress('2026-10', now), undefined);
    assert.equal(
      projectPeriod('2026-10', [{ name: 'calls', used: 1, included: 2 }], now),
      undefined,
      'no estimate for a closed period',
    );
  });

  it("projects linearly from the period's start, and says by how much and on which day it passes the included amount", () => {
    const progress = periodProgress('2026-11', now);
    assert.ok(progress);
    const over = projectMeter('calls', 60_000, 100_000, progress);
    assert.equal(over.method, 'linear');
    assert.equal(over.projected, 120_000);
    assert.equal(over.overBy, 20_000);
    assert.equal(over.exceedsOn, '2026-11-26', '4,000 a day reaches 100,000 on day 25 (26 Nov 00:00)');
    const within = projectMeter('calls', 30_000, 100_000, progress);
    assert.equal(within.projected, 60_000);
    assert.equal(within.overBy, undefined);
    assert.equal(within.exceedsOn, undefined);
    const already = projectMeter('calls', 110_000, 100_000, progress);
    assert.equal(already.exceedsOn, undefined, 'already over: no projected day (the records tell when it passed)');
    assert.equal(projectMeter('storage_gb', 1, 0, progress).overBy, undefined, 'nothing included: nothing to pass');
  });

  it('uses the daily records only when they account for the meter, from the last whole days', () => {
    const progress = periodProgress('2026-11', now);
    assert.ok(progress);
    // 10 calls a day for the first 8 days, 20 a day for the 7 days after.
    const stamps: string[] = [];
    for (let day = 0; day < 15; day++)
      for (let i = 0; i < (day < 8 ? 10 : 20); i++)
        stamps.push(new Date(Date.UTC(2026, 10, 1 + day, 1, i)).toISOString());
    assert.equal(dailyPace(stamps, stamps.length, progress, now), 20);
    assert.equal(
      dailyPace(stamps, stamps.length * 10, progress, now),
      undefined,
      'records that are a sample of the calls are not used',
    );
    const projection = projectPeriod(
      '2026-11',
      [
        { name: 'calls', used: stamps.length, included: 400 },
        { name: 'webhooks', used: 10, included: 100 },
      ],
      now,
      stamps,
    );
    assert.ok(projection);
    assert.equal(projection.method, 'daily');
    assert.equal(projection.meters[0].projected, stamps.length + 20 * 15);
    assert.equal(projection.meters[1].method, 'linear', 'other meters stay linear');
  });
});

describe('usage: alerts due', () => {
  const figures = (calls: number, webhooks = 0) => [
    meterFigures('calls', { used: calls, included: 100_000, overage: 0 }),
    meterFigures('webhooks', { used: webhooks, included: 20_000, overage: 0 }),
  ];
  const now = Date.UTC(2026, 10, 16);

  it('reads the thresholds setting, falling back to 80 and 100', () => {
    assert.deepEqual(alertThresholds(undefined), [80, 100]);
    assert.deepEqual(alertThresholds([100, 50, 50, 'x', -1, 5000]), [50, 100]);
    assert.deepEqual(alertThresholds(['a']), [80, 100]);
  });

  it('is one alert per meter for the highest threshold passed, and never again once shown', () => {
    const shown = new Set<string>();
    const due = dueAlerts('env', '2026-11', figures(82_000), [80, 100], undefined, (id) => shown.has(id));
    assert.deepEqual(
      due.map((a) => [a.meter, a.trigger, a.covers]),
      [['calls', 80, [80]]],
    );
    for (const a of due) for (const c of a.covers) shown.add(alertId('env', '2026-11', a.meter, c));
    assert.deepEqual(
      dueAlerts('env', '2026-11', figures(85_000), [80, 100], undefined, (id) => shown.has(id)),
      [],
    );
    const jump = dueAlerts('env', '2026-11', figures(130_000), [80, 100], undefined, (id) => shown.has(id));
    assert.deepEqual(
      jump.map((a) => [a.meter, a.trigger]),
      [['calls', 100]],
    );
    assert.deepEqual(
      dueAlerts('other', '2026-11', figures(130_000), [80, 100], undefined, () => false).map((a) => a.covers),
      [[80, 100]],
      'a jump past both is one alert covering both',
    );
  });

  it('warns of a projection past the included amount, with the threshold alert or alone', () => {
    const projection = projectPeriod('2026-11', figures(60_000, 2_000), now);
    const alone = dueAlerts('env', '2026-11', figures(60_000, 2_000), [80, 100], projection, () => false);
    assert.deepEqual(
      alone.map((a) => [a.meter, a.trigger, a.overBy, a.exceedsOn]),
      [['calls', 'projected', 20_000, '2026-11-26']],
    );
    const both = dueAlerts(
      'env',
      '2026-11',
      figures(85_000),
      [80, 100],
      projectPeriod('2026-11', figures(85_000), now),
      () => false,
    );
    assert.deepEqual(
      both.map((a) => [a.trigger, a.covers]),
      [[80, [80, 'projected']]],
    );
  });
});

describe('usage: stored history and shared reads', () => {
  it('keeps closed periods per environment and base URL, never failed reads', async () => {
    const memento = new Memento();
    const history = new UsageHistory(memento, 'history');
    await history.write('env', 'http://a/v1', [
      trendPoint('2026-09', 'Growth', usage(5)),
      { period: '2026-08', status: 'noData' },
      { period: '2026-07', status: 'error', message: 'x' },
    ]);
    assert.deepEqual([...history.read('env', 'http://a/v1').keys()].sort(), ['2026-08', '2026-09']);
    assert.equal(history.read('env', 'http://b/v1').size, 0, 'another service address: nothing');
    assert.equal(history.read('other', 'http://a/v1').size, 0);
    history.keepOnly(['other']);
    assert.equal(history.read('env', 'http://a/v1').size, 0, 'gone with its environment');
    assert.doesNotMatch(JSON.stringify(memento.get('history') ?? {}), /key_|secret/);
  });

  it('lets one window read per interval and the others use its summary', () => {
    const memento = new Memento();
    const a = new ReadCoordinator(memento, 'reads', 'window-a');
    const b = new ReadCoordinator(memento, 'reads', 'window-b');
    const summary = { billingPeriod: '2026-11', tier: 'Growth', usage: usage(1) };
    const minute = 60_000;
    assert.deepEqual(a.claim('env', '2026-11', 15 * minute, 0), { read: true });
    a.publish('env', summary, 0);
    const shared = b.claim('env', '2026-11', 15 * minute, 5 * minute);
    assert.equal(shared.read, false);
    assert.deepEqual(!shared.read && shared.summary, summary);
    assert.equal(
      a.claim('env', '2026-11', 15 * minute, 15 * minute).read,
      true,
      'the reader reads again next interval',
    );
    assert.equal(
      b.claim('env', '2026-11', 15 * minute, 31 * minute).read,
      true,
      'when the reader stopped, another window reads',
    );
    assert.equal(
      b.claim('env', '2026-12', 15 * minute, 32 * minute).read,
      true,
      'a summary of another period is not used',
    );
  });
});

describe('usage: reading the trend', () => {
  const current = '2026-11';
  const summary = (period: string, calls: number) => ({ billingPeriod: period, tier: 'Growth', usage: usage(calls) });

  it('reads every period together; 404 and empty answers are "no data", other failures are marked, closed periods are stored', async () => {
    const memento = new Memento();
    const store = new UsageHistory(memento, 'history');
    const asked: string[] = [];
    let inFlight = 0;
    let most = 0;
    // Every answer waits until the test opens the way.
    let open = (): void => {};
    const opened = new Promise<void>((resolve) => (open = resolve));
    const summaryOf = async (period: string) => {
      asked.push(period);
      inFlight++;
      most = Math.max(most, inFlight);
      await opened;
      inFlight--;
      if (period === '2025-12') throw new ApiError('notFound', 'no');
      if (period === '2026-01')
        throw new ApiError('badResponse', 'empty', {
          fieldErrors: { body: 'expected a JSON body, got an empty body' },
        });
      if (period === '2026-02') throw new ApiError('server', 'boom');
      return summary(period, 1000 + asked.length);
    };
    const reading = readTrend(
      summaryOf,
      { store, environmentId: 'env', baseUrl: 'u' },
      current,
      (e) => (e as Error).message,
    );
    await until(() => inFlight === 12, 'twelve periods asked');
    open();
    const read = await reading;
    assert.equal(read.requests, 12);
    assert.equal(most, 12, 'all twelve in flight at once');
    assert.deepEqual(
      read.data.points.slice(0, 3).map((p) => p.status),
      ['noData', 'noData', 'error'],
    );
    assert.equal(read.data.points[2].status === 'error' && read.data.points[2].message, 'boom');
    const stored = store.read('env', 'u');
    assert.equal(stored.has('2026-02'), false, 'a failed read is not stored');
    assert.equal(stored.has(current), false, 'the current period is not stored');
    assert.equal(stored.size, 10);

    asked.length = 0;
    const again = await readTrend(summaryOf, { store, environmentId: 'env', baseUrl: 'u' }, current, String);
    assert.deepEqual(
      asked.sort(),
      ['2026-02', current],
      'only what is not stored: the failed period and the current one',
    );
    assert.equal(again.requests, 2);
  });

  it('fails as a whole only when no period could be read, and never hides a rejected key', async () => {
    await assert.rejects(
      readTrend(() => Promise.reject(new ApiError('network', 'down')), undefined, current, String),
      /down/,
    );
    await assert.rejects(
      readTrend(
        (p) => (p === current ? Promise.reject(new ApiError('forbidden', 'scope')) : Promise.resolve(summary(p, 1))),
        undefined,
        current,
        String,
      ),
      /scope/,
    );
  });
});
