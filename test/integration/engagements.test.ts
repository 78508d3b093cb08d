// The Engagements view inside a real VS Code, against the reference service over loopback:
// what the tree shows, paging, sort/group/filter, create and update through the same input
// flows a person answers (ScriptedUi), conflicts, failures with Retry, and read-only keys.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { BACK, type TestContext, clearEnvironments, pickByLabel, setup, teardown, useEnvironment, waitFor } from './helpers';

const C = (name: string) => `engagementUsage.${name}`;

describe('Engagements view', function () {
  this.timeout(60_000);
  let ctx: TestContext;

  const eng = () => ctx.exports.engagements!;
  const run = (command: string, ...args: unknown[]) => vscode.commands.executeCommand(C(command), ...args);
  const items = async () => (await eng().tree()).filter((i) => i.kind === 'engagement');
  const seeded = () => ctx.service.store.engagements;
  const requests = (method: string, path = '/v1/engagements') => ctx.service.requests.filter((r) => r.method === method && (path.endsWith('/') ? r.path.startsWith(path) : r.path === path));
  const state = () => eng().contextValues()['engagementUsage.state'];
  const patches = () => ctx.service.requests.filter((r) => r.method === 'PATCH');

  async function resetView(): Promise<void> {
    await run('clearEngagementFilter');
    ctx.ui.answer(pickByLabel('No Grouping'));
    await run('groupEngagements');
    ctx.ui.answer(pickByLabel('Last Updated'));
    await run('sortEngagements');
    if (eng().query().direction !== 'desc') {
      ctx.ui.answer(pickByLabel('Reverse Order'));
      await run('sortEngagements');
    }
  }

  before(async () => {
    ctx = await setup();
    await useEnvironment(ctx, ctx.service.keys.admin);
    await vscode.commands.executeCommand('engagementUsage.engagements.focus');
    await waitFor(() => eng().visible(), 'the Engagements view to be visible');
  });
  after(async () => {
    // Leave the view hidden: a visible view loads on every environment change, and other
    // suites count the requests they cause.
    await vscode.commands.executeCommand('workbench.view.explorer');
    await vscode.workspace.getConfiguration('engagementUsage').update('engagements.autoRefreshSeconds', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('engagementUsage').update('engagements.staleAfterSeconds', undefined, vscode.ConfigurationTarget.Global);
    await teardown(ctx);
  });
  beforeEach(async () => {
    ctx.service.reset();
    if (ctx.exports.environments?.contextKeys()['engagementUsage.canWrite'] !== true) await useEnvironment(ctx, ctx.service.keys.admin);
    await resetView();
    await run('refreshEngagements');
    ctx.service.clearRequests();
    ctx.ui.prompts.length = 0;
    ctx.ui.messages.length = 0;
  });
  afterEach(() => {
    assert.equal(ctx.ui.pending, 0, 'every scripted answer was used');
  });

  it('shows the seeded engagements: name, icon and colour by status, description, tooltip', async () => {
    const shown = await items();
    assert.equal(shown.length, 25, 'the first page at once');
    assert.equal(state(), 'ready');
    const firstPage = seeded().slice(0, 25);
    assert.ok(firstPage.some((e) => !['active', 'completed'].includes(e.status)), 'the seeded page has a status the contract does not name');
    for (const item of shown) {
      const e = firstPage.find((x) => x.id === item.id);
      assert.ok(e, `${item.label} comes from the first page`);
      assert.equal(item.label, e.name);
      assert.match(item.contextValue ?? '', /\bengagement\b/);
      assert.ok(item.tooltip?.includes(`\`${e.id}\``), 'the tooltip has the id as code');
      assert.match(item.tooltip ?? '', /UTC \(.+\)/, 'times absolute and relative');
      const tail = `${e.type} · ${e.evaluationCount === 1 ? '1 evaluation' : `${e.evaluationCount.toLocaleString('en-US')} evaluations`} · updated `;
      if (e.status === 'active') {
        assert.deepEqual([item.icon, item.color], ['circle-large-filled', 'engagementUsage.status.active']);
        assert.ok(item.description?.startsWith(tail), item.description);
      } else if (e.status === 'completed') {
        assert.deepEqual([item.icon, item.color], ['pass-filled', 'engagementUsage.status.completed']);
        assert.ok(item.description?.startsWith(tail), item.description);
      } else {
        assert.deepEqual([item.icon, item.color], ['circle-large-outline', undefined], 'a neutral icon for an unknown status');
        assert.ok(item.description?.startsWith(`${e.status} · ${tail}`), `the raw status is written out: ${item.description}`);
      }
    }
    const updated = shown.map((i) => firstPage.find((e) => e.id === i.id)!.updatedAt);
    assert.deepEqual(updated, [...updated].sort().reverse(), 'most recently updated first');
  });

  it('pages through Load more… (shown of total)', async () => {
    const more = () => eng().tree().then((t) => t.find((i) => i.kind === 'loadMore'));
    assert.equal((await more())?.label, 'Load more… (25 of 60)');
    assert.equal((await more())?.command, C('loadMoreEngagements'));
    await run('loadMoreEngagements');
    assert.equal((await more())?.label, 'Load more… (50 of 60)');
    await run('loadMoreEngagements');
    assert.equal((await items()).length, 60);
    assert.equal(await more(), undefined, 'no Load more once everything is shown');
    assert.deepEqual(requests('GET').map((r) => `${r.query.page}/${r.query.pageSize}`), ['2/25', '3/25']);
  });

  it('sorts, groups and filters from the title menu; the description shows the filter; choices persist', async () => {
    await run('loadMoreEngagements');
    await run('loadMoreEngagements');
    ctx.ui.answer(pickByLabel('Name'));
    await run('sortEngagements');
    const names = (await items()).map((i) => i.label);
    assert.deepEqual(names, [...names].sort(new Intl.Collator(undefined, { sensitivity: 'base', numeric: true }).compare));
    ctx.ui.answer(pickByLabel('Evaluations'));
    await run('sortEngagements');
    const counts = (await items()).map((i) => seeded().find((e) => e.id === i.id)!.evaluationCount);
    assert.deepEqual(counts, [...counts].sort((a, b) => b - a));

    ctx.ui.answer(pickByLabel('Group by Status'));
    await run('groupEngagements');
    const groups = await eng().tree();
    assert.deepEqual(groups.map((g) => g.label), ['active', 'completed', 'archived', 'paused']);
    assert.deepEqual(groups.map((g) => g.icon), ['circle-large-filled', 'pass-filled', 'circle-large-outline', 'circle-large-outline']);
    for (const group of groups) {
      assert.equal(group.description, String(seeded().filter((e) => e.status === group.label).length));
      assert.ok(group.children?.every((c) => seeded().find((e) => e.id === c.id)?.status === group.label));
    }
    ctx.ui.answer(pickByLabel('Group by Type'));
    await run('groupEngagements');
    assert.deepEqual((await eng().tree()).map((g) => g.label), [...new Set(seeded().map((e) => e.type))].sort());

    ctx.ui.answer(pickByLabel('By Status'), (prompt) => {
      assert.ok(prompt.items?.includes('paused'), 'the statuses seen are offered');
      return ['paused', 'archived'];
    });
    await run('filterEngagements');
    ctx.ui.answer(pickByLabel('No Grouping'));
    await run('groupEngagements');
    const filtered = await items();
    assert.equal(filtered.length, seeded().filter((e) => ['paused', 'archived'].includes(e.status)).length);
    assert.equal(eng().description(), 'status: paused, archived');
    assert.equal(eng().contextValues()['engagementUsage.filtered'], true);
    const saved = ctx.exports.environments!.mementos()['workspace:engagementUsage.engagements.query'] as Record<string, unknown>;
    assert.deepEqual(saved, { sort: 'evaluations', direction: 'desc', group: 'none', filter: { statuses: ['paused', 'archived'] } }, 'kept per workspace');

    ctx.ui.answer(pickByLabel('Name Contains'), 'no engagement is called this');
    await run('filterEngagements');
    assert.deepEqual(await items(), []);
    assert.equal(state(), 'noMatch', 'the welcome content offers to clear the filter');
    assert.equal(eng().description(), 'status: paused, archived · name: "no engagement is called this"');
    await run('clearEngagementFilter');
    assert.equal((await items()).length, 60);
    assert.equal(eng().description(), undefined);
    assert.equal(eng().contextValues()['engagementUsage.filtered'], false);
    assert.equal(state(), 'ready');
  });

  it('creates an engagement through name → type → description → confirm, with Back, then reveals it', async () => {
    ctx.ui.answer(
      'Draft',
      BACK,
      (prompt) => {
        assert.equal(prompt.value, 'Draft', 'Back keeps the answer');
        return '  Onboarding Sprint 7 ';
      },
      (prompt, step) => {
        assert.ok(prompt.items?.includes('onboarding'), 'the types seen are offered');
        return pickByLabel('onboarding')(prompt, step);
      },
      'First week of calls',
      pickByLabel('Create'),
    );
    await run('createEngagement');
    const steps = ctx.ui.prompts.map((p) => `${p.step}/${p.totalSteps}`);
    assert.deepEqual(steps, ['1/4', '2/4', '1/4', '2/4', '3/4', '4/4']);
    const posts = requests('POST');
    assert.equal(posts.length, 1);
    assert.deepEqual(posts[0].body, { name: 'Onboarding Sprint 7', type: 'onboarding', description: 'First week of calls' });
    const created = seeded().find((e) => e.name === 'Onboarding Sprint 7');
    assert.ok(created);
    const item = (await items()).find((i) => i.id === created.id);
    assert.ok(item, 'the new engagement is in the tree');
    assert.equal(item.icon, 'circle-large-filled');
    await waitFor(() => eng().selection().includes(created.id), 'the new engagement to be revealed and selected');
  });

  it('creates with a type typed freely and no description', async () => {
    ctx.ui.answer(
      'Pilot',
      (_prompt, step) => {
        assert.ok('freeEntry' in step && step.freeEntry, 'the type step takes free entry');
        assert.equal(step.freeEntry.validate?.('  '), 'Enter a type (at most 200 characters).');
        return step.freeEntry.value(' pilot-study ');
      },
      '',
      pickByLabel('Create'),
    );
    await run('createEngagement');
    assert.deepEqual(requests('POST')[0].body, { name: 'Pilot', type: 'pilot-study' });
    assert.equal(eng().totalCount(), 61);
  });

  it('an empty name is refused in the input and nothing is sent when the flow is dismissed', async () => {
    ctx.ui.answer('   ', undefined);
    await run('createEngagement');
    assert.deepEqual(ctx.ui.prompts[0].rejected, ['Enter a name (at most 200 characters).']);
    assert.equal(requests('POST').length, 0);
  });

  it('renames, edits the description and changes the status: the PATCH holds only the changed field', async () => {
    const target = (await items())[0];
    const before = { ...seeded().find((e) => e.id === target.id)! };
    const newStatus = before.status === 'completed' ? 'active' : 'completed';
    ctx.ui.answer((prompt) => {
      assert.equal(prompt.value, before.name, 'the current name is prefilled');
      return 'Renamed review';
    });
    await run('renameEngagement', target.id);
    ctx.ui.answer('A new description');
    await run('editEngagementDescription', target.id);
    ctx.ui.answer((prompt, step) => {
      assert.deepEqual(prompt.items?.slice(0, 2), ['active', 'completed']);
      assert.ok(prompt.items?.includes('paused') && prompt.items.includes('archived'), 'statuses seen are offered');
      assert.ok('freeEntry' in step && step.freeEntry, 'a status can be typed');
      return newStatus;
    });
    await run('changeEngagementStatus', target.id);
    assert.deepEqual(patches().map((r) => r.body), [{ name: 'Renamed review' }, { description: 'A new description' }, { status: newStatus }]);
    assert.equal(requests('GET', `/v1/engagements/`).length, 3, 'each update re-read the engagement first');
    const now = (await items()).find((i) => i.id === target.id)!;
    assert.equal(now.label, 'Renamed review');
    assert.match(now.tooltip ?? '', /A new description/);
  });

  it('Edit… asks what to change (never the type); an unchanged value sends nothing', async () => {
    const target = (await items())[1];
    ctx.ui.answer(
      (prompt, step) => {
        assert.deepEqual(prompt.items, ['Rename…', 'Edit Description…', 'Change Status…']);
        assert.deepEqual([prompt.step, prompt.totalSteps], [1, 2]);
        return pickByLabel('Rename')(prompt, step);
      },
      (prompt) => {
        assert.equal(prompt.step, 2);
        return prompt.value;
      },
    );
    await run('editEngagement', target.id);
    assert.equal(patches().length, 0, 'nothing is sent when nothing changed');
    assert.match(eng().notices().at(-1) ?? '', /Nothing changed/);
  });

  it('multi-select Change Status applies to all selected and reports each failure by name', async () => {
    const shown = (await items()).filter((i) => seeded().find((e) => e.id === i.id)?.status !== 'archived').slice(0, 4);
    const nodes = shown.map((i) => ({ kind: 'engagement', id: i.id, engagement: seeded().find((e) => e.id === i.id) }));
    const failing = shown[1];
    ctx.service.faults.add({ method: 'PATCH', path: `/engagements/${failing.id}`, kind: 'status', status: 500 });
    ctx.ui.answer(pickByLabel('archived'));
    ctx.ui.onMessages((m) => {
      ctx.service.faults.clear();
      return m.actions.find((a) => a === 'Retry Failed');
    });
    await run('changeEngagementStatus', nodes[0], nodes);
    const report = ctx.ui.messages.find((m) => m.level === 'error');
    assert.ok(report, 'the failure was reported');
    assert.match(report.text, new RegExp(`“${failing.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}”: .*HTTP 500`));
    assert.match(report.text, /1 of \d engagements/);
    for (const item of shown) assert.equal(seeded().find((e) => e.id === item.id)?.status, 'archived', `${item.label} is archived`);
    const bodies = patches().map((r) => r.body);
    assert.ok(bodies.every((b) => JSON.stringify(b) === '{"status":"archived"}'), 'only the status is sent');
    assert.equal(patches().filter((r) => r.path.endsWith(failing.id!)).length, 2, 'the failed one was sent again on Retry only');
  });

  it('if the engagement changed on the server since it was shown: Cancel, Reload or Overwrite', async () => {
    const target = (await items())[2];
    ctx.service.store.updateEngagement(target.id!, { description: 'Changed elsewhere' });
    const conflict = () => ctx.ui.messages.filter((m) => m.modal).at(-1);

    ctx.ui.answer('Mine').onMessages(undefined);
    await run('renameEngagement', target.id);
    assert.match(conflict()?.text ?? '', /was changed on the server/);
    assert.deepEqual(conflict()?.actions, ['Overwrite', 'Reload']);
    assert.match(conflict()?.detail ?? '', /description/);
    assert.equal(patches().length, 0, 'Cancel sends nothing');

    ctx.ui.answer('Mine', (prompt) => {
      assert.equal(prompt.value, 'Mine', 'after Reload the input is asked again with the answer kept');
      return 'Mine again';
    }).onMessages('Reload');
    await run('renameEngagement', target.id);
    assert.match((await items()).find((i) => i.id === target.id)?.tooltip ?? '', /Changed elsewhere/, 'the tree shows the current version');
    assert.deepEqual(patches().map((p) => p.body), [{ name: 'Mine again' }]);

    ctx.service.store.updateEngagement(target.id!, { name: 'Renamed on the server' });
    const wanted = seeded().find((e) => e.id === target.id)?.status === 'completed' ? 'active' : 'completed';
    ctx.ui.answer(pickByLabel(wanted)).onMessages('Overwrite');
    await run('changeEngagementStatus', target.id);
    assert.match(conflict()?.detail ?? '', /name/);
    assert.deepEqual(patches().map((p) => p.body), [{ name: 'Mine again' }, { status: wanted }]);
    assert.equal(seeded().find((e) => e.id === target.id)?.status, wanted);
    assert.equal(seeded().find((e) => e.id === target.id)?.name, 'Renamed on the server', 'Overwrite sends only the field changed here');
  });

  it('a failed create keeps the input; Retry sends the same values once the fault is lifted', async () => {
    ctx.service.faults.add({ method: 'POST', path: '/engagements', kind: 'status', status: 503 });
    ctx.ui.answer('Retry me', pickByLabel('onboarding'), 'kept', pickByLabel('Create'));
    ctx.ui.onMessages((m) => {
      assert.equal(requests('POST').length, 1, 'a create is never re-sent automatically');
      ctx.service.faults.clear();
      return m.actions.find((a) => a === 'Retry');
    });
    await run('createEngagement');
    const error = ctx.ui.messages[0];
    assert.match(error.text, /Could not create “Retry me”/);
    assert.deepEqual(error.actions, ['Retry', 'Edit', 'Show Logs']);
    const posts = requests('POST');
    assert.equal(posts.length, 2);
    assert.deepEqual(posts[1].body, posts[0].body, 'the same values, no re-typing');
    assert.equal(seeded().filter((e) => e.name === 'Retry me').length, 1);
  });

  it('a failed update offers Edit: the flow again, prefilled with what was typed', async () => {
    const target = (await items())[0];
    ctx.service.faults.add({ method: 'PATCH', kind: 'status', status: 422, body: { error: { message: 'name is taken', fields: { name: 'already used' } } }, times: 1 });
    ctx.ui.answer('Taken name', (prompt) => {
      assert.equal(prompt.value, 'Taken name', 'Edit prefills the typed value');
      return 'Free name';
    });
    ctx.ui.onMessages((m) => {
      assert.match(m.text, /name: already used/);
      return m.actions.find((a) => a === 'Edit');
    });
    await run('renameEngagement', target.id);
    assert.deepEqual(patches().map((p) => p.body), [{ name: 'Taken name' }, { name: 'Free name' }]);
    assert.equal((await items()).find((i) => i.id === target.id)?.label, 'Free name');
  });

  it('opens the details (GET by id) read-only and copies the id', async () => {
    const target = (await items())[0];
    await run('openEngagement', target.id);
    assert.equal(requests('GET', `/v1/engagements/${target.id}`).length, 1);
    const editor = await waitFor(() => vscode.window.visibleTextEditors.find((ed) => ed.document.uri.scheme === 'engagement-usage'), 'the details document');
    const text = editor.document.getText();
    assert.match(text, new RegExp(`\\| ID \\| \`${target.id}\` \\|`));
    for (const field of ['Type', 'Status', 'Evaluations', 'Created', 'Updated', 'Description']) assert.match(text, new RegExp(field));
    assert.equal(editor.document.languageId, 'markdown');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await run('copyEngagementId', target.id);
    assert.match(eng().notices().at(-1) ?? '', new RegExp(target.id ?? ''));
    assert.equal(await vscode.env.clipboard.readText(), target.id);
  });

  it('a failed refresh keeps the last good items and says why', async () => {
    const before = (await items()).map((i) => i.id);
    ctx.service.faults.add({ method: 'GET', path: '/engagements', kind: 'status', status: 500 });
    await run('refreshEngagements');
    assert.deepEqual((await items()).map((i) => i.id), before);
    assert.match(eng().message() ?? '', /Could not refresh: The service failed \(HTTP 500\)/);
    assert.equal(state(), 'ready');
    ctx.service.faults.clear();
    await run('refreshEngagements');
    assert.equal(eng().message(), undefined);
  });

  it('welcome states: no environment, key missing, no engagements, unreachable, key rejected', async () => {
    await clearEnvironments(ctx.exports, ctx.ui);
    await waitFor(() => state() === 'noEnvironment', 'the state noEnvironment');
    const config = vscode.workspace.getConfiguration('engagementUsage');
    // A label never given a key on this machine (another label is another environment id).
    await config.update('environments', [{ label: 'Keyless', baseUrl: ctx.service.baseUrl }], vscode.ConfigurationTarget.Global);
    await waitFor(() => state() === 'keyMissing', 'the state keyMissing (environment from settings, no key here)');
    await useEnvironment(ctx, ctx.service.keys.admin);
    await eng().settled();
    assert.equal(state(), 'ready');

    ctx.service.store.setEngagements([]);
    await run('refreshEngagements');
    assert.equal(state(), 'empty');
    assert.deepEqual(await eng().tree(), []);

    ctx.service.faults.add({ path: '/engagements', kind: 'drop' });
    await run('refreshEngagements');
    assert.equal(state(), 'unreachable');
    assert.match(eng().message() ?? '', /Cannot reach the service/);
    ctx.service.faults.clear();

    // The key is revoked on the service side: the next read is a 401.
    ctx.service.store.removeKey('key_admin');
    await run('refreshEngagements');
    await eng().settled();
    assert.equal(state(), 'unauthorized');
  });

  it('a read-only key: a write says which scope is missing, then write actions are hidden', async () => {
    await useEnvironment(ctx, ctx.service.keys.readOnly);
    assert.equal((await items()).length, 25, 'a read-only key still lists');
    ctx.ui.answer('Not allowed', pickByLabel('onboarding'), '', pickByLabel('Create'));
    ctx.ui.onMessages(undefined);
    await run('createEngagement');
    const message = ctx.ui.messages[0];
    assert.match(message.text, /engagements:write/);
    assert.ok(message.actions.includes('Replace Key'));
    await waitFor(() => ctx.exports.environments?.contextKeys()['engagementUsage.canWrite'] === false, 'canWrite to become false');
    // Every write action's menu entry depends on that context key.
    const manifest = vscode.extensions.getExtension('eus-tools.engagement-usage')!.packageJSON as { contributes: { menus: Record<string, Array<{ command: string; when?: string }>> } };
    const writes = [C('createEngagement'), C('editEngagement'), C('renameEngagement'), C('editEngagementDescription'), C('changeEngagementStatus')];
    for (const entries of Object.values(manifest.contributes.menus)) {
      for (const entry of entries.filter((e) => writes.includes(e.command))) assert.match(entry.when ?? '', /engagementUsage\.canWrite/, `${entry.command} is hidden without write access`);
    }
  });

  it('refreshes when the view becomes visible with stale data, and on an interval only while visible', async () => {
    const config = vscode.workspace.getConfiguration('engagementUsage');
    await config.update('engagements.staleAfterSeconds', 0, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitFor(() => !eng().visible(), 'the view to be hidden');
    ctx.service.clearRequests();
    await vscode.commands.executeCommand('engagementUsage.engagements.focus');
    await waitFor(() => requests('GET').length === 1, 'a refresh when the view became visible');
    await eng().settled();

    await config.update('engagements.autoRefreshSeconds', 1, vscode.ConfigurationTarget.Global);
    await waitFor(() => eng().autoRefreshRunning(), 'the interval to start');
    await waitFor(() => requests('GET').length >= 3, 'two refreshes by the interval', 5000);
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitFor(() => !eng().autoRefreshRunning(), 'the interval to stop when hidden');
    await eng().settled();
    const count = requests('GET').length;
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(requests('GET').length, count, 'no refresh while hidden');
    await config.update('engagements.autoRefreshSeconds', undefined, vscode.ConfigurationTarget.Global);
    await config.update('engagements.staleAfterSeconds', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('engagementUsage.engagements.focus');
    await waitFor(() => eng().visible(), 'the view to be visible again');
  });
});
