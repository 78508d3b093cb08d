// Issue 5, as a person uses it: from a fresh VS Code with the packaged extension, add an
// environment through the welcome button, open the Engagements view from the activity bar,
// read the engagements (status icons, descriptions), page with "Load more…", create one by
// typing into the input boxes, change its status from the item's context menu. What the
// tree shows is checked against what the reference service holds; nothing of the
// extension's internals is called. On the newest VS Code only: the tree's rows, menus and
// input boxes are VS Code's own API on both; the oldest's tree and input boxes are met by the
// add-environment, chat, trust and hostile-service files there.
import assert from 'node:assert/strict';
import type { Engagement } from '../service/types';
import { CONTAINER, type TreeItem, useWorkbench, VIEW } from './workbench';

const PAGE_SIZE = 25; // the default of engagementUsage.pageSize
const NEW_NAME = 'Zürich Onboarding Review (e2e)';
const NEW_TYPE = 'onboarding';
const NEW_DESCRIPTION = 'Typed into the input boxes by the end-to-end test.';

/** The icon a person sees for a status: filled circle, check, or a neutral outline. */
function iconOf(status: string): string {
  if (status === 'active') return 'codicon-circle-large-filled';
  if (status === 'completed') return 'codicon-pass-filled';
  return 'codicon-circle-large-outline';
}

