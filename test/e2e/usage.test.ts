// Issue 6, as a person uses it: open the usage dashboard from the command palette, read the
// three meters, the per-key table and the usage records inside the webview, go to the
// previous billing period, page the records. Every figure read on screen is checked against
// what the reference service serves for that period (its store, in this process); nothing
// of the extension's internals is called.
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import type { KeyUsage, MeterName, UsageSummary } from '../service/types';
import { CONTAINER, useWorkbench } from './workbench';

const METERS: readonly MeterName[] = ['calls', 'webhooks', 'storage_gb'];
const PAGE_SIZE = 25; // the dashboard's default rows per page

const count = (n: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(n);
const gb = (n: number) =>
  `${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)} GB`;
const amount = (meter: MeterName, n: number) => (meter === 'storage_gb' ? gb(n) : count(n));

interface MeterOnScreen {
  percent: string;
  figures: string;
  overage: string;
  level: string;
  ariaValueNow: string;
}

interface KeyRowOnScreen {
  name: string;
  current: boolean;
  keyId: string;
  calls: string;
  share: string;
}

function previousPeriod(period: string): string {
  const [year, month] = period.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 2, 1));
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** A number as shown (`82,140`, `5.7%`) back to a number. */
function numberIn(text: string): number {
  return Number(text.replace(/[^\d.-]/g, ''));
}

async function readMeters(frame: Frame): Promise<Record<string, MeterOnScreen>> {
  const cards = await frame.locator('.meter-card:not(.skeleton-card)').evaluateAll((list) =>
    list.map((card) => ({
      name: card.getAttribute('data-meter') ?? '',
      percent: card.querySelector('[data-part="percent"]')?.textContent?.trim() ?? '',
      figures: card.querySelector('[data-part="figures"]')?.textContent?.trim() ?? '',
      overage:
        card
          .querySelector('[data-part="overage"]')
          ?.textContent?.replace(/\u00a0/g, ' ')
          .trim() ?? '',
      level: [...card.classList].find((c) => c.startsWith('level-'))?.slice('level-'.length) ?? '',
      ariaValueNow: card.querySelector('[role="meter"]')?.getAttribute('aria-valuenow') ?? '',
    })),
  );
  return Object.fromEntries(cards.map(({ name, ...rest }) => [name, rest]));
}

/** The three meters show the service's summary: figures, percentage, level and overage. */
function assertMeters(shown: Record<string, MeterOnScreen>, summary: UsageSummary): void {
  assert.deepEqual(Object.keys(shown), [...METERS], 'the three meters, in order');
  for (const name of METERS) {
    const { used, included } = summary.usage[name];
    const meter = shown[name];
    const exact = (used / included) * 100;
    assert.equal(meter.figures, `${amount(name, used)} of ${amount(name, included)}`, `${name}: used of included`);
    assert.match(meter.percent, /^\d+(\.\d)?%$/, `${name}: a percentage, as Intl writes it in English`);
    assert.ok(
      Math.abs(numberIn(meter.percent) - exact) <= 0.5,
      `${name}: ${meter.percent} shown for ${exact.toFixed(2)} %`,
    );
    assert.equal(
      meter.level,
      exact > 100 ? 'error' : exact >= 80 ? 'warning' : 'normal',
      `${name}: colour level at ${exact.toFixed(1)} %`,
    );
    assert.equal(Number(meter.ariaValueNow), used, `${name}: role=meter value`);
    if (used > included)
      assert.equal(
        meter.overage,
        `Overage: +${amount(name, Math.round((used - included) * 1000) / 1000)}`,
        `${name}: overage`,
      );
    else assert.equal(meter.overage, '', `${name}: no overage within the included amount`);
  }
}

async function readKeyRows(frame: Frame): Promise<KeyRowOnScreen[]> {
  return frame.locator('#keys-table tbody tr').evaluateAll((rows) =>
    rows.map((row) => {
      const cells = [...row.querySelectorAll('td')];
      return {
        name: cells[0]?.firstChild?.textContent?.trim() ?? '',
        current: cells[0]?.querySelector('.badge-current') !== null,
        keyId: cells[1]?.textContent?.trim() ?? '',
        calls: cells[2]?.textContent?.trim() ?? '',
        share: cells[3]?.textContent?.trim() ?? '',
      };
    }),
  );
}

