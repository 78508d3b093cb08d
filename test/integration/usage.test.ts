// The usage dashboard and the calls status-bar item, in the real extension host against the
// reference service. The webview's messages are driven through the panel's own handler
// (the one `onDidReceiveMessage` calls); `ready` comes from the real webview script.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { UsageExports } from '../../src/testing/usage';
import type { DashboardState } from '../../src/usage/protocol';
import { allReady, openDashboard, posted, serveCalls, settled, utcPeriod, expectExported } from './support/dashboard';
import { runCommand, setSetting, suiteContext, tempFolder, useEnvironment, waitFor } from './support/helpers';

describe('Usage dashboard', function () {
  this.timeout(60_000);
  const ctx = suiteContext({ afresh: true, settings: ['usage.statusBar'] });
  const tmp = tempFolder('eus-usage-');
  const usage = (): UsageExports => {
    assert.ok(ctx.exports.usage, 'the extension exports the usage feature');
    return ctx.exports.usage;
  };

  /** The ids of the records the details section shows. */
  const shownIds = (state: DashboardState) => (state.details.data?.records ?? []).map((r) => r.id);
  /** The ids of the service's records of `period` from `start` up to `end`. */
  const servedIds = (period: string, start: number, end: number) =>
    ctx.service.store
      .details(period)
      .slice(start, end)
      .map((r) => r.id);

  it("opens from the command and posts the service's summary, per-key and detail data of the current period", async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Demo');
    const probe = await openDashboard(ctx);
    const state = await settled(probe, 'all three sections ready', allReady);
    const period = utcPeriod();
    const store = ctx.service.store;
    assert.equal(probe.title, 'Usage: Demo');
    assert.equal(state.environment.label, 'Demo');
    assert.equal(state.view.period, period);
    assert.ok(state.updatedAt && Date.now() - state.updatedAt < 60_000);

    // Meters: the seeded figures of the current period.
    assert.ok(state.summary.status === 'ready');
    const expected = store.summary(period);
    assert.equal(state.summary.data.tier, expected.tier);
    const meters = Object.fromEntries(state.summary.data.meters.map((m) => [m.name, m]));
    assert.equal(meters.calls.used, expected.usage.calls.used);
    assert.equal(meters.calls.included, expected.usage.calls.included);
    assert.equal(meters.calls.level, 'warning', '82 % of calls is past the 80 % warning');
    assert.equal(meters.webhooks.used, expected.usage.webhooks.used);
    assert.equal(meters.storage_gb.used, expected.usage.storage_gb.used);
    assert.equal(meters.storage_gb.unit, 'gb');

    // Per-key rows: every key of the period, masked, the admin key marked as this environment's.
    assert.ok(state.keys.status === 'ready');
    const byKey = store.byKey(period);
    assert.deepEqual(new Set(state.keys.data.rows.map((r) => r.name)), new Set(byKey.map((k) => k.name)));
    assert.deepEqual(
      state.keys.data.rows.filter((r) => r.current).map((r) => r.name),
      ['Admin (demo)'],
    );
    const calls = state.keys.data.rows.map((r) => r.calls);
    assert.deepEqual(
      calls,
      [...calls].sort((a, b) => b - a),
      'sorted by calls, most first',
    );
    const shares = state.keys.data.rows.reduce((sum, r) => sum + r.share, 0);
    assert.ok(Math.abs(shares - 1) < 1e-9, 'shares add up to 100 %');

    // Details: the first page of the period's records, columns taken from the records.
    assert.ok(state.details.status === 'ready');
    const records = store.details(period);
    assert.equal(state.details.data.totalCount, records.length);
    assert.deepEqual(
      shownIds(state),
      records.slice(0, 25).map((r) => r.id),
    );
    for (const column of ['id', 'timestamp', 'keyId', 'endpoint', 'statusCode', 'meta'])
      assert.ok(state.details.data.columns.includes(column), column);

    // The webview ran under its CSP without errors; neither the key nor a full key id reached it.
    assert.deepEqual(probe.webviewErrors(), []);
    assert.match(probe.html(), /default-src 'none'/);
    const everything = JSON.stringify(probe.messages()) + probe.html();
    assert.ok(!everything.includes(ctx.service.keys.admin), 'the API key is never posted to the webview');
    assert.ok(!everything.includes('demo-admin'), 'no part of the secret is posted');
    assert.ok(
      state.keys.data.rows.every((r) => !byKey.some((k) => k.keyId === r.maskedKeyId)),
      'key ids are masked',
    );

    // Every usage request was made by the host with the environment's key.
    const usageRequests = ctx.service.requests.filter((r) => r.path.startsWith('/v1/usage/'));
    assert.ok(usageRequests.length >= 3);
    assert.ok(usageRequests.every((r) => r.authorization === `Bearer ${ctx.service.keys.admin}`));

    // Opening again reveals the same panel.
    await runCommand('openUsageDashboard');
    assert.equal(usage().dashboards().length, 1);
  });

  it('changing the period from the webview fetches that period; a future one is refused with a message', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Demo');
    const probe = await openDashboard(ctx);
    await settled(probe, 'the first load', allReady);
    const previous = utcPeriod(-1);
    ctx.service.clearRequests();

    await probe.receive({ type: 'setPeriod', period: previous });
    const state = await settled(
      probe,
      `the data of ${previous}`,
      (s) => allReady(s) && s.summary.data?.period === previous,
    );
    assert.equal(state.view.period, previous);
    const asked = ctx.service.requests.map((r) => `${r.path}?${r.query.billingPeriod}`);
    for (const endpoint of ['/v1/usage/summary', '/v1/usage/by-key', '/v1/usage/details'])
      assert.ok(asked.includes(`${endpoint}?${previous}`), `${endpoint} for ${previous} in ${asked.join(', ')}`);
    assert.ok(state.summary.status === 'ready' && state.details.status === 'ready' && state.keys.status === 'ready');
    const calls = state.summary.data.meters.find((m) => m.name === 'calls');
    const seeded = ctx.service.store.summary(previous).usage.calls;
    assert.equal(calls?.used, seeded.used);
    assert.equal(calls?.level, 'error', 'the previous period is over its included calls');
    assert.equal(calls?.overage, seeded.overage);
    assert.deepEqual(shownIds(state), servedIds(previous, 0, 25));

    // A future period: refused with a message, nothing requested, the period kept.
    ctx.service.clearRequests();
    const future = utcPeriod(2);
    await probe.receive({ type: 'setPeriod', period: future });
    const refused = await settled(probe, 'the notice', (s) => s.notice !== undefined);
    assert.match(refused.notice?.text ?? '', /not started yet/);
    assert.equal(refused.view.period, previous);
    assert.equal(ctx.service.requests.length, 0, 'no request for a future period');

    // A message outside the protocol is dropped.
    const before = probe.rejectedMessages();
    await probe.receive({ type: 'setPeriod', period: '2026-13' });
    await probe.receive({ type: 'command', command: 'workbench.action.terminal.new' });
    assert.equal(probe.rejectedMessages(), before + 2);
    assert.equal(ctx.service.requests.length, 0);
  });

  it('pages the detail records, changes the page size, and sorts the per-key table', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Demo');
    const probe = await openDashboard(ctx);
    await settled(probe, 'the first load', allReady);
    const records = ctx.service.store.details(utcPeriod());

    await probe.receive({ type: 'setPageSize', pageSize: 10 });
    await probe.receive({ type: 'setPage', page: 3 });
    const paged = await settled(
      probe,
      'page 3 of 10 records',
      (s) => s.details.status === 'ready' && s.details.data.page === 3 && s.details.data.pageSize === 10,
    );
    assert.ok(paged.details.status === 'ready');
    assert.deepEqual(
      shownIds(paged),
      records.slice(20, 30).map((r) => r.id),
    );
    assert.ok(
      ctx.service.requests.some(
        (r) => r.path === '/v1/usage/details' && r.query.page === '3' && r.query.pageSize === '10',
      ),
    );

    await probe.receive({ type: 'setPageSize', pageSize: 100 });
    const big = await settled(
      probe,
      'a page of 100',
      (s) => s.details.status === 'ready' && s.details.data.pageSize === 100,
    );
    assert.ok(big.details.status === 'ready');
    assert.equal(big.details.data.page, 1, 'the first record shown stays on the page');
    assert.equal(big.details.data.records.length, Math.min(100, records.length));

    await probe.receive({ type: 'sort', column: 'name', direction: 'asc' });
    const sorted = await settled(probe, 'rows by name', (s) => s.view.sort.column === 'name');
    assert.ok(sorted.keys.status === 'ready');
    const names = sorted.keys.data.rows.map((r) => r.name);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' })),
    );
  });

  it('exports every record of the period to CSV and to JSON, through concurrent paging', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Demo');
    const probe = await openDashboard(ctx);
    await settled(probe, 'the first load', allReady);
    const period = utcPeriod();
    const records = ctx.service.store.details(period);
    assert.ok(records.length > 100, 'the period has more records than one page holds');

    const csvFile = path.join(tmp, 'usage.csv');
    ctx.ui.onSave(vscode.Uri.file(csvFile));
    expectExported(ctx, csvFile, records.length);
    ctx.service.clearRequests();
    await probe.receive({ type: 'export', format: 'csv' });
    await probe.idle();
    const exported = await settled(probe, 'the export to finish', (s) => s.export?.phase === 'done');
    assert.equal(exported.export?.loaded, records.length);
    const lines = fs.readFileSync(csvFile, 'utf8').trimEnd().split('\r\n');
    assert.equal(lines.length, records.length + 1, 'a header and one line per record');
    assert.ok(lines[0].startsWith('id,'));
    const ids = new Set(lines.slice(1).map((line) => line.split(',')[0]));
    for (const record of records) assert.ok(ids.has(String(record.id)), `record ${String(record.id)} is in the file`);
    const pages = ctx.service.requests.filter(
      (r) => r.path === '/v1/usage/details' && r.query.billingPeriod === period,
    );
    assert.deepEqual(pages.map((r) => r.query.page).sort(), ['1', '2'], 'every page, read once, 100 at a time');
    assert.ok(pages.every((r) => r.query.pageSize === '100'));
    assert.ok(
      ctx.ui.messages.some((m) => m.level === 'info' && m.text.includes(`${records.length}`)),
      'the user is told',
    );

    const jsonFile = path.join(tmp, 'usage.json');
    ctx.ui.onSave(vscode.Uri.file(jsonFile));
    expectExported(ctx, jsonFile);
    await probe.receive({ type: 'export', format: 'json' });
    await probe.idle();
    const json = JSON.parse(fs.readFileSync(jsonFile, 'utf8')) as {
      billingPeriod: string;
      count: number;
      records: Array<Record<string, unknown>>;
    };
    assert.equal(json.billingPeriod, period);
    assert.equal(json.count, records.length);
    assert.deepEqual(json.records, records, 'the records exactly as the service sent them');

    // Dismissing the save dialog exports nothing.
    ctx.service.clearRequests();
    ctx.ui.onSave(undefined);
    await probe.receive({ type: 'export', format: 'csv' });
    await probe.idle();
    assert.equal(ctx.service.requests.length, 0);
  });

  it('cancelling an export stops its requests and writes no file', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Demo');
    const probe = await openDashboard(ctx);
    await settled(probe, 'the first load', allReady);
    const file = path.join(tmp, 'cancelled.csv');
    ctx.service.faults.add({ path: '/usage/details', kind: 'latency', ms: 1500 });
    ctx.ui.onSave(vscode.Uri.file(file));
    const exporting = probe.receive({ type: 'export', format: 'csv' });
    // Not `settled`: that waits for the export itself to end.
    await waitFor(() => posted(probe).export?.phase === 'running', 'the export to run');
    await probe.receive({ type: 'cancelExport' });
    await exporting;
    await probe.idle();
    const state = await settled(probe, 'the export to be cancelled', (s) => s.export?.phase === 'cancelled');
    assert.equal(state.export?.phase, 'cancelled');
    assert.equal(fs.existsSync(file), false, 'no file was written');
    const exportPages = ctx.service.requests.filter(
      (r) => r.path === '/v1/usage/details' && r.query.pageSize === '100',
    );
    // Cancelled while the first page was asked for (or, under load, before it left): no other page.
    assert.ok(
      exportPages.length <= 1 && exportPages.every((r) => r.query.page === '1'),
      `cancelled during the first page: no other page was asked for (${exportPages.map((r) => r.query.page).join(', ')})`,
    );
    assert.equal(ctx.ui.messages.filter((m) => m.level === 'error').length, 0, 'a cancel is not an error');
  });

  it('an older period without usage is shown as empty, not as an error', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Demo');
    const probe = await openDashboard(ctx);
    await settled(probe, 'the first load', allReady);
    const old = utcPeriod(-24);
    await probe.receive({ type: 'setPeriod', period: old });
    const state = await settled(probe, `the data of ${old}`, (s) => allReady(s) && s.summary.data?.period === old);
    assert.ok(state.summary.status === 'ready' && state.keys.status === 'ready' && state.details.status === 'ready');
    assert.ok(state.summary.data.meters.every((m) => m.used === 0 && m.level === 'normal'));
    assert.deepEqual(state.keys.data.rows, []);
    assert.equal(state.details.data.totalCount, 0);
    assert.equal(state.blocked, undefined);
  });

  it('a service that answers the previous period with the current figures: its sections say so, none shows them as the previous period', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Demo');
    const probe = await openDashboard(ctx);
    await settled(probe, 'the first load', allReady);
    const current = utcPeriod(0);
    const previous = utcPeriod(-1);
    ctx.service.faults.add({
      method: 'GET',
      path: '/usage/summary',
      kind: 'body',
      body: ctx.service.store.summary(current),
    });
    ctx.service.faults.add({
      method: 'GET',
      path: '/usage/by-key',
      kind: 'body',
      body: { billingPeriod: current, keys: ctx.service.store.byKey(current) },
    });
    await probe.receive({ type: 'setPeriod', period: previous });
    const state = await settled(
      probe,
      `the answers for ${previous}`,
      (s) => s.view.period === previous && s.summary.status === 'error' && s.keys.status === 'error',
    );
    const said = `The service answered with the figures of ${current} when ${previous} was asked; they are not shown as those of ${previous}.`;
    for (const section of [state.summary, state.keys]) {
      assert.ok(section.status === 'error');
      assert.equal(section.error.kind, 'otherPeriod');
      assert.equal(section.error.message, said);
      assert.equal(section.data, undefined, `no figures of ${current} under ${previous}`);
    }
    assert.equal(state.details.status, 'ready', 'the records, which name no period, are shown');
  });

  it('a key the service rejects is said so, with Replace API Key offered', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Demo');
    ctx.service.store.removeKey('key_admin');
    const probe = await openDashboard(ctx);
    const state = await settled(probe, 'the rejected key', (s) => s.blocked !== undefined);
    assert.equal(state.blocked?.reason, 'unauthorized');
    assert.match(state.blocked?.message ?? '', /rejected the API key of Demo \(401\)/);
    assert.match(
      state.blocked?.message ?? '',
      / The service said: “The API key is not valid”\.$/,
      'its reason after ours',
    );
    assert.deepEqual(state.blocked?.actions, ['replaceKey', 'showLogs']);
  });

  it('shows a server error in its section with Retry, and Retry loads it', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Demo');
    ctx.service.faults.add({ path: '/usage/details', kind: 'status', status: 500 });
    const probe = await openDashboard(ctx);
    const failed = await settled(probe, 'the details error', (s) => s.details.status === 'error');
    assert.ok(failed.details.status === 'error');
    assert.equal(failed.details.error.kind, 'server');
    assert.equal(failed.details.error.retryable, true);
    assert.match(failed.details.error.message, /500/);
    assert.equal(failed.summary.status, 'ready', 'the other sections still show');
    ctx.service.faults.clear();
    await probe.receive({ type: 'refresh' });
    await settled(probe, 'all ready after Retry', allReady);
  });

  it('says a key without usage:read lacks that scope, and hides the calls item', async () => {
    await useEnvironment(ctx, ctx.service.keys.noUsage, 'Bot');
    const probe = await openDashboard(ctx);
    const state = await settled(probe, 'the missing scope', (s) => s.blocked !== undefined);
    assert.equal(state.blocked?.reason, 'forbidden');
    assert.match(state.blocked?.message ?? '', /usage:read/);
    assert.match(state.blocked?.message ?? '', / The service said: “This API key lacks the scope usage:read”\.$/);
    assert.ok(state.blocked?.actions.includes('replaceKey'));
    assert.deepEqual(probe.webviewErrors(), []);
    await waitFor(
      () => ctx.exports.environments?.contextKeys()['engagementUsage.canReadUsage'] === false,
      'canReadUsage to turn false',
    );
    await usage().refreshStatusBar();
    assert.equal(usage().statusBar().visible, false);
  });

  it('the status bar shows `calls 82%` with the warning level, in the number format of the display language, and the setting turns it off', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Demo');
    await usage().refreshStatusBar();
    const view = usage().statusBar();
    assert.equal(view.visible, true);
    assert.equal(vscode.env.language, 'en', 'the suite runs VS Code in English');
    assert.match(view.text, /calls 82%$/);
    assert.equal(view.level, 'warning');
    // Each meter named in words, the period as a month, never the contract's field names.
    assert.match(view.tooltip, /Storage: /);
    assert.doesNotMatch(view.tooltip, /storage_gb|^calls:|^\d{4}-\d{2}/m);
    assert.match(view.tooltip, /^[A-Z][a-z]+ \d{4} · /);
    assert.match(view.tooltip, /API calls: 82,140 of 100,000 \(82%\)/);

    // For a user whose display language is German, the same figures in German number format.
    ctx.exports.useLocale('de');
    try {
      await usage().refreshStatusBar();
      assert.match(usage().statusBar().text, /calls 82\u00a0%$/);
      assert.match(usage().statusBar().tooltip, /API calls: 82\.140 of 100\.000 \(82\u00a0%\)/);
    } finally {
      ctx.exports.useLocale();
    }
    await usage().refreshStatusBar();
    assert.match(usage().statusBar().text, /calls 82%$/, 'English again');

    await setSetting('usage.statusBar', false);
    await waitFor(() => !usage().statusBar().visible, 'the item to hide');
    await setSetting('usage.statusBar', undefined);
    await waitFor(() => usage().statusBar().visible, 'the item to come back');

    // Over the included calls: the error level.
    serveCalls(ctx, { used: 112_000, included: 100_000, overage: 12_000 });
    await usage().refreshStatusBar();
    assert.match(usage().statusBar().text, /calls 112%$/);
    assert.equal(usage().statusBar().level, 'error');
  });

  it('is restored from its saved state (as after a reload) with the period, sort and page kept', async () => {
    const envId = await useEnvironment(ctx, ctx.service.keys.admin, 'Demo');
    const previous = utcPeriod(-1);
    const probe = await usage().restore({
      environmentId: envId,
      period: previous,
      sort: { column: 'lastUsedAt', direction: 'asc' },
      page: 2,
      pageSize: 50,
    });
    assert.ok(probe, 'a dashboard was restored');
    await waitFor(() => probe.ready, 'the restored webview to start', 20_000);
    const state = await settled(probe, 'the restored data', allReady);
    assert.deepEqual(state.view, {
      environmentId: envId,
      period: previous,
      sort: { column: 'lastUsedAt', direction: 'asc' },
      page: 2,
      pageSize: 50,
    });
    assert.ok(state.details.status === 'ready');
    assert.deepEqual(shownIds(state), servedIds(previous, 50, 100));
    assert.equal(probe.title, 'Usage: Demo');
    // A second restore of the same environment does not open a second panel.
    assert.equal(await usage().restore({ environmentId: envId }), undefined);
    assert.equal(usage().dashboards().length, 1);
  });
});
