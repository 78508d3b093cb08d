// Issue 15 as a person sees it: the trend chart of 12 periods beside each meter (values on
// hover and keyboard focus), the projection of the current period labelled as an estimate,
// the usage alert raised once (not again after a reload, nor in a second window), the key
// drill-down from the per-key table and a filtered export. Figures are checked against the
// reference service's store in this process.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { CONTAINER, useWorkbench } from './workbench';

const count = (n: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(n);

function shiftPeriod(period: string, months: number): string {
  const [year, month] = period.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1 + months, 1));
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

describe('Usage trends, alerts and records (e2e)', function () {
  this.timeout(180_000);
  const workbench = useWorkbench({
    settings: { 'workbench.colorTheme': 'Default Dark Modern', 'engagementUsage.usage.alerts': true },
  });
  let frame: Frame;
  let current: string;
  const alertsOn = async (page = workbench().page) =>
    (await workbench().notificationTexts(page)).filter((t) => /API calls reached|projected to pass/.test(t));

  it('shows 12 periods of each meter as a chart, the projection as an estimate, and raises the calls alert once', async () => {
    const wb = workbench();
    current = wb.service.store.currentPeriod();
    wb.service.store.accountStart = shiftPeriod(current, -9);
    await wb.addEnvironmentFromWelcome(CONTAINER, 'Staging', wb.service.baseUrl, wb.service.keys.admin);
    await wb.runCommand('Open Usage Dashboard');
    frame = await wb.webviewFrame('.trend-chart[data-meter="calls"]', 30_000);
    await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 15_000 });

    const bars = frame.locator('.trend-chart[data-meter="calls"] rect[data-period]');
    assert.equal(await bars.count(), 12, 'twelve periods');
    assert.deepEqual(
      await bars.evaluateAll((list) => list.map((b) => b.getAttribute('data-period'))),
      Array.from({ length: 12 }, (_, i) => shiftPeriod(current, i - 11)),
    );
    assert.deepEqual(
      await bars.evaluateAll((list) => list.map((b) => b.getAttribute('data-status'))),
      ['noData', 'noData', ...Array<string>(10).fill('data')],
      'before the account: no data',
    );
    for (const meter of ['webhooks', 'storage_gb'])
      assert.equal(await frame.locator(`.trend-chart[data-meter="${meter}"] rect[data-period]`).count(), 12, meter);
    assert.equal(
      await frame.locator('.trend[data-meter="calls"] .trend-table tbody tr').count(),
      12,
      'a table of the same figures for screen readers',
    );

    // Values on hover, and with the keyboard.
    const readout = frame.locator('.trend[data-meter="calls"] .trend-readout');
    await bars.nth(11).hover();
    const used = wb.service.store.summary(current).usage.calls.used;
    await frame
      .locator('.trend[data-meter="calls"] .trend-readout', { hasText: count(used) })
      .waitFor({ timeout: 5_000 });
    await frame.locator('.trend-chart[data-meter="calls"]').focus();
    await frame.page().keyboard.press('ArrowLeft');
    const previous = wb.service.store.summary(shiftPeriod(current, -1)).usage.calls.used;
    assert.match(
      (await readout.textContent()) ?? '',
      new RegExp(`${count(previous)} of ${count(100_000)}`),
      'the previous period on ArrowLeft',
    );
    await frame.page().keyboard.press('Home');
    assert.match((await readout.textContent()) ?? '', /no data/);
    const change = ((used - previous) / previous) * 100;
    const shownChange = (await frame.locator('.trend[data-meter="calls"] [data-part="change"]').textContent()) ?? '';
    assert.match(
      shownChange,
      new RegExp(`^${change < 0 ? '−' : '\\+'}[\\d.]+% vs `),
      'the change against the period before, with its sign',
    );
    assert.ok(
      Math.abs(Number(shownChange.replace(/^[−+]/, '').split('%')[0]) - Math.abs(change)) <= 0.5,
      `${shownChange} for ${change.toFixed(2)} %`,
    );

    const projection = frame.locator('.meter-card[data-meter="calls"] [data-part="projection"]');
    assert.match((await projection.textContent()) ?? '', /^estimate .+ by the end of the period · /);
    assert.match((await projection.getAttribute('title')) ?? '', /linear from the period's start/);
    assert.match((await frame.locator('#period-days').textContent()) ?? '', /^Day \d+ of \d+, \d+ days left$/);

    const alert = await wb.waitFor(
      async () => (await alertsOn()).find((t) => t.includes('API calls reached 82%')),
      'the calls alert',
      30_000,
    );
    assert.match(alert, /^Staging: API calls reached 82% of the included amount/);
    assert.equal((await alertsOn()).filter((t) => t.includes('API calls reached')).length, 1, 'shown once');

    await wb.runCommand('Notifications: Clear All Notifications');
    await wb.hideSideBar();
    await frame.locator('.meters').scrollIntoViewIfNeeded();
    await wb.screenshot('docs-usage-trends');
  });

  it('clicking a key shows its records of the whole period; a status filter narrows them; Export writes what is filtered', async () => {
    const wb = workbench();
    const records = wb.service.store.details(current);
    const admin = records.filter((r) => r.keyId === 'key_admin');
    await frame.locator('#keys-table button.key-filter', { hasText: 'Admin (demo)' }).click();
    await frame.locator('#filter-key', { hasText: 'Key: Admin (demo)' }).waitFor({ timeout: 15_000 });
    await frame
      .locator('#filtered-count', { hasText: `${count(admin.length)} of ${count(records.length)} records match` })
      .waitFor({ timeout: 15_000 });
    // Headers in words, the field name in each one's tooltip.
    const headers = (await frame.locator('#details-table thead th').allTextContents()).map((h) => h.trim());
    const keyColumn = headers.indexOf('Key ID') + 1;
    assert.ok(keyColumn > 0, headers.join(', '));
    assert.equal(await frame.locator(`#details-table thead th:nth-child(${keyColumn})`).getAttribute('title'), 'keyId');
    assert.ok(headers.includes('Status code') && headers.includes('Duration (ms)'), headers.join(', '));
    // The key's records, its id shown as the per-key table shows it.
    const shownId = (
      await frame.locator('#keys-table tbody tr', { hasText: 'Admin (demo)' }).locator('code').textContent()
    )?.trim();
    assert.ok(shownId?.includes('…'), `the per-key table masks the id: ${shownId}`);
    assert.deepEqual(
      [...new Set(await frame.locator(`#details-table tbody tr td:nth-child(${keyColumn})`).allTextContents())],
      [shownId],
      "only that key's records, its id as the per-key table shows it",
    );
    // Timestamps in the user's locale, ISO in the tooltip.
    const time = frame.locator('#details-table tbody tr td.time').first();
    assert.match((await time.getAttribute('title')) ?? '', /^\d{4}-\d{2}-\d{2}T/);
    assert.doesNotMatch((await time.textContent()) ?? '', /T\d{2}:/);

    const ok = admin.filter((r) => Number(r.statusCode) >= 200 && Number(r.statusCode) < 300);
    await frame.locator('#filter-status').selectOption('2xx');
    await frame.locator('#apply-filter').click();
    await frame
      .locator('#filtered-count', { hasText: `${count(ok.length)} of ${count(records.length)} records match` })
      .waitFor({ timeout: 15_000 });

    await frame.locator('#export-csv').click();
    await wb.waitForQuickInput(/usage-staging-|Export/);
    await wb.page.keyboard.press('Enter');
    const file = path.join(wb.workspaceFolder, `usage-staging-${current}.csv`);
    await wb.waitFor(
      () => fs.existsSync(file) && fs.readFileSync(file, 'utf8').length > 0,
      'the exported file',
      30_000,
    );
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\r\n');
    assert.equal(lines.length, ok.length + 1, 'a header and the filtered records');
    assert.deepEqual(new Set(lines.slice(1).map((l) => l.split(',')[0])), new Set(ok.map((r) => r.id)));
  });

  it('does not raise the alert again after a window reload, nor in a second window', async () => {
    const wb = workbench();
    const reloadedAt = Date.now();
    await wb.reloadWindow();
    frame = await wb.webviewFrame('.trend-chart[data-meter="calls"]', 60_000);
    await wb.waitFor(
      () => wb.service.requests.some((r) => r.path === '/v1/usage/summary' && r.at > reloadedAt && r.status === 200),
      'the restored dashboard to read the summary',
      30_000,
    );
    await callsItem(wb.page, 'the calls item after the reload');
    // Each window checks the summaries it reads one after the other. The restored dashboard's
    // and the calls item's checks are queued (the item shows before its check); an alert due
    // only now, webhooks over their included amount read by a refresh, shows after whatever
    // those checks raised: once it is on screen, an alert again for the calls would be too.
    overIncluded('webhooks');
    await frame.locator('#refresh').click();
    await alertShown(wb.page, /Webhooks reached 200%/, 'the webhooks alert (the later signal)');
    assert.deepEqual(await alertsOn(), [], 'no alert after the reload');

    const second = await wb.openSecondWindow();
    try {
      await second
        .locator(`.part.activitybar .action-item a.action-label[aria-label^="${CONTAINER}"]`)
        .click({ timeout: 15_000 });
      await callsItem(second, 'the calls item in the second window');
      // The same later signal in the second window: storage over its included amount, read by
      // its dashboard's refresh after its calls item's check.
      overIncluded('storage_gb');
      await wb.runCommand('Open Usage Dashboard', second);
      const dashboard = await wb.waitFor(
        async () => {
          for (const f of second.frames())
            if (
              !f.isDetached() &&
              (await f
                .locator('.trend-chart[data-meter="calls"]')
                .count()
                .catch(() => 0))
            )
              return f;
          return undefined;
        },
        "the second window's dashboard",
        30_000,
      );
      await dashboard.locator('#app[aria-busy="false"]').waitFor({ timeout: 15_000 });
      await dashboard.locator('#refresh').click();
      await alertShown(second, /Storage reached 200%/, 'the storage alert in the second window (the later signal)');
      assert.deepEqual(await alertsOn(second), [], 'no alert in the second window');
    } finally {
      await second.close();
    }
  });

  /** The calls item in a window's status bar (its summary read, its check queued). */
  async function callsItem(page: Page, what: string): Promise<void> {
    await workbench().waitFor(
      async () =>
        (await page.locator('.part.statusbar .statusbar-item').allTextContents()).some((t) => /calls \d+%/.test(t)),
      what,
      30_000,
    );
  }

  /** A meter of the current period at twice its included amount in the service. */
  function overIncluded(meter: 'webhooks' | 'storage_gb'): void {
    const store = workbench().service.store;
    const summary = store.summary(current);
    const { included } = summary.usage[meter];
    store.setSummary(current, {
      ...summary,
      usage: { ...summary.usage, [meter]: { used: 2 * included, included, overage: included } },
    });
  }

  async function alertShown(page: Page, text: RegExp, what: string): Promise<void> {
    await workbench().waitFor(
      async () => (await workbench().notificationTexts(page)).some((t) => text.test(t)),
      what,
      30_000,
    );
  }
});
