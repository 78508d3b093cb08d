// Issue 25, as a person sees it: a service built on a JSON:API framework refuses a create with
// a 422 whose `errors[]` point at `/data/attributes/name`. The name box opens again with the
// service's reason under it (VS Code's validation message of the input box) and the name as
// it was typed, ready to be corrected. The packaged extension, the reference service speaking
// JSON:API errors, the real input boxes.
import assert from 'node:assert/strict';
import { NAME_MAX_LENGTH } from '../service/server';
import { CONTAINER, useWorkbench, VIEW } from './workbench';

describe('The service says no in its framework’s words (e2e)', function () {
  this.timeout(150_000);
  const workbench = useWorkbench();

  it('a create refused with a JSON:API 422: the reason under the name box, the typed name kept', async () => {
    const wb = workbench();
    wb.service.setReading({ errorBodies: 'jsonapi' });
    await wb.addEnvironmentFromWelcome(CONTAINER, 'Framework', wb.service.baseUrl, wb.service.keys.admin);
    await wb.waitFor(async () => (await wb.treeSize(VIEW)) > 0, 'the engagements of the service', 30_000);
    wb.service.clearRequests();

    // Longer than the 200 characters the service takes (the contract states no limit, so the extension sends it).
    const name = 'A name longer than this service takes, typed in full (e2e) '.padEnd(NAME_MAX_LENGTH + 1, 'x');
    await wb.clickSideBarAction('Create Engagement');
    await wb.answerCreateUpToConfirmation(name, 'Framework');
    await wb.chooseQuickPick(`Create “${name}”`);

    const message = wb.page.locator('.quick-input-widget .quick-input-message');
    await wb.waitFor(
      async () => /The service refused this name/.test((await message.textContent().catch(() => '')) ?? ''),
      'the name box with the service’s reason',
      30_000,
    );
    assert.equal(
      (await message.textContent())?.trim(),
      'The service refused this name: name must have at most 200 characters',
      'the reason the JSON:API body gave for /data/attributes/name',
    );
    assert.ok(await message.isVisible(), 'shown under the box');
    // The name step again (its prompt gives way to the reason while it is shown).
    await wb.waitForQuickInput('Create Engagement (1/4)');
    assert.equal(await wb.quickInput().inputValue(), name, 'the name as typed, to correct');
    await wb.screenshot('error-bodies-jsonapi-name-refused');

    const posts = wb.service.requests.filter((r) => r.method === 'POST');
    assert.equal(posts.length, 1, 'sent once');
    assert.equal(posts[0].status, 422);
    assert.ok(!wb.service.store.engagements.some((e) => e.name === name), 'nothing created');
    const toasts = await wb.notificationTexts();
    assert.ok(
      !toasts.some((t) => /Could not|refused/i.test(t)),
      `said in the box, not a notification: ${toasts.join(' | ')}`,
    );

    // The cursor is at the end of the name, not over all of it: a key pressed corrects it.
    await wb.page.keyboard.press('Backspace');
    assert.equal(
      await wb.quickInput().inputValue(),
      name.slice(0, -1),
      'one character taken off the end, the rest kept',
    );

    // Corrected in place: the shorter name is created, in one more request.
    const corrected = 'Corrected after the refusal (e2e)';
    await wb.quickInput().fill(corrected);
    await wb.page.keyboard.press('Enter');
    await wb.waitForQuickInput('Choose a type');
    await wb.page.keyboard.press('Enter');
    await wb.answerInput('Description', '');
    await wb.chooseQuickPick(`Create “${corrected}”`);
    await wb.treeRow(VIEW, corrected).waitFor({ timeout: 30_000 });
    assert.equal(wb.service.requests.filter((r) => r.method === 'POST').length, 2);
  });
});
