// Issue 25, as a person sees it: a service that accepts a create for processing (202 with a
// Location) and makes the engagement a few seconds later. The packaged extension shows the
// create at once as a pending row (its own icon, "pending", the name and type typed), looks for
// it again, and puts the engagement in its place when the service shows it: nothing is
// reported as failed, nothing is sent twice. Screenshots land in test-results/e2e/.
import assert from 'node:assert/strict';
import { READINGS } from '../service/server';
import { CONTAINER, useWorkbench, VIEW } from './workbench';

/** The delayed-202 reading, its delay made long enough to see (and photograph) the pending row. */
const DELAY_MS = 5_000;

describe('A create the service accepts for processing (e2e)', function () {
  this.timeout(150_000);
  const workbench = useWorkbench();

  it('shows as pending in the tree, then as the engagement, with one POST in the service’s log', async () => {
    const wb = workbench();
    await wb.addEnvironmentFromWelcome(CONTAINER, 'Queued', wb.service.baseUrl, wb.service.keys.admin);
    await wb.waitFor(async () => (await wb.treeSize(VIEW)) === 26, 'the first 25 engagements and "Load more…"', 30_000);
    // Wide enough to read the descriptions in the pictures.
    await wb.resizeSideBar(520);
    wb.service.setReading({ ...READINGS.delayedAccepted, acceptedDelayMs: DELAY_MS });
    wb.service.clearRequests();

    const name = 'Accepted for processing (e2e)';
    await wb.clickSideBarAction('Create Engagement');
    await wb.answerCreateUpToConfirmation(name, 'Queued');
    await wb.chooseQuickPick(`Create “${name}”`);

    // At once: a row of its own, first, with the name and type typed, its own icon, "pending".
    const pending = await wb.waitFor(
      async () => (await wb.treeItems(VIEW)).find((r) => r.label === name && /pending/.test(r.description)),
      'the pending row',
      15_000,
    );
    assert.equal(pending.description, 'pending · onboarding');
    assert.deepEqual(pending.icons, ['codicon-watch']);
    assert.equal((await wb.treeItems(VIEW))[0].label, name, 'first in the tree');
    assert.equal(wb.service.store.engagements.filter((e) => e.name === name).length, 0, 'not made yet');
    await wb.screenshot('accepted-pending-row', { clip: await wb.sideBarClip() });

    // The service makes it after its delay: the engagement takes the row's place.
    const row = await wb.waitFor(
      async () => (await wb.treeItems(VIEW)).find((r) => r.label === name && !/pending/.test(r.description)),
      'the engagement in place of the pending row',
      60_000,
    );
    const made = wb.service.store.engagements.filter((e) => e.name === name);
    assert.equal(made.length, 1, 'created once');
    assert.deepEqual(row.icons, ['codicon-circle-large-filled'], 'the icon of an active engagement');
    assert.match(row.description, /^onboarding · 0 evaluations · updated /);
    assert.equal(
      (await wb.treeItems(VIEW)).filter((r) => r.label === name).length,
      1,
      'one row: the pending one is gone',
    );
    await wb.waitFor(
      async () => (await wb.treeRow(VIEW, name).getAttribute('aria-selected')) === 'true',
      'the new engagement revealed and selected',
      15_000,
    );
    await wb.screenshot('accepted-shown', { clip: await wb.sideBarClip() });

    const posts = wb.service.requests.filter((r) => r.method === 'POST');
    assert.equal(posts.length, 1, 'one POST in the service’s log');
    const gets = wb.service.requests.filter((r) => r.method === 'GET' && r.path === `/v1/engagements/${made[0].id}`);
    // Looks at 0, 0.5, 1.5, 3.5 and 7.5 s: the fifth finds it (the service makes it at 5 s).
    assert.ok(gets.length >= 2 && gets.length <= 9, `${gets.length} GETs of the engagement`);
    console.log(`    [e2e] a 202 create: ${posts.length} POST, ${gets.length} GETs of the engagement`);
    const toasts = await wb.notificationTexts();
    assert.ok(!toasts.some((t) => /Could not|failed|could not be read/i.test(t)), `no failure: ${toasts.join(' | ')}`);
  });
});