/** The per-key rows show the service's by-key data, most calls first; `live` keys may have grown while we looked. */
function assertKeyRows(
  shown: KeyRowOnScreen[],
  served: KeyUsage[],
  currentKeyId: string,
  live: Map<string, [number, number]> = new Map(),
): void {
  const expected = [...served].sort((a, b) => b.calls - a.calls);
  assert.deepEqual(
    shown.map((r) => r.name),
    expected.map((k) => k.name),
    'one row per key, most calls first',
  );
  const total = served.reduce((sum, k) => sum + k.calls, 0);
  shown.forEach((row, i) => {
    const key = expected[i];
    assert.ok(
      row.keyId.includes('…') && !row.keyId.includes(key.keyId),
      `${key.name}: the key id is masked (${row.keyId})`,
    );
    const range = live.get(key.keyId);
    if (range)
      assert.ok(
        numberIn(row.calls) >= range[0] && numberIn(row.calls) <= range[1],
        `${key.name}: ${row.calls} calls within ${range.join('–')}`,
      );
    else assert.equal(row.calls, count(key.calls), `${key.name}: calls`);
    assert.ok(
      Math.abs(numberIn(row.share) - (key.calls / total) * 100) <= 0.5,
      `${key.name}: share ${row.share} of ${total} calls`,
    );
    assert.equal(
      row.current,
      key.keyId === currentKeyId,
      `${key.name}: marked as this environment's key only when it is`,
    );
  });
}

async function recordIds(frame: Frame): Promise<string[]> {
  const headers = await frame.locator('#details-table thead th').allTextContents();
  const column = headers.map((h) => h.trim()).indexOf('ID');
  assert.ok(column >= 0, `an id column among ${headers.join(', ')}`);
  return frame.locator(`#details-table tbody tr td:nth-child(${column + 1})`).allTextContents();
}

/** Waits until the dashboard shows `period` with every section loaded. */
async function waitForPeriod(frame: Frame, period: string): Promise<void> {
  await frame.locator(`input.month[value="${period}"]`).waitFor({ timeout: 15_000 });
  await frame.locator('#app[aria-busy="false"]').waitFor({ timeout: 15_000 });
  await frame
    .locator('.meter-card.skeleton-card, .skeleton-row, .stale')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 });
}

