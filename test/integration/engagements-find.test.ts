// Finding and acting on any engagement inside a real VS Code, against the reference service:
// Go to Engagement through the real quick pick, sort/group/filter over the whole set (with
// the question above the limit, and Cancel), the details panel with its actions following
// edits made elsewhere, and a read-only key said in the view's title.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { pickByLabel, useEnvironment, waitFor } from './support/helpers';
import { engagementsSuite } from './support/engagementsSuite';

describe('Engagements: find and act on any engagement', function () {
  this.timeout(90_000);
  const suite = engagementsSuite();
  const { eng, run, items, seeded, requests, patches, test } = suite;
  const config = () => vscode.workspace.getConfiguration('engagementUsage');

  async function seed(n: number): Promise<void> {
    suite.ctx.service.store.seedEngagements(n);
    await run('refreshEngagements');
    await eng().settled();
    suite.ctx.service.clearRequests();
  }

  /**
   * Types an engagement's id into Go to Engagement once, as a person would, and accepts the
   * match. Typed once the quick pick has read every page (it is no longer busy): while it
   * reads, each page replaces its items, and VS Code tells the extension host which item is
   * active by its index in the items it last sent, so an answer about the items before a
   * replacement can name another item (under load on 1.100 the match once never became active).
   */
  async function chooseById(qp: vscode.QuickPick<vscode.QuickPickItem>, id: string): Promise<void> {
    await waitFor(() => !qp.busy, 'the quick pick to have read every page');
    qp.value = id;
    await waitFor(
      () => ((qp.activeItems[0] as { id?: string } | undefined)?.id === id ? true : undefined),
      'the match to be the active item',
    );
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }

  /** 1,000 engagements at the service, sorted by name: once the view settles, every one is read. */
  async function sortThousandByName(): Promise<void> {
    await seed(1000);
    suite.ctx.ui.answer(pickByLabel('Name'));
    await run('sortEngagements');
    await eng().settled();
    assert.equal(eng().complete(), true);
  }

  test('Go to Engagement lists what is loaded at once, reads every page behind, finds one on the last page and reveals it', async () => {
    await seed(1000);
    assert.equal(eng().loaded().length, 25);
    const target = seeded().at(-1)!;
    const going = run('goToEngagement');
    const qp = await waitFor(() => eng().goTo()?.quickPick, 'the quick pick');
    const timeline = eng().goTo()!;
    assert.equal(timeline.firstItems, 25, 'the loaded engagements were listed at once');
    await waitFor(() => (timeline.allItems === 1000 ? true : undefined), 'every engagement in the quick pick');
    assert.equal(qp.items.length, 1000);
    assert.deepEqual(
      requests('GET').map((r) => `${r.status} ${r.query.pageSize}`),
      ['400 1000', ...Array<string>(10).fill('200 100')],
      'pages of 1,000 asked first; this service takes at most 100, so every page read in pages of 100',
    );
    const item = qp.items.find((i) => (i as { id?: string }).id === target.id)!;
    assert.equal(item.label, target.name);
    // One line: status, type, id and description after the name, all of it searched.
    assert.match(item.description ?? '', new RegExp(`^${target.status} · ${target.type} · ${target.id}`));
    if (target.description) assert.ok(item.description?.includes(target.description.slice(0, 20)));
    assert.equal(item.detail, undefined);
    // Typed as a person would: the id of the last engagement.
    await chooseById(qp, target.id);
    await going;
    await waitFor(
      () => eng().selection().includes(target.id),
      'the engagement to be revealed and selected in the tree',
    );
    await waitFor(() => (eng().details()?.view?.id === target.id ? true : undefined), 'its details to open');
    assert.equal(eng().complete(), true);

    // Again while fresh: the whole set is reused, nothing is read.
    suite.ctx.service.clearRequests();
    const again = run('goToEngagement');
    const qp2 = await waitFor(() => eng().goTo()?.quickPick, 'the quick pick again');
    assert.equal(qp2.items.length, 1000, 'all at once');
    qp2.hide();
    await again;
    assert.deepEqual(eng().selection(), [target.id], 'hidden: nothing else chosen');
    assert.equal(requests('GET').length, 0, 'nothing read again');
    eng().closeDetails();
  });

  test('sort, group and filter read every page and apply to all; the description says how many match of how many', async () => {
    // The command answers at once; every page is read behind it.
    await sortThousandByName();
    assert.equal(requests('GET').length, 10);
    const names = (await items()).map((i) => i.label);
    assert.equal(names.length, 1000);
    assert.deepEqual(
      names,
      [...names].sort(new Intl.Collator(undefined, { sensitivity: 'base', numeric: true }).compare),
    );
    assert.equal(
      (await eng().tree()).some((i) => i.kind === 'loadMore'),
      false,
    );

    suite.ctx.ui.answer(pickByLabel('By Status'), () => ['paused']);
    await run('filterEngagements');
    await eng().settled();
    const paused = seeded().filter((e) => e.status === 'paused').length;
    assert.ok(paused > 0);
    assert.equal((await items()).length, paused);
    assert.equal(eng().description(), `${paused.toLocaleString('en-US')} of 1,000 match · status: paused`);
  });

  test('a whole set of 2,500 is listed 1,000 rows at a time: Show more lists the next, Go to Engagement reveals one further down, a new sort starts again', async () => {
    await seed(2500);
    suite.ctx.ui.answer(pickByLabel('Name'));
    await run('sortEngagements');
    await eng().settled();
    assert.equal(eng().complete(), true);
    const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
    const all = [...seeded()].sort((a, b) => byName.compare(a.name, b.name));
    const listed = async () => {
      const tree = await eng().tree();
      const rows = tree.filter((i) => i.kind === 'engagement');
      const last = tree.at(-1);
      return { rows, more: last?.kind === 'showMore' ? last.label : undefined, tree };
    };
    let view = await listed();
    assert.equal(view.rows.length, 1000);
    assert.equal(view.more, 'Show 1,000 more… (1,000 of 2,500)');
    assert.equal(
      view.tree.some((i) => i.kind === 'loadMore'),
      false,
      'nothing to load: every engagement is read',
    );
    assert.deepEqual(
      view.rows.map((r) => r.label),
      all.slice(0, 1000).map((e) => e.name),
      'the first 1,000 of all 2,500 by name',
    );
    assert.equal(eng().description(), undefined, 'no filter: nothing said in the title');

    await run('showMoreEngagements', 'root');
    view = await listed();
    assert.equal(view.rows.length, 2000);
    assert.equal(view.more, 'Show 500 more… (2,000 of 2,500)');
    assert.equal(
      requests('GET').filter((r) => r.status === 200).length,
      25,
      'listing more reads nothing (the 25 pages of the sort only)',
    );

    // The last by name lies beyond the 2,000 listed: Go to Engagement lists it and selects it.
    const target = all.at(-1)!;
    const going = run('goToEngagement');
    const qp = await waitFor(() => eng().goTo()?.quickPick, 'the quick pick');
    await chooseById(qp, target.id);
    await going;
    await waitFor(() => eng().selection().includes(target.id), 'the engagement to be revealed and selected');
    view = await listed();
    assert.equal(view.rows.length, 2500);
    assert.equal(view.more, undefined, 'all listed now');
    eng().closeDetails();

    // Grouped, each group is a list of its own.
    suite.ctx.ui.answer(pickByLabel('Group by Status'));
    await run('groupEngagements');
    await eng().settled();
    const groups = (await eng().tree()).filter((i) => i.kind === 'group');
    assert.ok(groups.length > 1);
    for (const group of groups) {
      const size = seeded().filter((e) => e.status.toLowerCase() === group.label.toLowerCase()).length;
      const children = group.children ?? [];
      assert.equal(children.filter((c) => c.kind === 'engagement').length, Math.min(size, 1000), group.label);
      assert.equal(
        children.at(-1)?.kind === 'showMore' ? children.at(-1)?.label : undefined,
        size > 1000
          ? `Show ${Math.min(1000, size - 1000).toLocaleString('en-US')} more… (1,000 of ${size.toLocaleString('en-US')})`
          : undefined,
        group.label,
      );
    }
    // Another query starts from the first 1,000 again.
    suite.ctx.ui.answer(pickByLabel('No Grouping'));
    await run('groupEngagements');
    await eng().settled();
    view = await listed();
    assert.equal(view.rows.length, 1000);
    assert.equal(view.more, 'Show 1,000 more… (1,000 of 2,500)');
  });

  test('a service that sends all 2,500 on its first page: the tree lists them 1,000 rows at a time, with nothing to load', async () => {
    suite.ctx.service.setReading({ noPaging: true });
    try {
      await seed(2500);
      assert.equal(eng().complete(), false, 'no sort or filter has read the whole set');
      assert.equal(eng().loaded().length, 2500, 'every engagement came with the first page');
      let tree = await eng().tree();
      const ids = new Set(seeded().map((e) => e.id));
      const rows = tree.slice(0, 1000);
      assert.ok(
        rows.every((i) => i.kind === 'engagement' && ids.has(i.id ?? '')),
        'the first 1,000 rows are engagements of the service',
      );
      assert.equal(new Set(rows.map((i) => i.id)).size, 1000, 'each once');
      assert.deepEqual(
        tree.slice(1000).map((i) => `${i.kind} ${i.label}`),
        ['showMore Show 1,000 more… (1,000 of 2,500)'],
        'then Show more, and no Load more',
      );
      await run('showMoreEngagements', 'root');
      tree = await eng().tree();
      assert.equal(tree.filter((i) => i.kind === 'engagement').length, 2000);
      assert.equal(tree.at(-1)?.label, 'Show 500 more… (2,000 of 2,500)');

      // One beyond the 2,000 listed: Go to Engagement lists as far as it and selects it.
      const listedIds = new Set(tree.map((i) => i.id));
      const target = seeded().find((e) => !listedIds.has(e.id))!;
      const going = run('goToEngagement');
      const qp = await waitFor(() => eng().goTo()?.quickPick, 'the quick pick');
      await chooseById(qp, target.id);
      await going;
      await waitFor(() => eng().selection().includes(target.id), 'the engagement to be revealed and selected');
      tree = await eng().tree();
      assert.ok(
        tree.some((i) => i.id === target.id),
        'its row is listed',
      );
      assert.equal(tree.filter((i) => i.kind === 'engagement').length, 2500);
      eng().closeDetails();
    } finally {
      suite.ctx.service.setReading({});
    }
  });

  test('Go to Engagement with the view hidden opens the view and selects the engagement there', async () => {
    await sortThousandByName();
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitFor(() => (eng().visible() ? undefined : true), 'the view to be hidden');
    const target = seeded()[700];
    const going = run('goToEngagement');
    const qp = await waitFor(() => eng().goTo()?.quickPick, 'the quick pick');
    await chooseById(qp, target.id);
    await going;
    await waitFor(() => eng().visible(), 'the view to be shown');
    await waitFor(() => eng().selection().includes(target.id), 'the engagement to be selected in the view');
    eng().closeDetails();
  });

  test('above the limit it asks first: Only Those Loaded keeps the pages, Read All reads them', async () => {
    await config().update('engagements.wholeSetLimit', 500, vscode.ConfigurationTarget.Global);
    try {
      await seed(1000);
      suite.ctx.ui.answer(pickByLabel('Name'));
      suite.ctx.ui.onMessages('Only Those Loaded');
      await run('sortEngagements');
      const asked = await waitFor(() => suite.ctx.ui.messages[0], 'the question');
      await eng().settled();
      assert.equal(asked.text, 'Test has 1,000 engagements. Read all of them to sort, group and filter the whole set?');
      assert.equal(asked.modal, true);
      assert.deepEqual(asked.actions, ['Read All', 'Only Those Loaded']);
      assert.equal(requests('GET').length, 0);
      assert.equal(eng().loaded().length, 25);

      suite.ctx.ui.answer(pickByLabel('By Status'), () => ['paused']);
      suite.ctx.ui.onMessages('Read All');
      await run('filterEngagements');
      await waitFor(() => suite.ctx.ui.messages[1], 'the question again');
      await eng().settled();
      assert.equal(eng().complete(), true);
      assert.match(eng().description() ?? '', / of 1,000 match · status: paused$/);
    } finally {
      await config().update('engagements.wholeSetLimit', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('a sort kept from before applies to every engagement when an environment first loads; above the limit it is not asked again', async () => {
    await sortThousandByName();
    // The key entered again starts the view afresh, as a new session does with the sort it kept.
    suite.ctx.service.clearRequests();
    await useEnvironment(suite.ctx, suite.ctx.service.keys.admin);
    await waitFor(() => (eng().complete() ? true : undefined), 'every engagement to be read for the kept sort');
    await eng().settled();
    const names = (await items()).map((i) => i.label);
    assert.equal(names.length, 1000);
    assert.deepEqual(
      names,
      [...names].sort(new Intl.Collator(undefined, { sensitivity: 'base', numeric: true }).compare),
    );
    assert.equal(suite.ctx.ui.messages.length, 0, 'nothing asked');

    await config().update('engagements.wholeSetLimit', 500, vscode.ConfigurationTarget.Global);
    try {
      suite.ctx.service.clearRequests();
      await useEnvironment(suite.ctx, suite.ctx.service.keys.admin);
      await waitFor(() => (eng().loaded().length === 25 ? true : undefined), 'the first page');
      await eng().settled();
      assert.equal(eng().complete(), false, 'above the limit only what is loaded is sorted');
      assert.deepEqual(
        requests('GET').filter((r) => r.query.page !== undefined && r.query.page !== '1'),
        [],
        'no page after the first was read',
      );
      assert.equal(suite.ctx.ui.messages.length, 0, 'no question at start');
      assert.equal(eng().description(), undefined);
    } finally {
      await config().update('engagements.wholeSetLimit', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('reading every page shows progress in the view and can be cancelled; what was shown stays', async () => {
    await seed(1000);
    suite.ctx.service.setLatency(150);
    try {
      suite.ctx.ui.answer(pickByLabel('Evaluations'));
      const sorting = run('sortEngagements');
      await waitFor(
        () => (eng().contextValues()['engagementUsage.readingAll'] === true ? true : undefined),
        'the view to say it is reading every page',
      );
      assert.match(eng().description() ?? '', /^reading every engagement: [\d,]+ of 1,000…$/);
      assert.equal(eng().message(), undefined, 'progress is in the title area, not over the rows');
      await run('cancelReadingEngagements');
      await sorting;
      await eng().settled();
    } finally {
      suite.ctx.service.setLatency(0);
    }
    assert.equal(eng().complete(), false);
    assert.equal(eng().loaded().length, 25, 'the first page stays');
    assert.equal(eng().message(), undefined, 'no error: it was cancelled');
    assert.equal(eng().contextValues()['engagementUsage.readingAll'], false);
    assert.equal(suite.ctx.ui.messages.length, 0);
  });

  test('the details panel: its actions run on the engagement shown, and an edit from the tree shows in it', async () => {
    const target = (await items())[2];
    await run('openEngagement', target.id);
    await waitFor(
      () => (eng().details()?.view?.id === target.id && eng().details()?.ready ? true : undefined),
      'the details panel',
    );

    // Renamed from the tree: the panel follows.
    suite.ctx.ui.answer('Renamed in the tree');
    await run('renameEngagement', target.id);
    await waitFor(
      () => (eng().details()?.view?.name === 'Renamed in the tree' ? true : undefined),
      'the panel to show the new name',
    );

    // Change Status from the panel: the same flow as the tree's, on this engagement.
    const before = seeded().find((e) => e.id === target.id)!.status;
    const next = before === 'completed' ? 'active' : 'completed';
    suite.ctx.ui.answer(next);
    await eng().detailsMessage({ type: 'action', action: 'changeStatus' });
    assert.deepEqual(
      patches()
        .map((p) => [p.path, p.body])
        .at(-1),
      [`/v1/engagements/${target.id}`, { status: next }],
    );
    await waitFor(
      () => (eng().details()?.view?.status.text === next ? true : undefined),
      'the panel to show the new status',
    );

    // Refresh reads it again; a change on the server shows.
    seeded().find((e) => e.id === target.id)!.description = 'Changed on the server';
    suite.ctx.service.clearRequests();
    await eng().detailsMessage({ type: 'action', action: 'refresh' });
    assert.equal(requests('GET', `/v1/engagements/${target.id}`).length, 1);
    await waitFor(
      () => (eng().details()?.view?.description === 'Changed on the server' ? true : undefined),
      'the refreshed description',
    );

    // Messages outside the protocol do nothing.
    await eng().detailsMessage({ type: 'action', action: 'signOutAll' });
    await eng().detailsMessage({ type: 'command', command: 'removeEnvironment' });
    assert.ok(suite.ctx.exports.environments?.list().length);

    await eng().detailsMessage({ type: 'action', action: 'openUsageDashboard' });
    await waitFor(() => suite.ctx.exports.usage?.dashboard(), 'the usage dashboard');
    for (const d of suite.ctx.exports.usage!.dashboards()) d.close();
    assert.deepEqual(eng().details()?.webviewErrors, []);
    eng().closeDetails();
  });

  test('a read-only key: once a write is refused the view title says so and the details offer no write action', async () => {
    await useEnvironment(suite.ctx, suite.ctx.service.keys.readOnly);
    const target = (await items())[0];
    suite.ctx.ui.answer('Not allowed');
    suite.ctx.ui.onMessages(undefined);
    await run('renameEngagement', target.id);
    assert.match(suite.ctx.ui.messages[0]?.text ?? '', /engagements:write/);
    await waitFor(
      () => (eng().description()?.startsWith('read-only key') ? true : undefined),
      'the title area to say the key is read-only',
    );
    await run('openEngagement', target.id);
    await waitFor(
      () => (eng().details()?.view?.id === target.id && eng().details()?.view?.busy === false ? true : undefined),
      'the details',
    );
    assert.deepEqual(eng().details()?.view?.actions, ['copyId', 'copyLink', 'refresh', 'openUsageDashboard']);
    eng().closeDetails();
    // A new key: what the old one could not do is forgotten.
    await useEnvironment(suite.ctx, suite.ctx.service.keys.admin);
    await waitFor(
      () => (eng().description() === undefined ? true : undefined),
      'the read-only mark to go with the key',
    );
  });

  // Last in the file: the whole-set read it makes teaches the client this service's page size,
  // which the tests above count from the start.
  test('Go to Engagement when the engagements cannot be read: says so above what is loaded, with Retry and Show Logs; Retry reads again', async () => {
    await seed(60);
    suite.ctx.service.faults.add({ path: '/engagements', kind: 'status', status: 503, times: 100 });
    try {
      const going = run('goToEngagement');
      const qp = await waitFor(() => eng().goTo()?.quickPick, 'the quick pick');
      const retry = await waitFor(
        () => qp.items.find((i) => (i as { action?: string }).action === 'retry'),
        'Retry in the quick pick once the read failed',
      );
      assert.equal(retry.label, '$(refresh) Retry');
      assert.equal(retry.description, 'Could not read the engagements');
      assert.match(retry.detail ?? '', /HTTP 503/, 'the reason under Retry');
      assert.deepEqual(
        qp.items.slice(0, 2).map((i) => i.label),
        ['$(refresh) Retry', '$(output) Show Logs'],
      );
      assert.equal(qp.items.filter((i) => (i as { id?: string }).id).length, 25, 'the loaded engagements stay listed');
      assert.match(qp.placeholder ?? '', /^Could not read the engagements: Retry, or type to search the 25 loaded$/);

      // The fault lifted, Retry reads every page with the quick pick open.
      suite.ctx.service.faults.clear();
      qp.activeItems = [retry];
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await waitFor(
        () => (qp.items.filter((i) => (i as { id?: string }).id).length === 60 ? true : undefined),
        'all 60 engagements after Retry',
      );
      assert.ok(!qp.items.some((i) => (i as { action?: string }).action), 'no Retry once read');
      qp.hide();
      await going;
    } finally {
      suite.ctx.service.faults.clear();
    }
  });
});
