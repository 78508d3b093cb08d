// Issue 48 as a person sees it, in the dark and the light theme: the current period of the
// reference service with a planted spike (the CI pipeline key posting engagements on one day)
// and past its included calls; "Break down the period" reads it whole (progress, Cancel), the
// groups by key with their shares, the day-by-day bars with the spike day marked and its
// largest group named, a day chosen filters the records; the meter says the day the calls
// passed their included amount; each key's last 12 periods, its projection and a budget
// warning; the records table and its controls fit a 1,280 px window with the side bar open.
// Axe (WCAG 2.1 A/AA) on each, a picture of each. Figures are counted here from the planted records.
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { plantPeriod } from '../service/spikes';
import type { SeededDetail } from '../service/types';
import { axeViolations, describeViolations } from './axe';
import { CONTAINER, useWorkbench } from './workbench';

const THEMES = [
  { name: 'Default Dark Modern', slug: 'dark' },
  { name: 'Default Light Modern', slug: 'light' },
] as const;

const count = (n: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(n);
const dayName = (day: string) =>
  new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

/** Scrolls the dashboard so that `selector` starts just below its sticky header (in one step: a region drawn again meanwhile leaves nothing behind). */
async function showBelowHeader(frame: Frame, selector: string): Promise<void> {
  await frame.evaluate((sel) => {
    const element = document.querySelector(sel);
    if (!element) throw new Error(`${sel} is not in the dashboard`);
    const header = document.querySelector('.region-header')?.getBoundingClientRect().height ?? 0;
    window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - header - 8);
  }, selector);
}

async function axeClean(frame: Frame, what: string): Promise<void> {
  const violations = await axeViolations(frame);
  assert.equal(violations.length, 0, `${what}:\n${describeViolations(violations)}`);
}