describe('Usage dashboard (e2e)', function () {
  this.timeout(120_000);
  const workbench = useWorkbench({ settings: { 'workbench.colorTheme': 'Default Dark Modern' } });
  let frame: Frame;
  let current: string;

  it('opens from the command palette and shows the current period: meters, tier, status bar', async () => {
    const wb = workbench();
    await wb.addEnvironmentFromWelcome(CONTAINER, 'Staging', wb.service.baseUrl, wb.service.keys.admin);
    current = wb.service.store.currentPeriod();
    await wb.runCommand('Open Usage Dashboard');
    frame = await wb.webviewFrame('.meter-card[data-meter="calls"]:not(.skeleton-card)', 30_000);
    await waitForPeriod(frame, current);

    assert.equal(await frame.locator('#env-label').textContent(), 'Staging');
    assert.equal(await frame.locator('#tier').textContent(), `Tier: ${wb.service.store.summary(current).tier}`);
    assert.ok(
      await frame.getByRole('button', { name: 'Next period' }).isDisabled(),
      'no next period after the current one',
    );
    assertMeters(await readMeters(frame), wb.service.store.summary(current));

    const calls = wb.service.store.summary(current).usage.calls;
    const item = await wb.waitFor(
      async () => (await wb.statusBarItems()).find((i) => /calls \d+%/.test(i.text)),
      'the calls meter in the status bar',
      30_000,
    );
    assert.ok(Math.abs(numberIn(item.text) - (calls.used / calls.included) * 100) <= 0.5, `status bar ${item.text}`);
  });

  it("the per-key table shows each key: masked id, calls, share, this environment's key marked", async () => {
    const wb = workbench();
    const shown = await readKeyRows(frame);
    assert.ok(
      wb.service.requests.some((r) => r.path === '/v1/usage/by-key'),
      'the dashboard read the per-key usage',
    );
    // The extension's own requests (all made with the admin key) count live in the current
    // period: the admin row shows at least the seeded calls and at most the calls so far.
    const served = wb.service.store.byKey(current);
    const now = served.find((k) => k.keyId === 'key_admin')?.calls ?? 0;
    const made = wb.service.requests.filter((r) => r.keyId === 'key_admin').length;
    assertKeyRows(shown, served, 'key_admin', new Map([['key_admin', [now - made, now]]]));
    assert.equal(
      (await frame.locator('#keys-table thead th[aria-sort="descending"]').textContent())?.replace(/[▲▼\s]+$/, ''),
      'Calls',
    );
  });

  it('the records table for people: headers in words, one line a row, the key id as the per-key table shows it, no sideways scroll at 1,280 px', async () => {
    const wb = workbench();
    const headers = frame.locator('#details-table thead th');
    const words = (await headers.allTextContents()).map((h) => h.trim());
    const fields = await headers.evaluateAll((ths) => ths.map((th) => th.getAttribute('data-field') ?? ''));
    assert.deepEqual(fields.slice(0, 3), ['id', 'timestamp', 'keyId']);
    const expected: Record<string, string> = {
      id: 'ID',
      timestamp: 'Timestamp',
      keyId: 'Key ID',
      statusCode: 'Status code',
      durationMs: 'Duration (ms)',
      meta: 'Meta',
    };
    for (const [field, word] of Object.entries(expected)) {
      const i = fields.indexOf(field);
      assert.ok(i >= 0, `a ${field} column among ${fields.join(', ')}`);
      assert.equal(words[i], word);
      if (word !== field)
        assert.equal(await headers.nth(i).getAttribute('title'), field, 'the field name in its tooltip');
    }
    // The key ids of the records read as the per-key table writes them.
    const masks = await frame.locator('#keys-table tbody tr code').allTextContents();
    const keyIds = await frame
      .locator(`#details-table tbody tr td:nth-child(${fields.indexOf('keyId') + 1})`)
      .allTextContents();
    for (const id of keyIds)
      assert.ok(masks.includes(id.trim()), `${id} is one of the per-key table's ${masks.join(', ')}`);

    // A 1,280 px window, the side bars closed as a person reading the dashboard has them.
    await wb.hideSideBar();
    if (await wb.page.locator('.part.auxiliarybar').isVisible()) await wb.runCommand('Hide Secondary Side Bar');
    await wb.page.setViewportSize({ width: 1280, height: 900 });
    try {
      const seen = await wb.waitFor(async () => {
        const got = await frame.evaluate(() => {
          const wrap = document.querySelector<HTMLElement>('#details .table-wrap');
          const rows = [...document.querySelectorAll<HTMLElement>('#details-table tbody tr')];
          return {
            width: window.innerWidth,
            scroll: wrap ? wrap.scrollWidth - wrap.clientWidth : -1,
            heights: [...new Set(rows.map((r) => Math.round(r.getBoundingClientRect().height)))],
          };
        });
        return got.width < 1280 && got.width > 1100 ? got : undefined;
      }, 'the dashboard in a 1,280 px window');
      await wb.screenshot('records-1280');
      assert.equal(seen.heights.length, 1, `every row one line high: ${seen.heights.join(', ')} px`);
      assert.ok(seen.scroll <= 1, `the records scroll sideways by ${seen.scroll} px in ${seen.width} px`);
    } finally {
      await wb.page.setViewportSize({ width: 1400, height: 900 });
      await wb.openViewContainer(CONTAINER);
    }
  });

  it('"Previous period" shows that month: over on calls, warning on webhooks, its keys and records', async () => {
    const wb = workbench();
    const previous = previousPeriod(current);
    await frame.getByRole('button', { name: 'Previous period' }).click();
    await waitForPeriod(frame, previous);
    assert.ok(
      wb.service.requests.some((r) => r.path === '/v1/usage/summary' && r.query.billingPeriod === previous),
      'the summary of the previous period was read',
    );

    const summary = wb.service.store.summary(previous);
    assertMeters(await readMeters(frame), summary);
    assert.ok(summary.usage.calls.used > summary.usage.calls.included, 'the seeded previous period is over on calls');
    assertKeyRows(await readKeyRows(frame), wb.service.store.byKey(previous), 'key_admin');

    const records = wb.service.store.details(previous);
    const pages = Math.ceil(records.length / PAGE_SIZE);
    assert.equal(await frame.locator('#page-of').textContent(), `Page 1 of ${pages}`);
    assert.equal(await frame.locator('#records-range').textContent(), `Records 1–${PAGE_SIZE} of ${records.length}`);
    assert.deepEqual(
      await recordIds(frame),
      records.slice(0, PAGE_SIZE).map((r) => String(r.id)),
    );
    assert.ok(
      await frame.getByRole('button', { name: 'Next period' }).isEnabled(),
      'the next period can be reached again',
    );

    // The picture for the README: the side bar closed to give the dashboard the window.
    await wb.hideSideBar();
    await wb.clearNotifications();
    await wb.screenshot('docs-usage-dashboard');
  });

  it('pages the usage records: next page, previous page, more rows per page', async () => {
    const wb = workbench();
    const previous = previousPeriod(current);
    const records = wb.service.store.details(previous).map((r) => String(r.id));
    const pages = Math.ceil(records.length / PAGE_SIZE);

    // While page 2 is read, the pager names the page asked for; the range and the rows are still
    // page 1's, the table marked busy: never "26–50" over the rows 1–25.
    const release = wb.service.holdAnswers();
    try {
      await frame.getByRole('button', { name: 'Next page' }).click();
      await frame.locator('#page-of', { hasText: `Page 2 of ${pages}` }).waitFor({ timeout: 15_000 });
      await frame.locator('#details-table[aria-busy="true"]').waitFor({ timeout: 15_000 });
      assert.equal(await frame.locator('#records-range').textContent(), `Records 1–${PAGE_SIZE} of ${records.length}`);
      assert.deepEqual(await recordIds(frame), records.slice(0, PAGE_SIZE));
    } finally {
      release();
    }
    await waitForPeriod(frame, previous);
    assert.equal(
      await frame.locator('#records-range').textContent(),
      `Records ${PAGE_SIZE + 1}–${2 * PAGE_SIZE} of ${records.length}`,
    );
    assert.deepEqual(await recordIds(frame), records.slice(PAGE_SIZE, 2 * PAGE_SIZE));
    assert.ok(
      wb.service.requests.some(
        (r) => r.path === '/v1/usage/details' && r.query.billingPeriod === previous && r.query.page === '2',
      ),
      'page 2 was read from the service',
    );

    await frame.getByRole('button', { name: 'Previous page' }).click();
    await frame.locator('#page-of', { hasText: `Page 1 of ${pages}` }).waitFor({ timeout: 15_000 });
    await waitForPeriod(frame, previous);
    assert.deepEqual(await recordIds(frame), records.slice(0, PAGE_SIZE));
    assert.ok(await frame.getByRole('button', { name: 'Previous page' }).isDisabled(), 'no page before the first');

    await frame.locator('#page-size').selectOption('100');
    const bigPages = Math.ceil(records.length / 100);
    await frame.locator('#page-of', { hasText: `Page 1 of ${bigPages}` }).waitFor({ timeout: 15_000 });
    await waitForPeriod(frame, previous);
    assert.equal(
      await frame.locator('#records-range').textContent(),
      `Records 1–${Math.min(100, records.length)} of ${records.length}`,
    );
    assert.deepEqual(await recordIds(frame), records.slice(0, 100));
  });

  it('after a window reload the dashboard comes back with its period, page, page size and sort', async () => {
    const wb = workbench();
    const previous = previousPeriod(current);
    const records = wb.service.store.details(previous).map((r) => String(r.id));
    const pages = Math.ceil(records.length / 100);
    assert.ok(pages >= 2, `the previous period has more than one page of 100 (${records.length} records)`);
    // Left as the last test left it (previous period, 100 rows per page): page 2, keys by name.
    await frame.getByRole('button', { name: 'Next page' }).click();
    await frame.locator('#page-of', { hasText: `Page 2 of ${pages}` }).waitFor({ timeout: 15_000 });
    await frame.locator('#keys-table button[data-column="name"]').click();
    await frame.locator('#keys-table th[aria-sort="ascending"]', { hasText: 'Name' }).waitFor({ timeout: 15_000 });
    await waitForPeriod(frame, previous);

    await wb.reloadWindow();
    frame = await wb.webviewFrame('.meter-card[data-meter="calls"]:not(.skeleton-card)', 60_000);
    await waitForPeriod(frame, previous);

    assert.equal(await frame.locator('#page-of').textContent(), `Page 2 of ${pages}`, 'the page is kept');
    assert.equal(await frame.locator('#page-size').inputValue(), '100', 'the page size is kept');
    assert.deepEqual(await recordIds(frame), records.slice(100, 200), 'the records of that page, read again');
    const names = (await readKeyRows(frame)).map((r) => r.name);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b)),
      'the per-key table still sorted by name',
    );
    assert.equal(
      (await frame.locator('#keys-table th[aria-sort="ascending"]').textContent())?.replace(/[▲▼\s]+$/, ''),
      'Name',
    );
    assertMeters(await readMeters(frame), wb.service.store.summary(previous));
  });
});
