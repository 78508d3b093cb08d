// Issue 15 in the real extension host against the reference service: the 12-period trend
// (one round trip, closed periods kept, "no data" before the account existed), the
// projection of the current period, opt-in alerts shown once, the shared reads of the status
// bar, the records filter over the whole period with its export, and the small fixes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { UsageExports } from '../../src/testing/usage';
import { openDashboard, posted, serveCalls, settled, showPeriod, utcPeriod, expectExported } from './support/dashboard';
import { runCommand, setSetting, suiteContext, tempFolder, useEnvironment, waitFor } from './support/helpers';

describe('Usage trends, projection, alerts and records filter', function () {
  this.timeout(60_000);
  const ctx = suiteContext({ afresh: true, settings: ['usage.statusBar', 'usage.alerts', 'usage.alertThresholds'] });
  const tmp = tempFolder('eus-trends-');
  const usage = (): UsageExports => {
    assert.ok(ctx.exports.usage);
    return ctx.exports.usage;
  };
  const summaries = () => ctx.service.requests.filter((r) => r.path === '/v1/usage/summary');

  it('posts 12 periods of every meter, read together, with "no data" before the account existed', async () => {
    // The status bar's own read of the current period would count too: off for this count.
    await setSetting('usage.statusBar', false);
    await useEnvironment(ctx, ctx.service.keys.admin, 'Trend');
    ctx.service.store.accountStart = utcPeriod(-9);
    ctx.service.clearRequests();
    // Every answer waits 1.5 s: the twelve summaries are seen in flight at the same time.
    ctx.service.setLatency(1500);
    await runCommand('openUsageDashboard');
    await waitFor(
      () => summaries().filter((r) => r.status === 0).length >= 12 || undefined,
      'twelve summaries in flight at once',
      20_000,
    ).finally(() => ctx.service.setLatency(0));
    const probe = await openDashboard(ctx);
    const state = await settled(probe, 'the trend', (s) => s.trend.status === 'ready');
    assert.ok(state.trend.status === 'ready');
    const points = state.trend.data.points;
    assert.deepEqual(
      points.map((p) => p.period),
      Array.from({ length: 12 }, (_, i) => utcPeriod(i - 11)),
    );
    assert.deepEqual(
      points.map((p) => p.status),
      ['noData', 'noData', ...Array<string>(10).fill('data')],
      '404 before the account: no data, not an error',
    );
    for (const point of points.slice(2)) {
      assert.ok(point.status === 'data');
      const served = ctx.service.store.summary(point.period).usage;
      assert.equal(point.meters.calls.used, served.calls.used, `${point.period} calls`);
      assert.equal(point.meters.storage_gb.used, served.storage_gb.used, `${point.period} storage`);
    }
    // 12 summaries, the current one shared with the meters; all asked before any answered.
    const reads = summaries();
    assert.deepEqual(
      reads.map((r) => r.query.billingPeriod).sort(),
      points.map((p) => p.period).sort(),
      'each period once',
    );
    assert.equal(probe.trendRequests(), 12);
    assert.equal(probe.webviewErrors().length, 0);
  });

  it('keeps closed periods: opened again, only the current period is read', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Trend');
    const first = await openDashboard(ctx);
    await settled(first, 'the trend', (s) => s.trend.status === 'ready');
    first.close();
    ctx.service.clearRequests();
    // A closed period changed at the service would not be read again; the current one is.
    serveCalls(ctx, { used: 90_000, included: 100_000, overage: 0 });
    const probe = await openDashboard(ctx);
    const state = await settled(probe, 'the trend again', (s) => s.trend.status === 'ready');
    assert.deepEqual(
      summaries().map((r) => r.query.billingPeriod),
      [utcPeriod()],
      'one request: the current period',
    );
    assert.equal(probe.trendRequests(), 1);
    assert.ok(state.trend.status === 'ready');
    const last = state.trend.data.points.at(-1);
    assert.ok(last?.status === 'data' && last.meters.calls.used === 90_000, 'the current period is fresh');
  });

  it('projects the current period (labelled with its method) and never a closed one', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Trend');
    const probe = await openDashboard(ctx);
    const state = await settled(probe, 'all ready', (s) => s.summary.status === 'ready' && s.trend.status === 'ready');
    const projection = state.projection;
    assert.ok(projection, 'an estimate for the current period');
    assert.equal(projection.period, utcPeriod());
    assert.equal(projection.method, 'linear', 'the seeded records are a sample of the calls: linear');
    const calls = projection.meters.find((m) => m.meter === 'calls');
    const served = ctx.service.store.summary(utcPeriod()).usage.calls;
    assert.ok(calls);
    const expected = (served.used / projection.elapsedDays) * projection.totalDays;
    assert.ok(Math.abs(calls.projected - expected) < 1, `${calls.projected} ≈ ${expected}`);
    assert.equal(calls.overBy !== undefined, expected > served.included);
    const closed = await showPeriod(probe, utcPeriod(-1), 'the previous period');
    assert.equal(closed.projection, undefined, 'no estimate for a closed period');
  });

  it('filters the records of the whole period by key (from the per-key table), status class and text; export writes the filtered set', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Trend');
    const probe = await openDashboard(ctx);
    const ready = await settled(probe, 'all ready', (s) => s.keys.status === 'ready' && s.details.status === 'ready');
    const period = utcPeriod();
    const all = ctx.service.store.details(period);
    assert.ok(ready.keys.status === 'ready');
    const admin = ready.keys.data.rows.find((r) => r.current);
    assert.ok(admin, 'the admin key is in the table');
    ctx.service.clearRequests();
    await probe.receive({ type: 'filterKey', maskedKeyId: admin.maskedKeyId });
    const byKey = await settled(
      probe,
      'the key filter',
      (s) => s.details.status === 'ready' && s.details.data.filtered !== undefined,
    );
    const expected = all.filter((r) => r.keyId === 'key_admin');
    assert.ok(byKey.details.status === 'ready');
    assert.deepEqual(byKey.details.data.filtered, { matched: expected.length, total: all.length });
    assert.deepEqual(
      byKey.details.data.records.map((r) => r.id),
      expected.slice(0, 25).map((r) => r.id),
    );
    assert.equal(byKey.view.filter?.keyId, 'key_admin');
    assert.match(byKey.filterKeyName ?? '', /^Admin \(demo\) \(/);
    const pages = ctx.service.requests.filter((r) => r.path === '/v1/usage/details');
    assert.deepEqual(pages.map((r) => r.query.page).sort(), ['1', '2'], 'the whole period, every page once');

    await probe.receive({
      type: 'setFilter',
      filter: { keyId: 'key_admin', status: '2xx', column: 'endpoint', text: 'engagements' },
    });
    const narrow = await settled(
      probe,
      'the narrower filter',
      (s) => s.details.status === 'ready' && s.view.filter?.status === '2xx',
    );
    const want = expected.filter(
      (r) => Number(r.statusCode) >= 200 && Number(r.statusCode) < 300 && String(r.endpoint).includes('engagements'),
    );
    assert.ok(narrow.details.status === 'ready');
    assert.equal(narrow.details.data.filtered?.matched, want.length);
    assert.equal(
      ctx.service.requests.filter((r) => r.path === '/v1/usage/details').length,
      2,
      'filtered locally: no more reads',
    );

    const file = path.join(tmp, 'filtered.csv');
    ctx.ui.onSave(vscode.Uri.file(file));
    expectExported(ctx, file);
    await probe.receive({ type: 'export', format: 'csv' });
    await settled(probe, 'the export', (s) => s.export?.phase === 'done');
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\r\n');
    assert.equal(lines.length, want.length + 1, 'the file holds the filtered records');
    assert.deepEqual(new Set(lines.slice(1).map((l) => l.split(',')[0])), new Set(want.map((r) => r.id)));

    await probe.receive({ type: 'setFilter', filter: {} });
    const cleared = await settled(
      probe,
      'the filter cleared',
      (s) => s.details.status === 'ready' && s.details.data.filtered === undefined,
    );
    assert.equal(cleared.view.filter, undefined);
    assert.ok(cleared.details.status === 'ready' && cleared.details.data.totalCount === all.length);
  });

  it('a long read of the period shows progress and can be cancelled', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Trend');
    const many = Array.from({ length: 1000 }, (_, i) => ({
      id: `r${i}`,
      keyId: i % 2 ? 'key_ci' : 'key_admin',
      statusCode: 200,
    }));
    ctx.service.store.setDetails(utcPeriod(), many);
    const probe = await openDashboard(ctx);
    await settled(probe, 'ready', (s) => s.details.status === 'ready');
    ctx.service.faults.add({ kind: 'latency', path: '/usage/details', ms: 800 });
    ctx.service.clearRequests();
    const filtering = probe.receive({ type: 'setFilter', filter: { status: '2xx' } });
    await waitFor(() => posted(probe).scan?.phase === 'running', 'the progress of the read');
    await probe.receive({ type: 'cancelScan' });
    await filtering;
    const state = await settled(
      probe,
      'back to the pages',
      (s) => s.details.status === 'ready' && s.scan === undefined,
    );
    ctx.service.faults.clear();
    assert.equal(state.view.filter, undefined, 'the filter is dropped');
    assert.ok(
      state.details.status === 'ready' &&
        state.details.data.filtered === undefined &&
        state.details.data.totalCount === 1000,
    );
    assert.equal(ctx.ui.messages.filter((m) => m.level === 'error').length, 0, 'a cancel is not an error');
  });

  it('a key without usage:read leaves no tier, figures or "updated" time of the key before; switching period drops "Exported …"', async () => {
    const id = await useEnvironment(ctx, ctx.service.keys.admin, 'Trend');
    const probe = await openDashboard(ctx);
    await settled(probe, 'ready', (s) => s.summary.status === 'ready');
    const file = path.join(tmp, 'one.json');
    ctx.ui.onSave(vscode.Uri.file(file));
    expectExported(ctx, file);
    await probe.receive({ type: 'export', format: 'json' });
    await settled(probe, 'exported', (s) => s.export?.phase === 'done');
    const moved = await showPeriod(probe, utcPeriod(-1), 'the previous period');
    assert.equal(moved.export, undefined, 'the export line went with its period');

    ctx.ui.answer(ctx.service.keys.noUsage);
    await runCommand('replaceKey', id);
    const blocked = await settled(probe, 'the missing scope', (s) => s.blocked?.reason === 'forbidden');
    assert.equal(blocked.summary.data, undefined, 'no tier or figures of the earlier key');
    assert.equal(blocked.keys.data, undefined);
    assert.equal(blocked.updatedAt, undefined, 'no "updated" time');
    assert.equal(blocked.trend.data, undefined);
  });

  it('alerts once per environment, period, meter and threshold, only when turned on, and not again after "Don\'t Show Again"', async () => {
    await setSetting('usage.statusBar', false);
    await useEnvironment(ctx, ctx.service.keys.admin, 'Alerts');
    await usage().refreshStatusBar();
    assert.equal(usage().polling(), false, 'status bar and alerts off: nothing polls');
    ctx.service.clearRequests();
    await usage().refreshStatusBar();
    assert.equal(summaries().length, 0, 'and nothing is read');

    ctx.ui.onMessages(undefined);
    await setSetting('usage.alerts', true);
    await usage().refreshStatusBar();
    assert.equal(usage().polling(), true, 'alerts on: the interval runs');
    const alert = await waitFor(
      () => ctx.ui.messages.find((m) => m.text.includes('API calls reached')),
      'the calls alert',
    );
    assert.match(alert.text, /^Alerts: API calls reached 82% of the included amount in .+ \(82,140 of 100,000\)\./);
    assert.deepEqual(alert.actions, ['Open Usage Dashboard', "Don't Show Again for This Period"]);
    assert.equal(ctx.ui.messages.length, 1, 'one alert: webhooks and storage are below 80 %');

    // The next interval, and a dashboard's read of the same summary: nothing new.
    await usage().tick(usage().windowId, Date.now() + 16 * 60_000);
    const probe = await openDashboard(ctx);
    await settled(probe, 'ready', (s) => s.summary.status === 'ready');
    assert.deepEqual(
      ctx.ui.messages.map((m) => m.text),
      [alert.text],
      'shown once',
    );

    // Past 100 %: the next threshold, once; the user mutes the period.
    const current = ctx.service.store.summary(utcPeriod());
    serveCalls(ctx, { used: 101_000, included: 100_000, overage: 1_000 });
    ctx.ui.onMessages("Don't Show Again for This Period");
    await usage().tick(usage().windowId, Date.now() + 32 * 60_000);
    const over = await waitFor(() => ctx.ui.messages.find((m) => m.text.includes('reached 101%')), 'the 100 % alert');
    assert.equal(over.level, 'warning');
    await waitFor(() => over.chosen, 'the choice');
    // The choice is saved in the global state, where the next check reads it.
    const muted = `|${utcPeriod()}|muted`;
    await waitFor(
      () =>
        Object.values(ctx.exports.environments!.mementos()).some(
          (value) => typeof value === 'object' && value !== null && Object.keys(value).some((k) => k.endsWith(muted)),
        ),
      'the period muted in the global state',
    );
    ctx.service.store.setSummary(utcPeriod(), {
      ...current,
      usage: { ...current.usage, webhooks: { used: 19_000, included: 20_000, overage: 0 } },
    });
    await usage().tick(usage().windowId, Date.now() + 48 * 60_000);
    assert.equal(ctx.ui.messages.length, 2, 'muted for this period: no webhooks alert');
  });

  it("two windows read the summary once per interval: the second uses the first one's read", async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Shared');
    await usage().refreshStatusBar();
    const t0 = Date.now() + 60 * 60_000;
    const interval = 15 * 60_000;
    ctx.service.clearRequests();
    const counts = usage().pollCounts();
    await usage().tick('window-1', t0);
    await usage().tick('window-2', t0 + 5_000);
    await usage().tick('window-1', t0 + interval);
    await usage().tick('window-2', t0 + interval + 5_000);
    assert.equal(summaries().length, 2, 'two intervals, two windows: two reads');
    const after = usage().pollCounts();
    assert.deepEqual(
      { reads: after.reads - counts.reads, shared: after.shared - counts.shared },
      { reads: 2, shared: 2 },
    );
    assert.match(usage().statusBar().text, /calls \d+%/, 'the window that did not read shows the shared figure');
  });
});