/** `type · N evaluations · updated 3 days ago` (Intl's short English), preceded by the status for statuses the contract does not name. */
function descriptionPattern(e: Engagement): RegExp {
  const count =
    e.evaluationCount === 1
      ? '1 evaluation'
      : `${new Intl.NumberFormat('en-US').format(e.evaluationCount)} evaluations`;
  const status = e.status === 'active' || e.status === 'completed' ? '' : `${escape(e.status)} · `;
  return new RegExp(
    `^${status}${escape(e.type)} · ${count} · updated (now|\\d+ (sec\\.|min\\.|hr\\.|days?|mo\\.|yr\\.) ago)$`,
  );
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What the tree shows of the loaded engagements: newest update first (the default sort). */
function byUpdated(list: readonly Engagement[]): Engagement[] {
  return [...list].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

function assertRowShows(row: TreeItem | undefined, e: Engagement): void {
  assert.ok(row, `a row for ${e.name}`);
  assert.equal(row.label, e.name);
  assert.deepEqual(row.icons, [iconOf(e.status)], `icon of "${e.name}" (status ${e.status})`);
  assert.match(row.description, descriptionPattern(e), `description of "${e.name}"`);
}

describe('Engagements view (e2e)', function () {
  this.timeout(120_000);
  const workbench = useWorkbench({ settings: { 'workbench.colorTheme': 'Default Dark Modern' } });

  it('after adding an environment, the view lists the first page with status icons and descriptions', async () => {
    const wb = workbench();
    await wb.addEnvironmentFromWelcome(CONTAINER, 'Staging', wb.service.baseUrl, wb.service.keys.admin);
    const expected = byUpdated(wb.service.store.engagements.slice(0, PAGE_SIZE));
    const rows = await wb.waitFor(
      async () => {
        const items = await wb.treeItems(VIEW);
        return items.length === PAGE_SIZE + 1 && items.every((i) => i.label) ? items : undefined;
      },
      `${PAGE_SIZE} engagements and "Load more…" in the view`,
      30_000,
    );

    rows.slice(0, PAGE_SIZE).forEach((row, i) => assertRowShows(row, expected[i]));
    assert.match(rows[PAGE_SIZE].label, /^Load more… \(25 of 60\)$/);
    // The title reads whole in a side bar of the default width, beside its actions.
    const title = wb.page.locator('.part.sidebar .composite.title h2').first();
    const seen = await title.evaluate((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth }));
    assert.match(seen.text, /^Engagements$/i);
    assert.equal(seen.cut, false, `the title "${seen.text}" is cut`);
    assert.equal(await wb.treeSize(VIEW), PAGE_SIZE + 1);
    // Every kind of icon is on screen: active, completed and at least one status the contract does not name.
    const kinds = new Set(rows.slice(0, PAGE_SIZE).flatMap((r) => r.icons));
    assert.deepEqual([...kinds].sort(), [
      'codicon-circle-large-filled',
      'codicon-circle-large-outline',
      'codicon-pass-filled',
    ]);
    // The statuses the contract names get their own colours (contributed theme colours); others none.
    const colours = await wb
      .viewPane(VIEW)
      .locator('.monaco-list-row[role="treeitem"]')
      .evaluateAll((list) =>
        list.map((row) => row.querySelector<HTMLElement>('.custom-view-tree-node-item-icon')?.style.color ?? ''),
      );
    const byStatus = new Map<string, Set<string>>();
    expected.forEach((e, i) => {
      const key = e.status === 'active' || e.status === 'completed' ? e.status : 'other';
      byStatus.set(key, (byStatus.get(key) ?? new Set()).add(colours[i]));
    });
    const [active, completed, other] = ['active', 'completed', 'other'].map((k) => [...(byStatus.get(k) ?? [])]);
    assert.equal(active.length, 1, `one colour for active: ${active.join(', ')}`);
    assert.equal(completed.length, 1, `one colour for completed: ${completed.join(', ')}`);
    assert.ok(
      active[0] && completed[0] && active[0] !== completed[0],
      `active and completed differ: ${active[0]} / ${completed[0]}`,
    );
    assert.deepEqual(other, [''], 'no colour for statuses the contract does not name');
  });

  it('"Load more…" loads the next page below the rows shown, and the last one, then disappears', async () => {
    const wb = workbench();
    const before = (await wb.treeItems(VIEW)).slice(0, 10).map((r) => r.label);
    await wb.treeRow(VIEW, 'Load more… (25 of 60)').click({ timeout: 15_000 });
    await wb.waitFor(
      async () => (await wb.treeSize(VIEW)) === 2 * PAGE_SIZE + 1,
      'the second page in the tree',
      30_000,
    );
    // Issue 28: the rows a Load more brings go below those shown (each page sorted by last
    // update within itself), never among them above where the user is reading.
    const first = byUpdated(wb.service.store.engagements.slice(0, PAGE_SIZE));
    const rows = await wb.treeItems(VIEW);
    rows.slice(0, 10).forEach((row, i) => assertRowShows(row, first[i]));
    assert.deepEqual(
      rows.slice(0, 10).map((r) => r.label),
      before,
      'the rows on screen before Load more are still there, in the same places',
    );

    await wb.scrollTreeToEnd(VIEW);
    const more = wb.treeRow(VIEW, 'Load more… (50 of 60)');
    await more.click({ timeout: 15_000 });
    await wb.waitFor(async () => (await wb.treeSize(VIEW)) === 60, 'all 60 engagements, without "Load more…"', 30_000);
    await wb.scrollTreeToEnd(VIEW);
    const end = await wb.treeItems(VIEW);
    assert.ok(!end.some((r) => r.label.startsWith('Load more')), 'no "Load more…" once everything is loaded');
    const last = byUpdated(wb.service.store.engagements.slice(2 * PAGE_SIZE));
    assertRowShows(end.at(-1), last.at(-1) as Engagement);
    const pages = wb.service.requests
      .filter((r) => r.method === 'GET' && r.path === '/v1/engagements')
      .map((r) => r.query.page ?? '1');
    assert.deepEqual([...new Set(pages)].sort(), ['1', '2', '3']);
  });

  it('creates an engagement by typing into the input boxes (name → type → description → confirm)', async () => {
    const wb = workbench();
    wb.service.clearRequests();
    await wb.clickSideBarAction('Create Engagement');
    await wb.waitForQuickInput('Name of the engagement');
    assert.match(await wb.quickInputText(), /1\/4/, 'the first of four steps');
    await wb.answerInput('Name of the engagement', `  ${NEW_NAME} `);

    await wb.waitForQuickInput('Choose a type');
    assert.match(await wb.quickInputText(), /2\/4/);
    await wb.quickInput().fill(NEW_TYPE);
    await wb.chooseQuickPick(NEW_TYPE);

    await wb.answerInput('Description', NEW_DESCRIPTION);
    await wb.waitForQuickInput('Create this engagement in Staging?');
    assert.match(await wb.quickInputText(), /4\/4/);
    await wb.chooseQuickPick(`Create “${NEW_NAME}”`);

    const row = wb.treeRow(VIEW, NEW_NAME);
    await row.waitFor({ timeout: 30_000 });
    const created = wb.service.store.engagements.find((e) => e.name === NEW_NAME);
    assert.ok(created, 'the service holds the new engagement');
    const posts = wb.service.requests.filter((r) => r.method === 'POST');
    assert.deepEqual(
      posts.map((r) => r.body),
      [{ name: NEW_NAME, type: NEW_TYPE, description: NEW_DESCRIPTION }],
      'one POST with the trimmed name, the type and the description',
    );
    const items = await wb.treeItems(VIEW);
    assertRowShows(items[0], created);
    assert.match(items[0].description, /^onboarding · 0 evaluations · updated now$/);
    assert.equal(await row.getAttribute('aria-selected'), 'true', 'the new engagement is selected');
  });

  it('changes its status from the context menu (right-click → Change Status… → completed)', async () => {
    const wb = workbench();
    wb.service.clearRequests();
    await wb.changeStatusFromMenu(VIEW, NEW_NAME, 'completed', 'codicon-pass-filled');
    const row = wb.treeRow(VIEW, NEW_NAME);
    const engagement = wb.service.store.engagements.find((e) => e.name === NEW_NAME);
    assert.ok(engagement, 'the service still holds the engagement');
    assert.equal(engagement.status, 'completed');
    const patches = wb.service.requests.filter((r) => r.method === 'PATCH');
    assert.deepEqual(
      patches.map((r) => r.body),
      [{ status: 'completed' }],
      'one PATCH carrying only the status',
    );
    const items = await wb.treeItems(VIEW);
    assertRowShows(items[0], engagement);
    assert.match((await row.getAttribute('aria-label')) ?? '', /status completed/);

    // The picture for the README: the side bar widened so the descriptions can be read.
    await wb.resizeSideBar(560);
    await wb.clearNotifications();
    await wb.screenshot('docs-engagements', { clip: await wb.sideBarClip() });

    // Its tooltip (Markdown) has every field, the new status among them.
    const tooltip = await wb.hoverText(row);
    for (const text of [engagement.id, 'completed', NEW_TYPE, NEW_DESCRIPTION])
      assert.ok(tooltip.includes(text), `the tooltip shows ${text}: ${tooltip}`);
    assert.match(tooltip, /Evaluations\s+0\b/);
    await wb.screenshot('engagement-tooltip', { keepPointer: true });
  });
});
