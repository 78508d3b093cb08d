// Issue 28: the dashboard and the details panel read by an accessibility engine (axe-core,
// WCAG 2.1 A and AA) inside their frames in the real browser, in the four themes and in their
// states (data, loading, no data, error, read-only key, narrow panel), with a picture of each.
// Runs on the newest VS Code only (`.newest.test.ts`, chosen by scripts/run-e2e.mjs): see
// CONTRIBUTING.md, "Accessibility".
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { makeSummary } from '../service/seed';
import { axeViolations, describeViolations } from './axe';
import { CONTAINER, SCREENSHOT_DIR, useWorkbench, type Workbench } from './workbench';

const THEMES = [
  { name: 'Default Dark Modern', slug: 'dark' },
  { name: 'Default Light Modern', slug: 'light' },
  { name: 'Default High Contrast', slug: 'hc-dark' },
  { name: 'Default High Contrast Light', slug: 'hc-light' },
] as const;
/** The narrow panel of item 4: the dashboard and the details in 320 CSS pixels. */
const NARROW = 320;

/** Every axe run of this file: webview × theme × state → violations, written for the report. */
const results: Array<{ webview: string; theme: string; state: string; violations: number; rules: string[] }> = [];

function previousPeriod(period: string): string {
  const [year, month] = period.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 2, 1));
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Axe in the frame: 0 violations, else each one named; and a picture of the window. */
async function check(wb: Workbench, frame: Frame, webview: string, theme: string, state: string): Promise<void> {
  const violations = await axeViolations(frame);
  results.push({ webview, theme, state, violations: violations.length, rules: violations.map((v) => v.id) });
  await wb.screenshot(`a11y-${webview}-${theme}-${state}`);
  assert.equal(violations.length, 0, `${webview} · ${theme} · ${state}:\n${describeViolations(violations)}`);
}

async function settled(frame: Frame): Promise<void> {
  await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 30_000 });
  await frame
    .locator('.meter-card.skeleton-card, .skeleton-row, .stale')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 });
}

/**
 * The page of the frame does not scroll sideways (tables may scroll inside themselves), once
 * the webview has laid itself out at its new width: the resize reaches it as a frame resize,
 * and what it draws for the width (the records table's columns) comes in the frames after.
 */
