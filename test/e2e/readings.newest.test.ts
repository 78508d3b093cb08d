// Issue 13, as a person sees it: the packaged extension against services that read the
// contract's open parts differently from ours. Wrapped bodies, writes answered with only a
// Location (201) or nothing (204), a service that caps its pages at 50, and one that does not
// page at all: every change typed into the input boxes is shown at once and reported as
// done; the list is complete or says why not. Screenshots land in test-results/e2e/.
import assert from 'node:assert/strict';
import { CONTAINER, useWorkbench, VIEW } from './workbench';

const TOTAL = 137;

describe('Services that read the contract differently (e2e)', function () {
  this.timeout(150_000);
  // The user asks for pages of 100, the case.
  const workbench = useWorkbench({ settings: { 'engagementUsage.engagements.pageSize': 100 } });

  it('wrapped bodies and empty write answers: create, rename and status change are shown at once, never called failed', async () => {
    const wb = workbench();
    wb.service.setReading({ wrapSingle: true, writes: 'location' });
    await wb.addEnvironmentFromWelcome(CONTAINER, 'Elsewhere', wb.service.baseUrl, wb.service.keys.admin);
    await wb.waitFor(async () => (await wb.treeSize(VIEW)) === 60, 'the 60 engagements of the service', 30_000);

    const name = 'Wrapped and empty answers (e2e)';
    await wb.clickSideBarAction('Create Engagement');
    await wb.answerCreateUpToConfirmation(name, 'Elsewhere');
    await wb.chooseQuickPick(`Create “${name}”`);
    const row = wb.treeRow(VIEW, name);
    await row.waitFor({ timeout: 30_000 });
    await wb.waitFor(
      async () => (await row.getAttribute('aria-selected')) === 'true',
      'the new engagement revealed and selected',
      15_000,
    );
    const created = wb.service.store.engagements.filter((e) => e.name === name);
    assert.equal(created.length, 1, 'created once');
    // The answer was 201 + Location and no body: the extension read the Location back.
    assert.ok(wb.service.requests.some((r) => r.method === 'GET' && r.path === `/v1/engagements/${created[0].id}`));

    const renamed = 'Renamed with a 204 (e2e)';
    await wb.contextMenu(row, /^Rename( Engagement)?…$/);
    await wb.answerInput(/New name/, renamed);
    await wb.treeRow(VIEW, renamed).waitFor({ timeout: 30_000 });

    wb.service.setReading({ wrapSingle: true, writes: 'accepted' });
    await wb.contextMenu(wb.treeRow(VIEW, renamed), /^Change (Engagement )?Status…$/);
    await wb.chooseQuickPick('completed');
    await wb.waitFor(
      async () => (await wb.treeItems(VIEW)).find((r) => r.label === renamed)?.icons.includes('codicon-pass-filled'),
      'the completed icon',
      30_000,
    );
    assert.equal(wb.service.store.engagements.find((e) => e.id === created[0].id)?.status, 'completed');
    assert.equal(wb.service.requests.filter((r) => r.method === 'PATCH').length, 2, 'each change sent once');
    const toasts = await wb.page.locator('.notifications-toasts .notification-toast').allInnerTexts();
    assert.ok(!toasts.some((t) => /Could not|failed/i.test(t)), `no failure reported: ${toasts.join(' | ')}`);
    await wb.screenshot('readings-wrapped-empty-writes', { clip: await wb.sideBarClip() });
  });

  it('a service capped at 50 per page: the 100 asked for come in its pages of 50, then "Load more… (100 of 137)" loads the rest', async () => {
    const wb = workbench();
    wb.service.setReading({ pageSizeCap: 50 });
    wb.service.store.seedEngagements(TOTAL);
    wb.service.clearRequests();
    await wb.clickSideBarAction('Refresh Engagements');
    await wb.waitFor(async () => (await wb.treeSize(VIEW)) === 101, '100 engagements and "Load more…"', 30_000);
    await wb.scrollTreeToEnd(VIEW);
    const more = wb.treeRow(VIEW, 'Load more… (100 of 137)');
    await more.waitFor({ timeout: 30_000 });
    await wb.screenshot('readings-capped-50', { clip: await wb.sideBarClip() });
    await more.click();
    await wb.waitFor(
      async () => (await wb.treeSize(VIEW)) === TOTAL,
      `all ${TOTAL} engagements, without "Load more…"`,
      30_000,
    );
    const later = wb.service.requests.filter(
      (r) => r.method === 'GET' && r.path === '/v1/engagements' && r.query.page !== '1',
    );
    assert.deepEqual(
      later.map((r) => `${r.query.page}×${r.query.pageSize}`),
      ['2×50', '3×50'],
      'later pages asked in the service’s size, each once',
    );
  });

  it('a service that does not page: the view says how many of how many it shows', async () => {
    const wb = workbench();
    wb.service.setReading({ ignorePage: true });
    await wb.clickSideBarAction('Refresh Engagements');
    // All 137 were shown: the refresh asks for page 2 again and gets page 1 back.
    const pane = wb.viewPane(VIEW);
    await wb.waitFor(
      async () => /Showing 100 of 137: the service does not page this list/.test(await pane.innerText()),
      'the view to say the list is incomplete',
      30_000,
    );
    await wb.waitFor(
      async () => (await wb.treeSize(VIEW)) === 100,
      'the tree to show the 100 the service gave',
      30_000,
    );
    await wb.screenshot('readings-not-paged', { clip: await wb.sideBarClip() });
  });
});
