// Issue 28 in the real VS Code: what a screen reader says for the tree's rows and the status
// bar items (`accessibilityInformation`), never colour or an icon alone: each row's status in
// words, the environment, production and the usage state in the status bar.
import assert from 'node:assert/strict';
import { clearEnvironments, pickByLabel, runCommand, suiteContext, useEnvironment, waitFor } from './support/helpers';
import { serveCalls } from './support/dashboard';

describe('Accessibility: tree rows and status bar items in words', function () {
  this.timeout(60_000);
  const ctx = suiteContext({ afresh: true });

  it('each engagement row says its name, its status in words and its description; groups say theirs', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Staging');
    const eng = () => ctx.exports.engagements!;
    const rows = await waitFor(async () => {
      const tree = await eng().tree();
      return tree.filter((r) => r.kind === 'engagement').length > 3 ? tree : undefined;
    }, 'the engagements');
    const seeded = ctx.service.store.engagements;
    for (const row of rows.filter((r) => r.kind === 'engagement')) {
      const engagement = seeded.find((e) => e.id === row.id);
      assert.ok(engagement, `${row.label} is one of the service's`);
      const said = row.accessibility?.label ?? '';
      assert.ok(said.startsWith(row.label), `"${said}" starts with the name`);
      assert.ok(said.includes(`status ${engagement.status}`), `"${said}" says the status ${engagement.status}`);
      assert.ok(said.includes(row.description ?? '\u0000'), `"${said}" says the description`);
    }
    const more = rows.find((r) => r.kind === 'loadMore');
    if (more) assert.match(more.accessibility?.label ?? '', /^Load more… \(\d+ of [\d,]+\)\. Load the next page/);

    ctx.ui.answer(pickByLabel('Group by Status'));
    await runCommand('groupEngagements');
    const groups = await eng().tree();
    assert.ok(groups.length > 1, 'grouped by status');
    for (const group of groups) {
      const count = seeded.filter((e) => e.status.toLowerCase() === group.label.toLowerCase()).length;
      assert.equal(group.accessibility?.label, `Status ${group.label}, ${count.toLocaleString('en-US')} engagements`);
    }
    ctx.ui.answer(pickByLabel('No Grouping'));
    await runCommand('groupEngagements');
  });

  it('the environment item says which environment, production, and a key missing here', async () => {
    const envs = () => ctx.exports.environments!;
    await clearEnvironments(ctx.exports, ctx.ui);
    await waitFor(() => envs().statusBarText().includes('No environment'), 'no environment');
    assert.equal(
      envs().statusBarAccessibility(),
      'Engagements environment: none. Add an environment to connect to the service.',
    );
    await useEnvironment(ctx, ctx.service.keys.admin, 'Staging');
    await waitFor(() => envs().statusBarText().includes('Staging'), 'Staging in the status bar');
    assert.equal(envs().statusBarAccessibility(), 'Engagements environment: Staging');

    await clearEnvironments(ctx.exports, ctx.ui);
    ctx.ui.answer('Production', ctx.service.baseUrl, ctx.service.keys.admin);
    await runCommand('addEnvironment');
    await waitFor(() => envs().statusBarText().includes('Production'), 'Production in the status bar');
    assert.equal(envs().statusBarAccessibility(), 'Engagements environment: Production, production');
  });

  it('the usage item says the environment, production and the usage state in words, with a shape per state', async () => {
    const usage = () => ctx.exports.usage!;
    await clearEnvironments(ctx.exports, ctx.ui);
    ctx.ui.answer('Production', ctx.service.baseUrl, ctx.service.keys.admin);
    await runCommand('addEnvironment');
    await waitFor(() => ctx.exports.environments!.statusBarText().includes('Production'), 'Production');
    const cases = [
      { used: 10_000, icon: '$(graph)', state: 'within the included amount', percent: '10%' },
      { used: 85_000, icon: '$(warning)', state: 'near the included amount', percent: '85%' },
      { used: 112_000, icon: '$(error)', state: 'over the included amount', percent: '112%' },
    ];
    for (const { used, icon, state, percent } of cases) {
      serveCalls(ctx, { used, included: 100_000, overage: Math.max(0, used - 100_000) });
      await usage().refreshStatusBar();
      const view = await waitFor(() => {
        const shown = usage().statusBar();
        return shown.text.endsWith(`calls ${percent}`) ? shown : undefined;
      }, `calls ${percent} in the status bar`);
      assert.ok(view.text.startsWith(icon), `${view.text}: the ${state} shape`);
      assert.equal(
        view.accessibility,
        `Usage of Production, production: API calls this billing period ${percent} of the included amount, ${state}`,
      );
    }
  });

  it('with the default sort, Load more adds rows below those shown, never above where the user reads', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Paged');
    const eng = () => ctx.exports.engagements!;
    const ids = async () => (await eng().tree()).filter((r) => r.kind === 'engagement').map((r) => r.id);
    const shown = await waitFor(async () => {
      const tree = await eng().tree();
      return tree.some((r) => r.kind === 'loadMore') ? ids() : undefined;
    }, 'the first page and Load more');
    // An engagement of the second page updated now: by last update it is the newest of all.
    const moved = ctx.service.store.engagements[shown.length + 5];
    assert.ok(!shown.includes(moved.id), 'it is not on the first page');
    ctx.service.store.updateEngagement(moved.id, { description: 'touched just now' });
    await runCommand('loadMoreEngagements');
    const after = await waitFor(async () => {
      const now = await ids();
      return now.length > shown.length ? now : undefined;
    }, 'the second page');
    assert.deepEqual(after.slice(0, shown.length), shown, 'the rows already shown stay where they were');
    assert.equal(after[shown.length], moved.id, 'the newest of the new rows comes first among them');
    // The rows of the second page are sorted among themselves, newest update first.
    const updated = after
      .slice(shown.length)
      .map((id) => Date.parse(ctx.service.store.engagements.find((e) => e.id === id)!.updatedAt));
    assert.deepEqual(
      updated,
      [...updated].sort((a, b) => b - a),
    );
  });
});
