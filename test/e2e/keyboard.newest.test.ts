// Issue 28, keyboard only: no mouse event is sent. Add an environment and create an engagement
// from the command palette, change its status from the details panel, open the usage
// dashboard, change the period, drill into a key, page the records and export them to CSV,
// each control reached with Tab and used with Enter; focus stays on the control across the
// refresh it causes. Newest VS Code only (CONTRIBUTING.md, "Accessibility").
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { useWorkbench, type Workbench } from './workbench';

const NAME = 'Keyboard Only Review';

/** Presses Tab (bounded) until the frame's focused element matches `selector`; true once it does. */
async function tabTo(wb: Workbench, frame: Frame, selector: string, most = 80): Promise<void> {
  for (let i = 0; i < most; i++) {
    if (await frame.evaluate((s) => document.activeElement?.matches(s) ?? false, selector).catch(() => false)) return;
    await wb.page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector} in ${most} presses`);
}

/** Focus is on the element matching `selector` (after a refresh re-rendered it). */
async function focusedOn(frame: Frame, selector: string): Promise<boolean> {
  return frame.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);
}

/** Counts pointer presses in a document (the workbench or a webview's frame); none may come. */
async function countPointer(target: Frame | Workbench['page']): Promise<void> {
  await target.evaluate(() => {
    const w = window as unknown as { pointerPresses?: number };
    if (w.pointerPresses !== undefined) return;
    w.pointerPresses = 0;
    for (const type of ['pointerdown', 'mousedown', 'contextmenu'])
      window.addEventListener(type, () => (w.pointerPresses = (w.pointerPresses ?? 0) + 1), true);
  });
}

async function pointerPresses(target: Frame | Workbench['page']): Promise<number> {
  return target.evaluate(() => (window as unknown as { pointerPresses?: number }).pointerPresses ?? -1);
}

/** Focuses the editor group (the webview in it) with the keyboard. */
async function focusEditor(wb: Workbench): Promise<void> {
  await wb.runCommand('View: Focus Active Editor Group');
}

describe('Keyboard only (e2e)', function () {
  this.timeout(180_000);
  const workbench = useWorkbench({ settings: { 'workbench.colorTheme': 'Default Dark Modern' } });

  it('creates an engagement and changes its status from the details panel', async () => {
    const wb = workbench();
    await countPointer(wb.page);
    await wb.addEnvironment('Staging', wb.service.baseUrl, wb.service.keys.admin);

    await wb.runCommand('Create Engagement');
    await wb.answerInput('Name of the engagement', NAME);
    await wb.waitForQuickInput('Choose a type');
    await wb.quickInput().fill('onboarding');
    await wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'onboarding' }).first().waitFor();
    await wb.page.keyboard.press('Enter');
    await wb.answerInput('Description', '');
    await wb.waitForQuickInput('Create this engagement in Staging?');
    await wb.page
      .locator('.quick-input-widget .monaco-list-row', { hasText: `Create “${NAME}”` })
      .first()
      .waitFor();
    // The confirmation's first choice is Create; Enter takes it.
    await wb.page.keyboard.press('Enter');
    const created = await wb.waitFor(
      () => wb.service.store.engagements.find((e) => e.name === NAME),
      'the engagement created',
      30_000,
    );

    const details = await wb.goToEngagement(created.id, NAME);
    await countPointer(details);

    await focusEditor(wb);
    await tabTo(wb, details, 'button[data-action="changeStatus"]');
    await wb.page.keyboard.press('Enter');
    await wb.waitForQuickInput(/Status of/);
    const next = created.status === 'completed' ? 'active' : 'completed';
    await wb.quickInput().fill(next);
    await wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: next }).first().waitFor();
    await wb.page.keyboard.press('Enter');
    await wb.waitFor(
      async () => (await details.locator('.meta .status').textContent()) === next,
      'the panel to show the new status',
      30_000,
    );
    assert.equal(wb.service.store.getEngagement(created.id)?.status, next);
    assert.equal(await pointerPresses(details), 0, 'no pointer event in the details panel');
    assert.equal(await pointerPresses(wb.page), 0, 'no pointer event in the workbench');
  });

  it('opens the dashboard, changes the period, drills into a key, pages the records and exports CSV', async () => {
    const wb = workbench();
    await wb.runCommand('Open Usage Dashboard');
    const frame = await wb.webviewFrame('.meter-card[data-meter="calls"]:not(.skeleton-card)', 30_000);
    await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 30_000 });
    await countPointer(frame);
    await focusEditor(wb);

    // The period: Previous period, Enter; the month shown changes and focus stays on the button.
    const before = await frame.locator('input.month').inputValue();
    await tabTo(wb, frame, '[data-focus="prev-period"]');
    await wb.page.keyboard.press('Enter');
    await wb.waitFor(async () => (await frame.locator('input.month').inputValue()) !== before, 'the previous period');
    await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 30_000 });
    assert.ok(await focusedOn(frame, '[data-focus="prev-period"]'), 'focus kept on Previous period');

    // A key: its name is a button; Enter filters the records by it.
    await tabTo(wb, frame, 'button.key-filter');
    const key = (await frame.evaluate(() => document.activeElement?.textContent)) ?? '';
    await wb.page.keyboard.press('Enter');
    await frame.locator('#filter-key').waitFor({ timeout: 30_000 });
    assert.ok(((await frame.locator('#filter-key').textContent()) ?? '').includes(key), `filtered by ${key}`);
    await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 30_000 });
    await frame.locator('#scan-progress').waitFor({ state: 'detached', timeout: 30_000 });

    // Clear the key, then page the records: Next page, Enter; focus stays on Next page.
    await tabTo(wb, frame, '[data-focus="clear-key"]');
    await wb.page.keyboard.press('Enter');
    await frame.locator('#filter-key').waitFor({ state: 'detached', timeout: 30_000 });
    await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 30_000 });
    await tabTo(wb, frame, '[data-focus="next-page"]');
    await wb.page.keyboard.press('Enter');
    await frame.locator('#page-of', { hasText: /^Page 2 of/ }).waitFor({ timeout: 30_000 });
    await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 30_000 });
    assert.ok(await focusedOn(frame, '[data-focus="next-page"]'), 'focus kept on Next page');

    // Export CSV: the save box takes the proposed file with Enter.
    await tabTo(wb, frame, '#export-csv');
    await wb.page.keyboard.press('Enter');
    await wb.waitForQuickInput(/usage-staging-|Export/);
    await wb.page.keyboard.press('Enter');
    // The file exists before its text is in it: the notification says when the export is done.
    await wb.waitFor(
      async () => (await wb.notificationTexts()).some((t) => /^Exported \d+ usage records/.test(t)),
      'the notification that the records were exported',
      30_000,
    );
    const file = fs.readdirSync(wb.workspaceFolder).find((f) => f.endsWith('.csv'));
    assert.ok(file, 'the CSV file is in the workspace folder');
    const text = fs.readFileSync(path.join(wb.workspaceFolder, file), 'utf8');
    assert.ok(text.split('\n').length > 2, `${file} holds records`);
    assert.equal(await pointerPresses(frame), 0, 'no pointer event in the dashboard');
    assert.equal(await pointerPresses(wb.page), 0, 'no pointer event in the workbench');
  });
});
