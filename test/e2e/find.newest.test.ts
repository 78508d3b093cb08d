// Issue 16, as a person uses it, with the packaged extension in a real VS Code: Go to
// Engagement finds one on the last page of 1,000 and reveals it; a filter over the 1,000
// shows the right count in the view's title; the details panel with its actions (the
// README's picture); and a key that may only read sees no write action after a reload.
import assert from 'node:assert/strict';
import { CONTAINER, useWorkbench, VIEW } from './workbench';

/** What the view's filter does with a name: case- and accent-insensitive "contains". */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A pattern for an instant written out in English, in UTC, without Intl: `Nov 19, 2026, 2:03 PM UTC`.
 * The space before AM/PM is a plain or a narrow no-break one (ICU 72 and later write U+202F).
 */
function englishUtc(iso: string): string {
  const d = new Date(iso);
  const hours = d.getUTCHours();
  const minutes = String(d.getUTCMinutes()).padStart(2, '0');
  const clock = `${hours % 12 || 12}:${minutes}[ \u202f]${hours < 12 ? 'AM' : 'PM'}`;
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}, ${clock} UTC`;
}

describe('Find and act on any engagement (e2e)', function () {
  this.timeout(180_000);
  const workbench = useWorkbench({ settings: { 'workbench.colorTheme': 'Default Dark Modern' } });

  describe('1,000 engagements, a key that may write', () => {
    it('Go to Engagement finds an engagement on the last page and reveals it in the tree, with its details', async () => {
      const wb = workbench();
      wb.service.store.seedEngagements(1000);
      await wb.addEnvironmentFromWelcome(CONTAINER, 'Staging', wb.service.baseUrl, wb.service.keys.admin);
      await wb.treeRow(VIEW, 'Load more… (25 of 1,000)').waitFor({ timeout: 30_000 });
      const target = wb.service.store.engagements.at(-1)!;
      assert.ok(
        !(await wb.treeItems(VIEW)).some((r) => r.label === target.name),
        'the last engagement is not loaded yet',
      );

      // The reads behind fail first: the quick pick says so above what is loaded, with Retry
      // (the reason under it) and Show Logs; Retry reads again with the quick pick open.
      wb.service.faults.add({ path: '/engagements', kind: 'status', status: 503, times: 1_000 });
      await wb.page.locator('.monaco-workbench').focus();
      await wb.page.keyboard.press('Control+Alt+E');
      await wb.waitForQuickInput('Go to Engagement in Staging');
      const rows = wb.page.locator('.quick-input-widget .monaco-list-row');
      const retry = rows.filter({ hasText: 'Retry' }).first();
      await retry.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(await retry.innerText(), /Could not read the engagements[\s\S]*HTTP 503/);
      assert.ok(await rows.filter({ hasText: 'Show Logs' }).first().isVisible(), 'Show Logs offered');
      await wb.screenshot('go-to-failed-read');
      wb.service.faults.clear();
      await retry.click();
      await retry.waitFor({ state: 'detached', timeout: 30_000 });

      await wb.quickInput().fill(target.id);
      const row = wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: target.id }).first();
      await row.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match((await row.textContent()) ?? '', new RegExp(`${target.status} · ${target.type}`));
      await wb.page.keyboard.press('Enter');

      // Names repeat among 1,000; the selected row is the one revealed.
      const selected = wb.viewPane(VIEW).locator('.monaco-list-row[role="treeitem"][aria-selected="true"]');
      await wb.waitFor(
        async () =>
          (await selected.count()) === 1 &&
          (await selected.locator('.label-name').textContent())?.trim() === target.name,
        'the engagement to be revealed and selected in the tree',
        30_000,
      );
      const details = await wb.webviewFrame('h1.name', 30_000);
      await wb.waitFor(async () => (await details.locator('h1.name').textContent()) === target.name, 'its details');
      const whole = wb.service.requests.filter(
        (r) => r.method === 'GET' && r.path === '/v1/engagements' && r.query.pageSize === '100',
      );
      assert.equal(whole.length, 10, 'every page read once, in pages of 100');
      assert.equal(await wb.treeSize(VIEW), 1000, 'all 1,000 in the tree, no "Load more…"');
    });

    it('a filter over the 1,000 engagements shows how many match of how many in the view title', async () => {
      const wb = workbench();
      const word = wb.service.store.engagements[500].name.split(/\s+/)[0];
      const expected = wb.service.store.engagements.filter((e) => fold(e.name).includes(fold(word))).length;
      assert.ok(expected > 0 && expected < 1000, `"${word}" matches some: ${expected}`);
      await wb.runCommand('Filter Engagements');
      await wb.chooseQuickPick('Name Contains…');
      await wb.answerInput('Filter by Name', word);
      const title = `${expected.toLocaleString('en-US')} of 1,000 match · name: "${word}"`;
      await wb.page.locator('.part.sidebar', { hasText: title }).first().waitFor({ timeout: 30_000 });
      await wb.waitFor(async () => (await wb.treeSize(VIEW)) === expected, `${expected} rows in the tree`);
      await wb.screenshot('filter-1000');
      await wb.runCommand('Clear Engagement Filter');
      await wb.waitFor(async () => (await wb.treeSize(VIEW)) === 1000, 'all 1,000 again');
    });

    it('the details panel shows every field and its actions; Change Status from it updates it and the tree', async () => {
      const wb = workbench();
      const target = (await wb.treeItems(VIEW))[1];
      await wb.treeRow(VIEW, target.label).click({ timeout: 15_000 });
      const details = await wb.webviewFrame('h1.name', 30_000);
      await wb.waitFor(
        async () => (await details.locator('h1.name').textContent()) === target.label,
        'the details of the clicked engagement',
      );
      // Names repeat among 1,000: the id on screen tells which engagement it is.
      const shownId = (await details.locator('table.fields td code').first().textContent()) ?? '';
      const engagement = wb.service.store.engagements.find((e) => e.id === shownId)!;
      assert.equal(engagement?.name, target.label, 'the details of the clicked row');
      const buttons = await details.locator('.actions button').allTextContents();
      assert.deepEqual(
        buttons.map((b) => b.replace(/^\W+/, '').trim()),
        ['Edit…', 'Change Status…', 'Copy ID', 'Copy Link', 'Refresh', 'Open Usage Dashboard'],
      );
      const fields = await details.locator('table.fields th').allTextContents();
      assert.deepEqual(fields.slice(0, 6), ['ID', 'Type', 'Status', 'Evaluations', 'Created', 'Updated']);
      // The date as an English reader expects it, in UTC, and how long ago.
      assert.match(
        (await details.locator('table.fields td').nth(4).textContent()) ?? '',
        new RegExp(`^${englishUtc(engagement.createdAt)} \\((now|.+ ago)\\)$`),
        'a readable date',
      );
      assert.ok(!(await details.locator('body').innerText()).includes('\\-'), 'no Markdown escapes on screen');

      const next = engagement.status === 'completed' ? 'active' : 'completed';
      await details.locator('button[data-action="changeStatus"]').click();
      await wb.waitForQuickInput(/Status of/);
      await wb.chooseQuickPick(next);
      await wb.waitFor(
        async () => (await details.locator('.meta .status').textContent()) === next,
        'the panel to show the new status',
      );
      assert.equal(wb.service.store.engagements.find((e) => e.id === engagement.id)?.status, next);
      await wb.clearNotifications();
      await wb.screenshot('docs-engagement-details');
    });
  });

  describe('a read-only key', () => {
    // The suite before left an environment with a key that may write, its details open and
    // 1,000 engagements in the service: removed, closed and reset, so this one starts at the
    // welcome view with the service's 60 engagements, as on a first run.
    before(async function () {
      this.timeout(120_000);
      const wb = workbench();
      await wb.page.keyboard.press('Escape');
      await wb.closeEditors();
      await wb.removeEnvironments(CONTAINER);
      wb.service.reset();
      await wb.clearNotifications();
    });

    it('once a write is refused, no write action is offered, also after a reload; the view title says so', async () => {
      const wb = workbench();
      await wb.addEnvironmentFromWelcome(CONTAINER, 'Reports', wb.service.baseUrl, wb.service.keys.readOnly);
      const first = (
        await wb.waitFor(
          async () => ((await wb.treeItems(VIEW)).length > 1 ? wb.treeItems(VIEW) : undefined),
          'the engagements',
          30_000,
        )
      )[0];
      const row = wb.treeRow(VIEW, first.label);
      await wb.contextMenu(row, /^Rename (Engagement)?…$/);
      await wb.answerInput(/name/i, 'Not allowed');
      await wb.page
        .locator('.notifications-toasts', { hasText: 'engagements:write' })
        .first()
        .waitFor({ timeout: 60_000 });

      // Said at once in the view's title, then the window is reloaded as a person does.
      await wb.page.locator('.part.sidebar', { hasText: 'read-only key' }).first().waitFor({ timeout: 60_000 });
      await wb.clearNotifications();
      await wb.reloadWindow();
      await wb.openViewContainer(CONTAINER);
      // The view shows the page saved by the last session, then replaces its rows with the fresh
      // page: a click on a row being replaced is lost (as for a person). Wait for the fresh page.
      await wb.waitFor(
        async () => !/Showing engagements saved/.test(await wb.viewPane(VIEW).innerText()),
        'the fresh page after the reload',
        60_000,
      );
      const again = wb.treeRow(VIEW, first.label);
      await again.waitFor({ timeout: 60_000 });
      await wb.page.locator('.part.sidebar', { hasText: 'read-only key' }).first().waitFor({ timeout: 60_000 });
      const titleActions = await wb.page
        .locator('.part.sidebar .title-actions .action-label, .part.sidebar .pane-header .actions .action-label')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
      assert.ok(
        titleActions.some((a) => a.startsWith('Go to Engagement')),
        `the title actions: ${titleActions.join(', ')}`,
      );
      assert.ok(!titleActions.some((a) => a.startsWith('Create Engagement')), 'no Create in the title');
      // The menu is read once it is on screen (under load it was read while still opening: empty).
      const items = wb.page.locator('.monaco-menu .action-item .action-label');
      await again.click({ button: 'right', timeout: 15_000 });
      await items
        .first()
        .waitFor({ timeout: 15_000 })
        .catch((error: unknown) => wb.failOnScreen("the row's context menu did not open", 'context menu', error));
      const menu = await items.allTextContents();
      await wb.page.keyboard.press('Escape');
      await items.first().waitFor({ state: 'hidden', timeout: 15_000 });
      assert.ok(
        menu.some((m) => m.startsWith('Copy Engagement ID')),
        `the context menu: ${menu.join(', ')}`,
      );
      assert.ok(
        !menu.some((m) => /Rename|Edit|Change/.test(m)),
        `no write action in the context menu: ${menu.join(', ')}`,
      );
      await again.click({ timeout: 15_000 });
      const details = await wb
        .webviewFrame('h1.name', 30_000)
        .catch((error: unknown) => wb.failOnScreen('no details after a click on the row', 'row click', error));
      // Copy Link only reads: it stays offered with a read-only key.
      await wb.waitFor(async () => (await details.locator('.actions button').count()) === 4, 'the details actions');
      assert.deepEqual(
        (await details.locator('.actions button').allTextContents()).map((b) => b.replace(/^\W+/, '').trim()),
        ['Copy ID', 'Copy Link', 'Refresh', 'Open Usage Dashboard'],
      );
      // Reading stays offered: Go to Engagement opens.
      await wb.runCommand('Go to Engagement');
      await wb.waitForQuickInput('Go to Engagement in Reports');
      await wb.page.keyboard.press('Escape');
      await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 15_000 });
      await wb.openPalette();
      // The Command Palette: each write command looked for by name, after one that is offered.
      for (const title of ['Create Engagement', 'Rename Engagement', 'Edit Engagement', 'Change Engagement Status']) {
        await wb.quickInput().fill('>Engagements: Copy Engagement ID');
        const rows = wb.page.locator('.quick-input-widget .monaco-list-row');
        await wb.waitFor(
          async () => (await rows.allTextContents()).some((r) => r.includes('Copy Engagement ID')),
          'Copy Engagement ID in the palette',
        );
        await wb.quickInput().fill(`>Engagements: ${title}`);
        // The list for this title, not the one before: its first row is the command itself
        // (offered), or VS Code's "similar commands" (1.139; Copy Engagement ID among them) or
        // "No matching commands" when no command matches.
        const found = await wb.waitFor(async () => {
          const now = await rows.allTextContents();
          const settled =
            now.some((r) => r.includes(title)) || /similar commands|No matching commands/.test(now[0] ?? '');
          return settled ? now : undefined;
        }, `the palette to list what matches "${title}"`);
        assert.ok(!found.some((r) => r.includes(title)), `${title} is not in the palette: ${found.join(', ')}`);
      }
      await wb.page.keyboard.press('Escape');
    });
  });
});
