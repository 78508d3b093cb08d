// Paging when the service misbehaves: a page of 10,000 items where 25 were asked for, a
// totalCount that changes while pages are read, and the same id on several pages. The tree,
// the dashboard and the export each show every id once and say how many there are.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { DashboardProbe } from '../../src/testing/usage';
import type { DashboardState } from '../../src/usage/protocol';
import type { Engagement } from '../service/types';
import { runCommand, tempFolder, useEnvironment } from './support/helpers';
import { allReady, openDashboard, expectExported } from './support/dashboard';
import { figures, reliabilitySuite } from './support/reliabilityKit';

describe('Reliability: paging anomalies', function () {
  this.timeout(120_000);
  const { ctx, eng, usage } = reliabilitySuite({ 'usage.statusBar': false });
  const tmp = tempFolder('eus-paging-');
  const loadMoreLabel = async () => (await eng().tree()).find((i) => i.kind === 'loadMore')?.label;
  const ids = () =>
    eng()
      .loaded()
      .map((e) => e.id);
  const unique = (list: string[]) => new Set(list).size === list.length;
  async function exportCsv(probe: DashboardProbe, name: string): Promise<string[]> {
    const file = path.join(tmp, name);
    ctx.ui.onSave(vscode.Uri.file(file));
    expectExported(ctx, file);
    await probe.receive({ type: 'export', format: 'csv' });
    await probe.idle();
    assert.equal(probe.state().export?.phase, 'done', `the export finished: ${JSON.stringify(probe.state().export)}`);
    return fs.readFileSync(file, 'utf8').trimEnd().split('\r\n').slice(1);
  }

  /**
   * Exports every record of the period from a dashboard opened over `records`; once the
   * export has read its first page (of 100), the service holds `later` instead.
   */
  async function exportWhileRecordsChange(
    records: Array<Record<string, unknown>>,
    later: Array<Record<string, unknown>>,
    name: string,
  ): Promise<string[]> {
    const period = ctx.service.store.currentPeriod();
    ctx.service.store.setDetails(period, records);
    const probe = await openDashboard(ctx);
    ctx.service.faults.add({
      method: 'GET',
      path: /^\/usage\/details$/,
      kind: 'transform',
      times: 1,
      transform: (body, query) => {
        if (query.pageSize === '100') ctx.service.store.setDetails(period, later);
        return body;
      },
    });
    ctx.service.clearRequests();
    return exportCsv(probe, name);
  }

  before(async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Paging');
  });
  beforeEach(async () => {
    ctx.service.reset();
    for (const d of usage().dashboards()) d.close();
    // Entering the key again starts the view afresh (one page), as after any key change.
    await useEnvironment(ctx, ctx.service.keys.admin, 'Paging');
    await eng().tree();
    ctx.service.clearRequests();
    ctx.ui.messages.length = 0;
  });
  afterEach(() => {
    figures().faultsTried += 1;
  });

  it('a page of 10,000 engagements where 25 were asked for: each once, 1,000 rows at a time, nothing more to load', async () => {
    ctx.service.store.seedEngagements(10_000);
    const all = ctx.service.store.engagements;
    ctx.service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      times: 1,
      transform: (body) => ({ ...(body as object), data: all }),
    });
    await runCommand('refreshEngagements');
    const shown = ids();
    assert.equal(shown.length, 10_000);
    assert.ok(unique(shown));
    assert.equal(eng().totalCount(), 10_000);
    assert.equal(eng().message(), undefined);
    assert.equal(await loadMoreLabel(), undefined, 'everything is shown: no "Load more… (10,000 of 10,000)"');
    const tree = await eng().tree();
    assert.equal(tree.filter((i) => i.kind === 'engagement').length, 1000, 'the tree lists the first 1,000');
    assert.equal(tree.at(-1)?.label, 'Show 1,000 more… (1,000 of 10,000)');
  });

  it('the dashboard shows at most a page of records when the service sends 10,000 for a page of 25', async () => {
    const period = ctx.service.store.currentPeriod();
    const records = Array.from({ length: 10_000 }, (_, i) => ({ id: `rec_${i}`, units: 1 }));
    ctx.service.store.setDetails(period, records);
    ctx.service.faults.add({
      method: 'GET',
      path: /^\/usage\/details$/,
      kind: 'transform',
      times: 1,
      transform: (body) => ({ ...(body as object), data: records }),
    });
    const probe = await openDashboard(ctx);
    const state = probe.state();
    assert.ok(allReady(state));
    assert.ok(state.details.status === 'ready');
    assert.equal(state.details.data.totalCount, 10_000);
    assert.deepEqual(
      state.details.data.records.map((r) => r.id),
      records.slice(0, 25).map((r) => r.id),
      'the first 25 records: a page is a page',
    );
    assert.deepEqual(probe.webviewErrors(), []);
  });

  it('engagements created while paging (totalCount grows, items shift to the next page): each shown once, the count follows', async () => {
    assert.equal(await loadMoreLabel(), 'Load more… (25 of 60)');
    // Five engagements are created elsewhere: page 2 now starts with five of page 1.
    for (let i = 0; i < 5; i++)
      ctx.service.store.createEngagement({ name: `Created meanwhile ${i}`, type: 'onboarding' });
    await runCommand('loadMoreEngagements');
    const shown = ids();
    assert.ok(unique(shown), 'an engagement that moved to the next page is not shown twice');
    assert.equal(shown.length, 45);
    assert.equal(await loadMoreLabel(), 'Load more… (45 of 65)', 'the new total is shown');
    await runCommand('loadMoreEngagements');
    await runCommand('loadMoreEngagements');
    await runCommand('refreshEngagements');
    assert.deepEqual(
      new Set(ids()),
      new Set(ctx.service.store.engagements.map((e) => e.id)),
      'after a refresh every engagement is there',
    );
    assert.ok(unique(ids()));
  });

  it('engagements removed while paging (totalCount shrinks): no empty page asked for in a loop, no Load more left', async () => {
    ctx.service.store.setEngagements(ctx.service.store.engagements.slice(0, 30));
    await runCommand('loadMoreEngagements');
    assert.equal(ids().length, 30);
    assert.equal(await loadMoreLabel(), undefined);
    assert.equal(ctx.service.requests.filter((r) => r.path === '/v1/engagements').length, 1);
  });

  it('the same id on two pages, and twice on one page: the tree shows it once and does not fail', async () => {
    const list = ctx.service.store.engagements;
    const twin: Engagement = { ...list[30], name: 'Twin on page 2' };
    const copies = [
      ...list.slice(0, 5),
      { ...list[2], name: 'Twin on page 1' },
      ...list.slice(5, 30),
      twin,
      ...list.slice(30),
    ];
    ctx.service.store.setEngagements(copies);
    await runCommand('refreshEngagements');
    await runCommand('loadMoreEngagements');
    await runCommand('loadMoreEngagements');
    const shown = ids();
    assert.ok(unique(shown), 'each id once');
    assert.equal(shown.length, 60);
    const items = await eng().tree();
    assert.ok(
      unique(items.filter((i) => i.kind === 'engagement').map((i) => i.id!)),
      'tree items have unique ids (VS Code refuses duplicates)',
    );
    assert.equal(eng().message(), undefined);
  });

  it('export: totalCount grows while reading pages: the extra pages are read, every record once', async () => {
    const first = Array.from({ length: 150 }, (_, i) => ({ id: `grow_${i}`, units: 1 }));
    const extra = Array.from({ length: 100 }, (_, i) => ({ id: `late_${i}`, units: 2 }));
    // Page 1 of the export says 150; records arrive meanwhile and later pages say 250.
    const lines = await exportWhileRecordsChange(first, [...first, ...extra], 'grow.csv');
    const exported = lines.map((l) => l.split(',')[0]);
    assert.equal(exported.length, 250, 'every record, including those added while paging');
    assert.ok(unique(exported));
    const pages = ctx.service.requests
      .filter((r) => r.path === '/v1/usage/details' && r.query.pageSize === '100')
      .map((r) => r.query.page)
      .sort();
    assert.deepEqual(pages, ['1', '2', '3'], 'one more page was read, each page once');
  });

  it('export: totalCount shrinks while reading pages: what was read is written, no page asked for twice', async () => {
    const records = Array.from({ length: 250 }, (_, i) => ({ id: `shrink_${i}`, units: 1 }));
    const exported = (await exportWhileRecordsChange(records, records.slice(0, 120), 'shrink.csv')).map(
      (l) => l.split(',')[0],
    );
    assert.equal(exported.length, 120);
    assert.ok(unique(exported));
    const pages = ctx.service.requests
      .filter((r) => r.path === '/v1/usage/details' && r.query.pageSize === '100')
      .map((r) => r.query.page);
    assert.ok(unique(pages), `each page once: ${pages.join(', ')}`);
  });

  it('export: the same record id on two pages is written once', async () => {
    const period = ctx.service.store.currentPeriod();
    const records = Array.from({ length: 180 }, (_, i) => ({ id: `dup_${i % 150}`, units: 1 }));
    ctx.service.store.setDetails(period, records);
    const probe = await openDashboard(ctx);
    const exported = (await exportCsv(probe, 'dups.csv')).map((l) => l.split(',')[0]);
    assert.equal(exported.length, 150);
    assert.ok(unique(exported));
  });

  /** The dashboard over 260 records of the period, each page of them answered through `transform`. */
  async function dashboardOver260(transform: (body: unknown) => unknown): Promise<DashboardProbe> {
    const period = ctx.service.store.currentPeriod();
    const records = Array.from({ length: 260 }, (_, i) => ({ id: `rec_${String(i).padStart(3, '0')}`, units: 1 }));
    ctx.service.store.setDetails(period, records);
    ctx.service.faults.add({ method: 'GET', path: /^\/usage\/details$/, kind: 'transform', transform });
    return openDashboard(ctx);
  }

  /** Asks the records section for `page` and waits until it shows a page again. */
  async function showPage(probe: DashboardProbe, page: number): Promise<DashboardState> {
    await probe.receive({ type: 'setPage', page });
    await probe.idle();
    const state = probe.state();
    assert.ok(state.details.status === 'ready', `page ${page} ready: ${JSON.stringify(state.details.status)}`);
    return state;
  }
  const shownIds = (state: DashboardState) => (state.details.data?.records ?? []).map((r) => String(r.id));
  const expectedIds = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => `rec_${String(from + i).padStart(3, '0')}`);

  it('a service sending all 260 records as a bare array for every page: page 2 shows records 26–50 of 260, not page 1 again, and export writes each once', async () => {
    const period = ctx.service.store.currentPeriod();
    const probe = await dashboardOver260(() => ctx.service.store.details(period));
    const first = probe.state();
    assert.ok(allReady(first) && first.details.status === 'ready');
    assert.deepEqual([first.details.data.page, first.details.data.totalCount], [1, 260]);
    const second = await showPage(probe, 2);
    assert.deepEqual(shownIds(second), expectedIds(25, 50), 'page 2 is records 26–50');
    assert.equal(second.details.data?.totalCount, 260, 'of 260, as counted (not 286)');
    const exported = (await exportCsv(probe, 'whole.csv')).map((l) => l.split(',')[0]);
    assert.equal(exported.length, 260);
    assert.ok(unique(exported));
    assert.ok(
      ctx.service.requests.every((r) => r.path !== '/v1/usage/details' || Number(r.query.pageSize) <= 100),
      'no page size above 100 asked',
    );
    assert.deepEqual(probe.webviewErrors(), []);
  });

  it('a service paging bare arrays without a total: no total shown until the end is known, then 260 as counted; a restored page 98 shows page 11', async () => {
    const probe = await dashboardOver260((body) => (body as { data: unknown[] }).data);
    const first = probe.state();
    assert.ok(allReady(first) && first.details.status === 'ready');
    assert.equal(first.details.data.totalCount, undefined, 'no "of N" on page 1');
    assert.equal(first.details.data.hasNext, true);
    const second = await showPage(probe, 2);
    assert.deepEqual(shownIds(second), expectedIds(25, 50));
    assert.equal(second.details.data?.totalCount, undefined, 'records 26–50, not "of 51"');
    const past = await showPage(probe, 98);
    assert.equal(past.details.data?.page, 11, 'the last page, not "page 98 of 97"');
    assert.deepEqual(shownIds(past), expectedIds(250, 260));
    assert.deepEqual([past.details.data?.totalCount, past.details.data?.hasNext], [260, false]);
    assert.deepEqual(probe.webviewErrors(), []);
  });
});