async function assertNoPageScroll(wb: Workbench, frame: Frame, name: string): Promise<void> {
  const measure = () =>
    frame.evaluate(() => {
      const width = document.documentElement.clientWidth;
      // What sticks out (outside a frame that scrolls by itself), to say what to fix.
      const out = [...document.querySelectorAll<HTMLElement>('body *')]
        .filter((e) => e.getBoundingClientRect().right > width + 0.5 && !e.closest('.table-wrap'))
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)})`);
      return { scrollWidth: document.documentElement.scrollWidth, width, out };
    });
  let seen = await measure();
  await wb
    .waitFor(async () => (seen = await measure()).scrollWidth <= seen.width, 'the page within its width', 5_000)
    .catch(() => undefined); // the assertion below says what sticks out
  await wb.screenshot(name);
  assert.ok(
    seen.scrollWidth <= seen.width,
    `the page is ${seen.scrollWidth} px wide in ${seen.width} px: ${seen.out.join(', ')}`,
  );
}

/** Both side bars closed and the window as wide as the activity bar and `width` pixels of editor. */
async function editorWidth(wb: Workbench, width: number): Promise<void> {
  if (await wb.page.locator('.part.sidebar').isVisible()) await wb.runCommand('Close Primary Side Bar');
  if (await wb.page.locator('.part.auxiliarybar').isVisible()) await wb.runCommand('Hide Secondary Side Bar');
  const bar = await wb.page.locator('.part.activitybar').boundingBox();
  await wb.page.setViewportSize({ width: Math.round((bar?.width ?? 48) + width), height: 900 });
}

/** The frame of a webview once it is `width` pixels wide or less (a resize may make it again). */
async function narrowFrame(wb: Workbench, has: string, width: number): Promise<Frame> {
  return wb.waitFor(async () => {
    const frame = await wb.webviewFrame(has);
    return (await frame.evaluate(() => window.innerWidth).catch(() => Infinity)) <= width ? frame : undefined;
  }, `a panel of ${width} px`);
}

after(() => {
  if (!results.length) return;
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  fs.writeFileSync(path.join(SCREENSHOT_DIR, 'a11y-axe.json'), JSON.stringify(results, null, 2));
  console.log(
    `    axe: ${results.length} runs, ${results.reduce((n, r) => n + r.violations, 0)} violations` +
      ` (test-results/…/a11y-axe.json)`,
  );
});

for (const theme of THEMES) {
  describe(`Accessibility: ${theme.name} (e2e)`, function () {
    this.timeout(180_000);
    // A fresh VS Code per theme, started with the theme in its settings: switching the theme of
    // the open window was tried (issue 39) and not applied there within 15 s, neither by
    // settings.json written on disk nor through the colour theme picker (Ctrl+K Ctrl+T).
    const workbench = useWorkbench({ settings: { 'workbench.colorTheme': theme.name } });
    let dashboard: Frame;

    it('the dashboard with data, while loading, in error, with no data: 0 WCAG 2.1 A/AA violations', async () => {
      const wb = workbench();
      await wb.addEnvironmentFromWelcome(CONTAINER, 'Staging', wb.service.baseUrl, wb.service.keys.admin);
      await wb.hideSideBar();
      await wb.clearNotifications();
      await wb.runCommand('Open Usage Dashboard');
      dashboard = await wb.webviewFrame('.meter-card[data-meter="calls"]:not(.skeleton-card)', 30_000);
      await settled(dashboard);
      await check(wb, dashboard, 'dashboard', theme.slug, 'data');
      // The records filter's text box reads as a box: its border is drawn, not transparent.
      const border = await dashboard
        .locator('#filter-text')
        .evaluate((e) => getComputedStyle(e).borderTopColor + ' ' + getComputedStyle(e).borderTopWidth);
      assert.doesNotMatch(border, /rgba\(\d+, \d+, \d+, 0\)|transparent| 0px$/, `the filter box's border: ${border}`);

      // Loading: every answer held back; what is on screen says it is busy.
      const release = wb.service.holdAnswers();
      try {
        await dashboard.locator('#refresh').click();
        await dashboard.locator('#app[aria-busy="true"]').waitFor({ timeout: 10_000 });
        await check(wb, dashboard, 'dashboard', theme.slug, 'loading');
      } finally {
        release();
      }
      await settled(dashboard);

      // Error: the service fails every usage read.
      wb.service.faults.add({ path: '/usage', kind: 'status', status: 500 });
      await dashboard.locator('#refresh').click();
      await dashboard.locator('.error-box').first().waitFor({ timeout: 30_000 });
      await dashboard.locator('#app[aria-busy="false"]').waitFor({ timeout: 30_000 });
      await check(wb, dashboard, 'dashboard', theme.slug, 'error');
      wb.service.faults.clear();
      await dashboard.locator('#refresh').click();
      await settled(dashboard);

      // No data: a period the service answers with zero usage, no keys and no records.
      const previous = previousPeriod(wb.service.store.currentPeriod());
      wb.service.store.setSummary(previous, makeSummary(previous, { calls: 0, webhooks: 0, storage_gb: 0 }));
      wb.service.store.setByKey(previous, []);
      wb.service.store.setDetails(previous, []);
      await dashboard.getByRole('button', { name: 'Previous period' }).click();
      await dashboard.locator('#empty-period').waitFor({ timeout: 30_000 });
      await settled(dashboard);
      await check(wb, dashboard, 'dashboard', theme.slug, 'no-data');
      await dashboard.getByRole('button', { name: 'Next period' }).click();
      // Back on the current period, as the next test expects it: `settled` alone can pass before
      // the click has changed anything (a CI run measured the empty period in the narrow test).
      const current = wb.service.store.currentPeriod();
      await wb.waitFor(
        async () =>
          (await dashboard.locator('input.month').inputValue()) === current &&
          (await dashboard.locator('#empty-period').count()) === 0 &&
          (await dashboard.locator('#details-table tbody tr').count()) > 0,
        `the dashboard back on ${current} with its records`,
        30_000,
      );
      await settled(dashboard);
    });

    it(`the dashboard in a ${NARROW} px panel: no sideways scrolling of the page, 0 violations`, async () => {
      const wb = workbench();
      await editorWidth(wb, NARROW);
      try {
        dashboard = await narrowFrame(wb, '.meter-card', NARROW);
        await settled(dashboard);
        await assertNoPageScroll(wb, dashboard, `a11y-dashboard-${theme.slug}-narrow`);
        // The records table scrolls inside its frame; scrolled to its end, its last column is whole.
        const last = await dashboard.evaluate(() => {
          const wrap = document.querySelector<HTMLElement>('#details .table-wrap');
          const th = document.querySelector<HTMLElement>('#details-table thead th:last-child');
          if (!wrap || !th) return undefined;
          wrap.scrollLeft = wrap.scrollWidth;
          return { cell: th.getBoundingClientRect().right, frame: wrap.getBoundingClientRect().right };
        });
        assert.ok(last, 'the records table has columns');
        assert.ok(last.cell <= last.frame + 1, `the last column ends at ${last.cell}, its frame at ${last.frame}`);
        await check(wb, dashboard, 'dashboard', theme.slug, 'narrow');
      } finally {
        await wb.page.setViewportSize({ width: 1400, height: 900 });
      }
    });

    it('the details panel, with a key that may write and a read-only key, wide and narrow: 0 violations', async () => {
      const wb = workbench();
      const target = wb.service.store.engagements[3];
      const name = target.name;
      let details = await wb.goToEngagement(target.id, target.name);
      await check(wb, details, 'details', theme.slug, 'data');

      // A 5,000-character name: the ID, the status and the actions stay on screen; a button shows it whole.
      const long = 'Quarterly onboarding call review '.repeat(160).slice(0, 5_000);
      wb.service.store.updateEngagement(target.id, { name: long });
      await details.locator('button[data-action="refresh"]').click();
      await wb.waitFor(async () => (await details.locator('h1.name').textContent()) === long, 'the long name');
      const onScreen = await details.evaluate(() =>
        ['.meta .status', '.actions button[data-action="edit"]', 'table.fields td code'].map((selector) => {
          const box = document.querySelector(selector)?.getBoundingClientRect();
          return { selector, visible: box !== undefined && box.bottom <= window.innerHeight && box.height > 0 };
        }),
      );
      for (const { selector, visible } of onScreen) assert.ok(visible, `${selector} is on screen under a long name`);
      const toggle = details.locator('button.name-toggle');
      assert.equal(await toggle.textContent(), 'Show the whole name (5,000 characters)');
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      await check(wb, details, 'details', theme.slug, 'long-name');
      await toggle.focus();
      await wb.page.keyboard.press('Enter');
      await details.locator('button.name-toggle[aria-expanded="true"]').waitFor({ timeout: 5_000 });
      assert.ok(
        await details.locator('button.name-toggle').evaluate((b) => b === document.activeElement),
        'focus kept',
      );
      const heights = await details.locator('h1.name').evaluate((e) => [e.scrollHeight, e.clientHeight]);
      assert.ok(heights[0] <= heights[1] + 1, `the whole name is shown (${heights.join(' in ')})`);
      wb.service.store.updateEngagement(target.id, { name });
      await details.locator('button[data-action="refresh"]').click();
      await wb.waitFor(async () => (await details.locator('h1.name').textContent()) === name, 'the name again');

      await editorWidth(wb, NARROW);
      try {
        const narrow = await narrowFrame(wb, 'h1.name', NARROW);
        await assertNoPageScroll(wb, narrow, `a11y-details-${theme.slug}-narrow`);
        await check(wb, narrow, 'details', theme.slug, 'narrow');
      } finally {
        await wb.page.setViewportSize({ width: 1400, height: 900 });
      }
      details = await wb.webviewFrame('h1.name');

      // The key loses its write scope: the refused write is learned, Edit and the writes go.
      wb.service.store.findKey(wb.service.keys.admin)!.scopes = ['engagements:read', 'usage:read'];
      await details.locator('button[data-action="changeStatus"]').click();
      await wb.waitForQuickInput(/Status of/);
      await wb.chooseQuickPick(target.status === 'completed' ? 'active' : 'completed');
      await wb.waitFor(
        async () => (await details.locator('button[data-action="edit"]').count()) === 0,
        'the details without Edit (read-only key)',
        30_000,
      );
      await wb.clearNotifications();
      await check(wb, details, 'details', theme.slug, 'read-only');
    });
  });
}
