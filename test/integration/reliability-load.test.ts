// Load: 10,000 engagements and 10,000 usage records. The tree pages through all of them, a
// refresh re-reads them, the dashboard pages to the last record, the export writes them all;
// a command answers while a long listing runs. Heap use is measured and printed (a figure,
// not a timed assertion: this machine is shared).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import * as vscode from 'vscode';
import { pickByLabel, runCommand, tempFolder, useEnvironment, waitFor } from './support/helpers';
import { openDashboard, expectExported } from './support/dashboard';
import { figures, reliabilitySuite } from './support/reliabilityKit';

const COUNT = 10_000;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
/** Heap in use after a full garbage collection (what is kept, not garbage waiting to go). */
function heap(): number {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as (() => void) | undefined;
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** Watches the extension host's event loop while `work` runs: the longest it was blocked. */
async function loopDelayDuring<T>(work: () => Promise<T>): Promise<{ result: T; maxMs: number; p99Ms: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    const result = await work();
    return { result, maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6 };
  } finally {
    histogram.disable();
  }
}
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

describe('Reliability: load of 10,000 engagements and 10,000 records', function () {
  this.timeout(300_000);
  const settings = {
    'usage.statusBar': false,
    'engagements.pageSize': 100,
    'engagements.autoRefreshSeconds': undefined,
  };
  const { ctx, eng, usage } = reliabilitySuite(settings, async (context) => {
    await vscode.commands.executeCommand('workbench.view.explorer');
    context.service.setLatency(0);
  });
  const tmp = tempFolder('eus-load-');
  let heapBefore = 0;
  const measured = (name: string, value: string) => {
    figures().measured[name] = value;
  };

  before(async () => {
    ctx.service.store.seedEngagements(COUNT);
    const period = ctx.service.store.currentPeriod();
    const seeded = ctx.service.store.details(period);
    ctx.service.store.setDetails(
      period,
      Array.from({ length: COUNT }, (_, i) => ({
        ...seeded[i % seeded.length],
        id: `load_${String(i).padStart(5, '0')}`,
      })),
    );
    heapBefore = heap();
    measured('heap used before loading (after a full GC)', mb(heapBefore));
    await useEnvironment(ctx, ctx.service.keys.admin, 'Load');
    // The view is shown: VS Code asks for and renders the items as a person would see them.
    await vscode.commands.executeCommand('engagementUsage.engagements.focus');
    await waitFor(() => eng().visible(), 'the Engagements view');
  });
  it('the tree pages through 10,000 engagements (100 pages of 100), each once, then refreshes them all', async () => {
    await eng().tree();
    const started = Date.now();
    for (let page = 2; page <= 100 && eng().loaded().length < COUNT; page++) await runCommand('loadMoreEngagements');
    measured('tree: Load more to 10,000 engagements', seconds(Date.now() - started));
    const loaded = eng().loaded();
    assert.equal(loaded.length, COUNT);
    assert.equal(new Set(loaded.map((e) => e.id)).size, COUNT);
    const items = await eng().tree();
    assert.equal(items.filter((i) => i.kind === 'engagement').length, COUNT);
    assert.ok(!items.some((i) => i.kind === 'loadMore'));
    measured('heap used with 10,000 engagements in the tree (after a full GC)', mb(heap()));

    ctx.service.clearRequests();
    const refreshStarted = Date.now();
    await runCommand('refreshEngagements');
    measured('tree: refresh of 10,000 shown (100 pages)', seconds(Date.now() - refreshStarted));
    assert.equal(ctx.service.requests.filter((r) => r.path === '/v1/engagements').length, 100, 'every page read once');
    assert.equal(eng().loaded().length, COUNT);
    assert.equal(eng().message(), undefined);
  });

  it('a command answers while a long listing runs (100 pages, 300 ms each)', async () => {
    try {
      await sortAnswersDuringListing();
    } finally {
      // The sort is kept in the workspace state: the next suites start from the default order.
      ctx.service.setLatency(0);
      ctx.ui.answer(pickByLabel('Last Updated'));
      await runCommand('sortEngagements');
    }
  });

  async function sortAnswersDuringListing(): Promise<void> {
    ctx.service.setLatency(300);
    const { result, maxMs } = await loopDelayDuring(async () => {
      const refreshing = runCommand('refreshEngagements');
      await waitFor(
        () => ctx.service.requests.some((r) => r.path === '/v1/engagements' && r.status === 0),
        'the refresh to be under way',
      );
      const asked = Date.now();
      ctx.ui.answer(pickByLabel('Name'));
      await runCommand('sortEngagements');
      const answeredIn = Date.now() - asked;
      const stillListing =
        ctx.service.requests.filter((r) => r.path === '/v1/engagements' && r.status === 0).length > 0;
      await refreshing;
      return { answeredIn, stillListing };
    });
    const { answeredIn, stillListing } = result;
    ctx.service.setLatency(0);
    measured(
      'a command during a 100-page refresh answered in',
      `${answeredIn} ms (longest event-loop block during the refresh: ${Math.round(maxMs)} ms)`,
    );
    assert.ok(stillListing, 'the sort answered while pages were still being read');
    assert.equal(eng().query().sort, 'name');
    const names = (await eng().tree()).filter((i) => i.kind === 'engagement').map((i) => i.label);
    assert.equal(names.length, COUNT);
    assert.deepEqual(
      names.slice(0, 50),
      [...names].sort(new Intl.Collator(undefined, { sensitivity: 'base', numeric: true }).compare).slice(0, 50),
    );
  }

  it('the dashboard pages through 10,000 records: the last page holds the last records', async () => {
    const probe = await openDashboard(ctx);
    const records = ctx.service.store.details(ctx.service.store.currentPeriod());
    await probe.receive({ type: 'setPageSize', pageSize: 100 });
    const started = Date.now();
    await probe.receive({ type: 'setPage', page: 100 });
    await probe.idle();
    measured('dashboard: page 100 of 10,000 records', `${Date.now() - started} ms`);
    const state = probe.state();
    assert.ok(state.details.status === 'ready');
    assert.equal(state.details.data.totalCount, COUNT);
    assert.deepEqual(
      state.details.data.records.map((r) => r.id),
      records.slice(9_900).map((r) => r.id),
    );
    const posted = probe.lastMessage();
    assert.ok(
      posted?.type === 'update' && posted.state.details.status === 'ready' && posted.state.details.data.page === 100,
      'the webview was sent the page',
    );
    assert.deepEqual(probe.webviewErrors(), []);
  });

  it('exports all 10,000 records (concurrent pages) while the extension stays responsive', async () => {
    const probe = usage().dashboard()!;
    const records = ctx.service.store.details(ctx.service.store.currentPeriod());
    const file = path.join(tmp, 'all.csv');
    ctx.ui.onSave(vscode.Uri.file(file));
    expectExported(ctx, file);
    ctx.service.setLatency(100);
    ctx.service.clearRequests();
    const started = Date.now();
    const { result, maxMs } = await loopDelayDuring(async () => {
      const exporting = probe.receive({ type: 'export', format: 'csv' });
      await waitFor(
        () => probe.state().export?.phase === 'running' && (probe.state().export?.loaded ?? 0) > 0,
        'the export to be under way',
      );
      const asked = Date.now();
      await runCommand('clearEngagementFilter');
      const answeredIn = Date.now() - asked;
      const runningStill = probe.state().export?.phase === 'running';
      await exporting;
      await probe.idle();
      return { answeredIn, runningStill };
    });
    const { answeredIn, runningStill } = result;
    ctx.service.setLatency(0);
    measured('export: 10,000 records to CSV (100 ms latency per page)', seconds(Date.now() - started));
    measured(
      'a command during the export answered in',
      `${answeredIn} ms (longest event-loop block during the export: ${Math.round(maxMs)} ms)`,
    );
    assert.ok(runningStill, 'the command answered while the export was still running');
    assert.equal(probe.state().export?.phase, 'done');
    assert.equal(probe.state().export?.loaded, COUNT);
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\r\n');
    assert.equal(lines.length, COUNT + 1);
    assert.equal(new Set(lines.slice(1).map((l) => l.split(',')[0])).size, COUNT);
    assert.equal(lines[COUNT].split(',')[0], records[COUNT - 1].id);
    const pages = ctx.service.requests.filter((r) => r.path === '/v1/usage/details' && r.query.pageSize === '100');
    assert.equal(pages.length, 100, 'each page once');
    measured('export file size', mb(fs.statSync(file).size));
    const after = heap();
    measured('heap used after the load suite (after a full GC)', mb(after));
    measured('heap growth over the load suite (after a full GC)', mb(after - heapBefore));
  });
});
