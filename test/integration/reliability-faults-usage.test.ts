// Every fault against every usage endpoint, as the features call them: the dashboard's three
// sections (GET /usage/summary, /usage/by-key, /usage/details), the export of every record
// (GET /usage/details, all pages) and the calls status-bar item (GET /usage/summary).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { DashboardProbe } from '../../src/testing/usage';
import type { DashboardState } from '../../src/usage/protocol';
import { dropLeftoverAnswers, setSetting, tempFolder, useEnvironment, waitFor } from './support/helpers';
import { FAULTS, TIMEOUT_SECONDS, countFault, expectGetBound, requestsTo } from './support/reliabilityFaults';
import { allReady, openDashboard, expectExported } from './support/dashboard';
import { reliabilitySuite } from './support/reliabilityKit';

type SectionName = 'summary' | 'keys' | 'details';
const SECTIONS: Array<{ name: SectionName; endpoint: string }> = [
  { name: 'summary', endpoint: '/usage/summary' },
  { name: 'keys', endpoint: '/usage/by-key' },
  { name: 'details', endpoint: '/usage/details' },
];

/** What a section shows, without what changes on its own (live call counts). */
function shown(state: DashboardState, name: SectionName): unknown {
  const data = state[name].data;
  if (!data) return undefined;
  if ('meters' in data) return data.meters;
  if ('rows' in data) return data.rows.map((r) => r.name).sort();
  return data.records.map((r) => r.id);
}

/** Every period of the trend read (data, or none): the closed ones are stored, not read again. */
function trendStored(state: DashboardState): boolean {
  const points = state.trend.status === 'ready' ? state.trend.data?.points : undefined;
  return points !== undefined && points.every((p) => p.status !== 'error');
}

