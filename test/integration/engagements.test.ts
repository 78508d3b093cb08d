// The Engagements view inside a real VS Code, against the reference service over loopback:
// what the tree shows (icons, descriptions, tooltips), paging, sort/group/filter, details,
// refresh behaviour and the welcome states.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  clearEnvironments,
  commandId,
  pickByLabel,
  requestsBeforeMarker,
  useEnvironment,
  waitFor,
} from './support/helpers';
import { engagementsSuite } from './support/engagementsSuite';

describe('Engagements view', function () {
  const suite = engagementsSuite();
  this.timeout(60_000);
  const { eng, run, items, seeded, requests, state, test } = suite;

  test('shows the seeded engagements: name, icon and colour by status, description, tooltip', async () => {
    const shown = await items();
    assert.equal(shown.length, 25, 'the first page at once');
    assert.equal(state(), 'ready');
    const firstPage = seeded().slice(0, 25);
    assert.ok(
      firstPage.some((e) => !['active', 'completed'].includes(e.status)),
      'the seeded page has a status the contract does not name',
    );
    for (const item of shown) {
      const e = firstPage.find((x) => x.id === item.id);
      assert.ok(e, `${item.label} comes from the first page`);
      assert.equal(item.label, e.name);
      assert.match(item.contextValue ?? '', /\bengagement\b/);
      assert.ok(item.tooltip?.includes(`\`${e.id}\``), 'the tooltip has the id as code');
      assert.match(item.tooltip ?? '', /UTC \(.+\)/, 'times absolute and relative');
      const tail = `${e.type} · ${e.evaluationCount === 1 ? '1 evaluation' : `${e.evaluationCount} evaluations`} · updated `;
      if (e.status === 'active') {
        assert.deepEqual([item.icon, item.color], ['circle-large-filled', 'engagementUsage.status.active']);
        assert.ok(item.description?.startsWith(tail), item.description);
      } else if (e.status === 'completed') {
        assert.deepEqual([item.icon, item.color], ['pass-filled', 'engagementUsage.status.completed']);
        assert.ok(item.description?.startsWith(tail), item.description);
      } else {
        assert.deepEqual(
          [item.icon, item.color],
          ['circle-large-outline', undefined],
          'a neutral icon for an unknown status',
        );
        assert.ok(
          item.description?.startsWith(`${e.status} · ${tail}`),
          `the raw status is written out: ${item.description}`,
        );
      }
    }
    const updated = shown.map((i) => firstPage.find((e) => e.id === i.id)!.updatedAt);
    assert.deepEqual(updated, [...updated].sort().reverse(), 'most recently updated first');
  });

  test('pages through Load more… (shown of total)', async () => {
    const more = () =>
      eng()
        .tree()
        .then((t) => t.find((i) => i.kind === 'loadMore'));
    assert.equal((await more())?.label, 'Load more… (25 of 60)');
    assert.equal((await more())?.command, commandId('loadMoreEngagements'));
    await run('loadMoreEngagements');
    assert.equal((await more())?.label, 'Load more… (50 of 60)');
    await run('loadMoreEngagements');
    assert.equal((await items()).length, 60);
    assert.equal(await more(), undefined, 'no Load more once everything is shown');
    assert.deepEqual(
      requests('GET').map((r) => `${r.query.page}/${r.query.pageSize}`),
      ['2/25', '3/25'],
    );
  });

  test('sorts, groups and filters from the title menu; the description shows the filter; choices persist', async () => {
    await run('loadMoreEngagements');
    await run('loadMoreEngagements');
    suite.ctx.ui.answer(pickByLabel('Name'));
    await run('sortEngagements');
    const names = (await items()).map((i) => i.label);
    assert.deepEqual(
      names,
      [...names].sort(new Intl.Collator(undefined, { sensitivity: 'base', numeric: true }).compare),
    );
    suite.ctx.ui.answer(pickByLabel('Evaluations'));
    await run('sortEngagements');
    const counts = (await items()).map((i) => seeded().find((e) => e.id === i.id)!.evaluationCount);
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => b - a),
    );

    suite.ctx.ui.answer(pickByLabel('Group by Status'));
    await run('groupEngagements');
    const groups = await eng().tree();
    assert.deepEqual(
      groups.map((g) => g.label),
      ['active', 'completed', 'archived', 'paused'],
    );
    assert.deepEqual(
      groups.map((g) => g.icon),
      ['circle-large-filled', 'pass-filled', 'circle-large-outline', 'circle-large-outline'],
    );
    for (const group of groups) {
      assert.equal(group.description, String(seeded().filter((e) => e.status === group.label).length));
      assert.ok(group.children?.every((c) => seeded().find((e) => e.id === c.id)?.status === group.label));
    }
    suite.ctx.ui.answer(pickByLabel('Group by Type'));
    await run('groupEngagements');
    assert.deepEqual(
      (await eng().tree()).map((g) => g.label),
      [...new Set(seeded().map((e) => e.type))].sort(),
    );

    suite.ctx.ui.answer(pickByLabel('By Status'), (prompt) => {
      assert.ok(prompt.items?.includes('paused'), 'the statuses seen are offered');
      return ['paused', 'archived'];
    });
    await run('filterEngagements');
    suite.ctx.ui.answer(pickByLabel('No Grouping'));
    await run('groupEngagements');
    const filtered = await items();
    assert.equal(filtered.length, seeded().filter((e) => ['paused', 'archived'].includes(e.status)).length);
    assert.equal(eng().description(), `${filtered.length} of 60 match · status: paused, archived`);
    assert.equal(eng().contextValues()['engagementUsage.filtered'], true);
    const saved = suite.ctx.exports.environments!.mementos()['workspace:engagementUsage.engagements.query'] as Record<
      string,
      unknown
    >;
    assert.deepEqual(
      saved,
      { sort: 'evaluations', direction: 'desc', group: 'none', filter: { statuses: ['paused', 'archived'] } },
      'kept per workspace',
    );

    suite.ctx.ui.answer(pickByLabel('Name Contains'), 'no engagement is called this');
    await run('filterEngagements');
    assert.deepEqual(await items(), []);
    assert.equal(state(), 'noMatch', 'the welcome content offers to clear the filter');
    assert.equal(
      eng().description(),
      '0 of 60 match · status: paused, archived · name: "no engagement is called this"',
    );
    await run('clearEngagementFilter');
    assert.equal((await items()).length, 60);
    assert.equal(eng().description(), undefined);
    assert.equal(eng().contextValues()['engagementUsage.filtered'], false);
    assert.equal(state(), 'ready');
  });

  test('opens the details (GET by id) in one panel: every field and the actions; copies the id', async () => {
    const [target, second] = await items();
    assert.equal(target.command, commandId('openEngagement'), 'a click on the row opens the details');
    // The seed's dates are relative to now: this one is set to a fixed instant, so the date the
    // page shows is written out below (in English, VS Code's display language here).
    seeded().find((x) => x.id === target.id)!.createdAt = '2024-03-05T14:07:00.000Z';
    await run('openEngagement', target.id);
    assert.equal(requests('GET', `/v1/engagements/${target.id}`).length, 1);
    const shown = await waitFor(
      () => (eng().details()?.view?.id === target.id && !eng().details()?.view?.busy ? eng().details() : undefined),
      'the details panel',
    );
    const e = seeded().find((x) => x.id === target.id)!;
    const view = shown.view!;
    assert.equal(view.name, e.name);
    assert.deepEqual(
      view.fields.map((f) => f.label),
      ['ID', 'Type', 'Status', 'Evaluations', 'Created', 'Updated'],
    );
    assert.equal(view.fields[0].value, e.id);
    // A readable date in the display language, in UTC, and how long ago.
    assert.match(vscode.env.language, /^en\b/, 'the suite runs VS Code in English');
    assert.match(view.fields[4].value, /^Mar 5, 2024, 2:07\sPM UTC$/, 'the created date, in the display language');
    assert.match(view.fields[4].note ?? '', /ago$|^now$/, 'and how long ago');
    assert.deepEqual(view.actions, ['edit', 'changeStatus', 'copyId', 'copyLink', 'refresh', 'openUsageDashboard']);
    assert.ok(shown.ready, 'the webview said ready');

    // One reusable tab: the next engagement replaces the first.
    await run('openEngagement', second.id);
    await waitFor(() => eng().details()?.view?.id === second.id, 'the second engagement in the same panel');
    await eng().detailsMessage({ type: 'action', action: 'copyId' });
    assert.equal(await vscode.env.clipboard.readText(), second.id);
    eng().closeDetails();
    await run('copyEngagementId', target.id);
    assert.match(eng().notices().at(-1) ?? '', new RegExp(target.id ?? ''));
    assert.equal(await vscode.env.clipboard.readText(), target.id);
  });

  test('a failed refresh keeps the last good items and says why', async () => {
    const before = (await items()).map((i) => i.id);
    suite.ctx.service.faults.add({ method: 'GET', path: '/engagements', kind: 'status', status: 500 });
    await run('refreshEngagements');
    assert.deepEqual(
      (await items()).map((i) => i.id),
      before,
    );
    assert.match(eng().message() ?? '', /Could not refresh: The service failed \(HTTP 500\)/);
    assert.equal(state(), 'ready');
    suite.ctx.service.faults.clear();
    await run('refreshEngagements');
    assert.equal(eng().message(), undefined);
  });

  test('welcome states: no environment, key missing, no engagements, unreachable, key rejected', async () => {
    await clearEnvironments(suite.ctx.exports, suite.ctx.ui);
    await waitFor(() => state() === 'noEnvironment', 'the state noEnvironment');
    const config = vscode.workspace.getConfiguration('engagementUsage');
    // A label never given a key on this machine (another label is another environment id).
    await config.update(
      'environments',
      [{ label: 'Keyless', baseUrl: suite.ctx.service.baseUrl }],
      vscode.ConfigurationTarget.Global,
    );
    await waitFor(() => state() === 'keyMissing', 'the state keyMissing (environment from settings, no key here)');
    await useEnvironment(suite.ctx, suite.ctx.service.keys.admin);
    await eng().settled();
    assert.equal(state(), 'ready');

    suite.ctx.service.store.setEngagements([]);
    await run('refreshEngagements');
    assert.equal(state(), 'empty');
    assert.deepEqual(await eng().tree(), []);

    suite.ctx.service.faults.add({ path: '/engagements', kind: 'drop' });
    await run('refreshEngagements');
    assert.equal(state(), 'unreachable');
    assert.match(
      eng().message() ?? '',
      /The connection to 127\.0\.0\.1:\d+ closed before an answer came \(UND_ERR_SOCKET\)/,
    );
    suite.ctx.service.faults.clear();

    // The key is revoked on the service side: the next read is a 401.
    suite.ctx.service.store.removeKey('key_admin');
    await run('refreshEngagements');
    await eng().settled();
    assert.equal(state(), 'unauthorized');
    // The welcome says what to do; the service's own reason shows above it.
    assert.equal(eng().message(), 'The service said: “The API key is not valid”.');
  });

  test('refreshes when the view becomes visible with stale data, and on an interval only while visible', async () => {
    const config = vscode.workspace.getConfiguration('engagementUsage');
    await config.update('engagements.staleAfterSeconds', 0, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitFor(() => !eng().visible(), 'the view to be hidden');
    suite.ctx.service.clearRequests();
    await vscode.commands.executeCommand('engagementUsage.engagements.focus');
    await waitFor(() => requests('GET').length === 1, 'a refresh when the view became visible');
    await eng().settled();

    await config.update('engagements.autoRefreshSeconds', 1, vscode.ConfigurationTarget.Global);
    await waitFor(() => eng().autoRefreshRunning(), 'the interval to start');
    await waitFor(() => requests('GET').length >= 3, 'two refreshes by the interval', 5000);
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitFor(() => !eng().autoRefreshRunning(), 'the interval to stop when hidden');
    await eng().settled();
    suite.ctx.service.clearRequests();
    // Hidden, the interval is cleared (the seam says so where it is cleared): no tick is left to
    // come. A refresh started before it was cleared would be in the log ahead of the marker.
    assert.deepEqual(await requestsBeforeMarker(suite.ctx.service, 'hiding the view'), [], 'no refresh while hidden');
    assert.equal(eng().autoRefreshRunning(), false, 'still stopped');
    await config.update('engagements.autoRefreshSeconds', undefined, vscode.ConfigurationTarget.Global);
    await config.update('engagements.staleAfterSeconds', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('engagementUsage.engagements.focus');
    await waitFor(() => eng().visible(), 'the view to be visible again');
  });
});