for (const theme of THEMES) {
  describe(`Usage you can explain: ${theme.name} (e2e)`, function () {
    this.timeout(240_000);
    const workbench = useWorkbench({
      settings: { 'workbench.colorTheme': theme.name, 'engagementUsage.usage.keyBudgets': { 'CI pipeline': 150 } },
    });
    let frame: Frame;
    let records: SeededDetail[];
    let period: string;
    // Today (UTC) is the last day with records; the spike three days before it.
    const today = new Date().getUTCDate();
    const spikeDay = Math.max(1, today - 3);
    const spikeIso = () => `${period}-${String(spikeDay).padStart(2, '0')}`;

    it('breaks the period down by key with shares, marks the spike day and names its largest group', async () => {
      const wb = workbench();
      period = wb.service.store.currentPeriod();
      records = plantPeriod(wb.service.store, {
        period,
        perDay: 12,
        days: today,
        spikes: [{ day: spikeDay, records: 150, keyId: 'key_ci', method: 'POST', endpoint: '/v1/engagements' }],
        now: new Date(),
        included: 12 * Math.max(1, spikeDay - 1) + 40,
      });
      await wb.addEnvironmentFromWelcome(CONTAINER, 'Staging', wb.service.baseUrl, wb.service.keys.admin);
      await wb.clearNotifications();
      await wb.runCommand('Open Usage Dashboard');
      frame = await wb.webviewFrame('#read-breakdown', 30_000);
      await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 30_000 });
      // Past the included amount before the records are read: no projected day, a pointer to the breakdown.
      const crossed = frame.locator('.meter-card[data-meter="calls"] [data-part="crossed"]');
      assert.match((await crossed.textContent()) ?? '', /past the included amount; break down the period/);

      await frame.locator('#read-breakdown').click();
      await frame.locator('#breakdown-table').waitFor({ timeout: 30_000 });
      const ciCalls = records.filter((r) => r.keyId === 'key_ci').length;
      const ciRow = frame.locator('#breakdown-table tbody tr', { hasText: 'CI pipeline' });
      assert.match((await ciRow.textContent()) ?? '', new RegExp(count(ciCalls)));
      const share = Math.round((ciCalls / records.length) * 100);
      assert.match((await ciRow.locator('td.share').textContent()) ?? '', new RegExp(`^${share}\\s?%$`));
      assert.match(
        (await frame.locator('#breakdown-read').textContent()) ?? '',
        new RegExp(`${count(records.length)} records of ${count(records.length)}`),
      );

      // The day by day: one bar a day up to today (UTC), the spike day marked and explained.
      assert.equal(await frame.locator('#daily-bars button.day').count(), today);
      const marked = frame.locator('#daily-bars button.day.marked');
      assert.equal(await marked.count(), 1);
      assert.equal(await marked.getAttribute('data-day'), spikeIso());
      const ofSpike = records.filter((r) => r.timestamp.startsWith(spikeIso()));
      const fromCi = ofSpike.filter((r) => r.keyId === 'key_ci' && r.method === 'POST').length;
      const text = (await frame.locator('#marked-days li').textContent()) ?? '';
      assert.match(
        text,
        new RegExp(
          `^${dayName(spikeIso())}: [\\d.]+× the usual day, ${Math.round((fromCi / ofSpike.length) * 100)} % from key CI pipeline on POST /v1/engagements$`,
        ),
      );
      // The meter: the day the calls passed their included amount, from the records.
      const included = wb.service.store.summary(period).usage.calls.included;
      const inOrder = records.map((r) => r.timestamp).sort();
      const passed = inOrder[included].slice(0, 10); // the call after the included ones
      assert.equal((await crossed.textContent())?.trim(), `passed the included amount on ${dayName(passed)}`);

      // The budget warning, once (the per-key row is checked below).
      const warning = await wb.waitFor(
        async () => (await wb.notificationTexts()).find((t) => t.includes('CI pipeline')),
        'the budget warning',
        30_000,
      );
      assert.equal(
        warning,
        `Staging: the key "CI pipeline" made ${count(ciCalls)} calls in ${new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${period}-01T00:00:00Z`))}, past its budget of 150.`,
      );
      await wb.clearNotifications();
      await wb.hideSideBar();
      await showBelowHeader(frame, '#breakdown');
      await wb.screenshot(`usage-breakdown-${theme.slug}`);
      await axeClean(frame, `the breakdown, ${theme.slug}`);
      await showBelowHeader(frame, '#breakdown h3');
      await wb.pointerAway();
      await wb.screenshot(`usage-daily-${theme.slug}`);
    });

    it('a marked day filters the records table to that day', async () => {
      await frame.locator('#marked-days button').click();
      await frame.locator('#filter-day', { hasText: `Day: ${spikeIso()}` }).waitFor({ timeout: 15_000 });
      const ofSpike = records.filter((r) => r.timestamp.startsWith(spikeIso())).length;
      await frame
        .locator('#filtered-count', { hasText: `${count(ofSpike)} of ${count(records.length)} records match` })
        .waitFor({ timeout: 15_000 });
    });

    it("shows each key's last 12 periods, its projection and the budget it passed; warns once", async () => {
      const wb = workbench();
      const row = frame.locator('#keys-table tbody tr', { hasText: 'CI pipeline' });
      assert.equal(await row.locator('svg.key-spark rect').count(), 12);
      assert.match((await row.locator('[data-part="budget"]').textContent()) ?? '', /past its budget of 150/);
      assert.match((await row.locator('td.key-trend').textContent()) ?? '', /by the end of the period \(estimate\)/);
      await showBelowHeader(frame, '#keys');
      await wb.screenshot(`usage-key-trends-${theme.slug}`);
      await axeClean(frame, `the per-key trends, ${theme.slug}`);
      // A refresh reads the keys again (a by-key request answered), the only moment a warning comes.
      const byKeyReads = () =>
        wb.service.requests.filter((r) => r.path === '/v1/usage/by-key' && r.status === 200).length;
      const before = byKeyReads();
      await frame.locator('#refresh').click();
      await wb.waitFor(
        async () => byKeyReads() > before && (await frame.locator('#app[aria-busy="false"]').count()) > 0,
        'the refresh to read the keys again',
        30_000,
      );
      assert.equal(
        (await wb.notificationTexts()).filter((t) => t.includes('CI pipeline')).length,
        0,
        'once per period and key',
      );
    });

    it('fits the records table and its controls in a 1,280 px window with the side bar open', async () => {
      const wb = workbench();
      await wb.page.setViewportSize({ width: 1280, height: 900 });
      try {
        await wb.openViewContainer(CONTAINER);
        await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 30_000 });
        await showBelowHeader(frame, '#details');
        await wb.screenshot(`usage-records-1280-${theme.slug}`);
        const seen = await frame.evaluate(() => {
          const wrap = document.querySelector<HTMLElement>('#details .table-wrap');
          const toolbar = document.querySelector<HTMLElement>('#details .toolbar');
          const buttons = [...document.querySelectorAll<HTMLElement>('#details .toolbar button')];
          return {
            page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
            table: wrap ? [wrap.scrollWidth, wrap.clientWidth] : undefined,
            toolbar: toolbar ? [toolbar.scrollWidth, toolbar.clientWidth] : undefined,
            heights: buttons.map((b) => [b.textContent ?? '', b.getBoundingClientRect().height] as const),
          };
        });
        assert.ok(seen.table && seen.toolbar, 'the records table and its toolbar');
        assert.ok(seen.page[0] <= seen.page[1], `the page: ${seen.page.join(' in ')}`);
        assert.ok(seen.table[0] <= seen.table[1], `the records table scrolls sideways: ${seen.table.join(' in ')}`);
        assert.ok(seen.toolbar[0] <= seen.toolbar[1], `the toolbar: ${seen.toolbar.join(' in ')}`);
        const lowest = Math.min(...seen.heights.map(([, height]) => height));
        const wrapped = seen.heights.filter(([, height]) => height > lowest * 1.5).map(([text]) => text);
        assert.deepEqual(wrapped, [], 'no button wraps its words');
      } finally {
        await wb.page.setViewportSize({ width: 1400, height: 900 });
      }
    });
  });
}