describe('Reliability: faults against the usage endpoints', function () {
  this.timeout(60_000);
  // The status bar reads the summary on its own; it is tried separately below.
  // The short request timeout is set once the dashboard has read the trend (below); the suite
  // removes it after its tests.
  const { ctx, usage } = reliabilitySuite({ requestTimeoutSeconds: undefined, 'usage.statusBar': false });
  const tmp = tempFolder('eus-reliability-');
  let probe: DashboardProbe;
  const count = (endpoint: string) => requestsTo(ctx.service.requests, 'GET', new RegExp(`^${endpoint}$`)).length;

  async function refreshed(): Promise<DashboardState> {
    await probe.receive({ type: 'refresh' });
    await probe.idle();
    return probe.state();
  }

  before(async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Usage faults');
    // Each test counts the summary reads of one refresh: the current period only, once the
    // trend's closed periods are stored. The dashboard opens under the default timeout, so its
    // 12 trend reads at once cannot fail on a busy host (a period whose read failed is not
    // stored, and the first test's refresh would read it again); the suite's 2 s timeout
    // applies once every period is stored.
    probe = await openDashboard(ctx);
    assert.ok(allReady(probe.state()), 'the dashboard loaded');
    await waitFor(() => trendStored(probe.state()), 'every period of the trend read once (stored)');
    await setSetting('requestTimeoutSeconds', TIMEOUT_SECONDS);
    await waitFor(
      () => vscode.workspace.getConfiguration('engagementUsage').get('requestTimeoutSeconds') === TIMEOUT_SECONDS,
      'the extension host to see the 2 s timeout',
    );
  });
  beforeEach(async () => {
    ctx.service.faults.clear();
    // A failed test must not leave the next one an errored section.
    if (probe.ready && !allReady(probe.state())) await refreshed();
    ctx.service.clearRequests();
    ctx.ui.messages.length = 0;
  });
  afterEach(function () {
    ctx.service.faults.clear();
    // What a failed test left queued must not answer the next test's messages and save dialogs.
    dropLeftoverAnswers(ctx, this.currentTest)();
  });

  for (const { name, endpoint } of SECTIONS) {
    describe(`GET ${endpoint}: the dashboard's ${name} section`, () => {
      for (const fault of FAULTS) {
        it(fault.name, async () => {
          countFault();
          const before = probe.state();
          assert.ok(allReady(before));
          ctx.service.faults.add({ ...fault.rule, method: 'GET', path: new RegExp(`^${endpoint}$`) });
          const state = await refreshed();
          const section = state[name];
          assert.ok(section.status === 'error', `the ${name} section failed: ${section.status}`);
          assert.equal(section.error.kind, fault.kind);
          assert.match(section.error.message, fault.said);
          assert.equal(section.error.retryable, true, 'the section offers Retry');
          assert.deepEqual(shown(state, name), shown(before, name), 'the data on screen stays');
          for (const other of SECTIONS.filter((s) => s.name !== name))
            assert.equal(state[other.name].status, 'ready', `${other.name} still shows`);
          const posted = probe.lastMessage();
          assert.ok(posted?.type === 'update' && posted.state[name].status === 'error', 'the webview was told');
          expectGetBound(count(endpoint), fault);
          assert.deepEqual(probe.webviewErrors(), []);
          // Retry (the section's button sends `refresh`).
          ctx.service.faults.clear();
          assert.ok(allReady(await refreshed()), 'Retry loads it');
        });
      }
    });
  }

  describe('GET /usage/details (every page): exporting the records', () => {
    FAULTS.forEach((fault, index) => {
      it(fault.name, async () => {
        countFault();
        const records = ctx.service.store.details(probe.state().view.period);
        const file = path.join(tmp, `export-${index}.csv`);
        ctx.ui.onSave(vscode.Uri.file(file));
        expectExported(ctx, file);
        ctx.service.faults.add({ ...fault.rule, method: 'GET', path: /^\/usage\/details$/ });
        let seen: { text: string; actions: string[]; requests: number; phase?: string; detail?: string } | undefined;
        ctx.ui.onMessages((m) => {
          const exported = probe.state().export;
          seen = {
            text: m.text,
            actions: m.actions,
            requests: count('/usage/details'),
            phase: exported?.phase,
            detail: exported?.detail,
          };
          ctx.service.faults.clear();
          return 'Retry';
        });
        await probe.receive({ type: 'export', format: 'csv' });
        await waitFor(
          () => seen !== undefined && probe.state().export?.phase === 'done',
          'the export to fail, then finish after Retry',
          30_000,
        );
        assert.ok(seen, 'an error was shown');
        assert.ok(seen.text.startsWith('Could not export the usage records. '), seen.text);
        assert.match(seen.text, fault.said);
        assert.deepEqual(seen.actions, ['Retry', 'Show Logs']);
        assert.equal(seen.phase, 'failed', 'the panel said the export failed');
        assert.match(seen.detail ?? '', fault.said);
        expectGetBound(seen.requests, fault);
        assert.equal(
          fs.readFileSync(file, 'utf8').trimEnd().split('\r\n').length,
          records.length + 1,
          'Retry wrote every record to the file chosen once',
        );
        assert.ok(allReady(probe.state()), 'the dashboard kept its data');
      });
    });
  });

  describe('GET /usage/summary: the calls status-bar item', () => {
    before(async () => {
      probe.close();
      await setSetting('usage.statusBar', true);
      await waitFor(async () => {
        await usage().refreshStatusBar();
        return usage().statusBar().visible;
      }, 'the status bar item');
    });
    for (const fault of FAULTS) {
      it(fault.name, async () => {
        countFault();
        const before = usage().statusBar();
        assert.match(before.text, /calls \d+%$/);
        ctx.service.clearRequests();
        ctx.service.faults.add({ ...fault.rule, method: 'GET', path: /^\/usage\/summary$/ });
        await usage().refreshStatusBar();
        const after = usage().statusBar();
        assert.equal(after.visible, true);
        assert.equal(after.text, before.text, 'the last figure stays');
        assert.match(after.tooltip, /⚠ Could not refresh: /);
        assert.match(after.tooltip, fault.said);
        expectGetBound(count('/usage/summary'), fault);
        ctx.service.faults.clear();
        await usage().refreshStatusBar();
        assert.ok(!usage().statusBar().tooltip.includes('⚠'), 'the warning goes once a refresh works');
      });
    }
  });
});
