// Issue 38, as a person meets it: services nobody here shaped, started by the test the way their
// frameworks' documentation starts them (test/frameworks/), added through the same boxes a user
// types into. json-server numbers its records with integer ids and sends every list whole; a
// Hono service declares its routes with a trailing slash and answers every other path with a
// 301 (Django's APPEND_SLASH, for writes too). What is checked is what is on screen and what
// each service received. Runs on the newest VS Code only: the road through VS Code's fetch
// (redirects, ids, pages) is decided in the extension host, proven on both versions by the
// unit and integration suites; this is the person's road through the workbench.
import assert from 'node:assert/strict';
import { currentPeriod } from '../../src/core/period';
import { type HonoService, startHonoService } from '../frameworks/hono';
import { type JsonServer, jsonServerRows, startJsonServer } from '../frameworks/jsonServer';
import { CONTAINER, useWorkbench, VIEW } from './workbench';

const HONO_KEY = 'hono-e2e-key-7d1c';
const RECORDS = 60;

describe('Services built with real frameworks (e2e)', function () {
  this.timeout(120_000);
  const workbench = useWorkbench({ settings: { 'workbench.colorTheme': 'Default Dark Modern' } });
  let js: JsonServer;
  let hono: HonoService;
  const period = currentPeriod();

  before(async () => {
    js = await startJsonServer({
      engagements: jsonServerRows(60),
      details: Array.from({ length: RECORDS }, (_, i) => ({
        id: i + 1,
        timestamp: `${period}-0${(i % 9) + 1}T08:00:00Z`,
        endpoint: '/v1/engagements',
        statusCode: 200,
        keyId: 'key_ci',
      })),
      summary: {
        billingPeriod: period,
        tier: 'growth',
        usage: {
          calls: { used: 12_500, included: 10_000, overage: 2_500 },
          webhooks: { used: 40, included: 1_000, overage: 0 },
          storage_gb: { used: 1.5, included: 5, overage: 0 },
        },
      },
      byKey: {
        billingPeriod: period,
        keys: [{ keyId: 'key_ci', name: 'CI', calls: 12_500, lastUsedAt: `${period}-02T10:00:00Z` }],
      },
    });
    hono = await startHonoService({ token: HONO_KEY, slashWrites: true });
  });
  after(async () => {
    await js?.close();
    await hono?.close();
  });

  it('json-server (integer ids, lists sent whole): the tree, the details of one, a rename, the records’ page 2', async () => {
    const wb = workbench();
    await wb.addEnvironmentFromWelcome(CONTAINER, 'json-server', js.baseUrl, 'json-server-ignores-keys');
    // The list came whole (a bare array of 60, whatever the page size asked): the view shows
    // what it holds, each engagement once, with nothing more to load.
    const rows = await wb.waitFor(
      async () => {
        const items = await wb.treeItems(VIEW);
        return items.length >= 25 && items.every((i) => i.label) ? items : undefined;
      },
      'json-server’s engagements',
      30_000,
    );
    await wb.scrollTreeToEnd(VIEW);
    assert.equal(await wb.treeSize(VIEW), 60);
    const labels = [...rows.map((r) => r.label), ...(await wb.treeItems(VIEW)).map((r) => r.label)];
    assert.ok(!labels.some((l) => l.startsWith('Load more')), 'nothing more to load');
    for (const label of labels) assert.match(label, /^Engagement \d+$/);
    assert.ok(
      js.requests.filter((r) => r.startsWith('GET /v1/engagements?')).length <= 2,
      `the list read once (and its page 2 looked at once to tell a whole list from a capped page): ${js.requests.join(', ')}`,
    );

    // The details of engagement 7, found by name: its id as json-server gave it.
    await wb.runCommand('Go to Engagement');
    await wb.quickInput().fill('Engagement 7');
    await wb.page
      .locator('.quick-input-widget .monaco-list-row', { hasText: /Engagement 7(?!\d)/ })
      .first()
      .click({ timeout: 15_000 });
    const details = await wb.webviewFrame('h1.name', 30_000);
    await wb.waitFor(async () => (await details.locator('h1.name').textContent()) === 'Engagement 7', 'its details');
    const fields = await details.locator('table.fields').innerText();
    assert.match(fields, /\b7\b/, `the id 7 among the fields: ${fields}`);
    assert.match(fields, /evaluation/);
    assert.ok(js.requests.includes('GET /v1/engagements/7'), js.requests.join('\n'));

    // A rename from the details panel: one PATCH to /v1/engagements/7, json-server holds it.
    await details.locator('button[data-action="edit"]').click();
    await wb.waitForQuickInput('What do you want to change?');
    await wb.chooseQuickPick('Rename…');
    await wb.answerInput(/name/i, 'Renamed on json-server');
    await wb.treeRow(VIEW, 'Renamed on json-server').waitFor({ timeout: 30_000 });
    await wb.waitFor(
      async () => (await details.locator('h1.name').textContent()) === 'Renamed on json-server',
      'the new name in the details',
    );
    assert.equal(js.held().find((row) => row.id === 7)?.name, 'Renamed on json-server');
    assert.deepEqual(
      js.requests.filter((r) => !r.startsWith('GET')),
      ['PATCH /v1/engagements/7'],
    );

    // The records' page 2: records 26–50 of the 60 json-server sent whole, none twice.
    await wb.runCommand('Open Usage Dashboard');
    const dashboard = await wb.webviewFrame('#details-table tbody tr', 30_000);
    await dashboard.locator('#records-range', { hasText: `Records 1–25 of ${RECORDS}` }).waitFor({ timeout: 30_000 });
    const asked = js.requests.filter((r) => r.startsWith('GET /v1/usage/details')).length;
    await dashboard.getByRole('button', { name: 'Next page' }).click();
    await dashboard.locator('#page-of', { hasText: 'Page 2 of 3' }).waitFor({ timeout: 15_000 });
    await dashboard.locator('#records-range', { hasText: `Records 26–50 of ${RECORDS}` }).waitFor({ timeout: 15_000 });
    assert.equal(await dashboard.locator('#records-range').textContent(), `Records 26–50 of ${RECORDS}`);
    const headers = (await dashboard.locator('#details-table thead th').allTextContents()).map((h) => h.trim());
    const column = headers.findIndex((h) => /^id$/i.test(h));
    assert.ok(column >= 0, `an id column among ${headers.join(', ')}`);
    const ids = await dashboard.locator(`#details-table tbody tr td:nth-child(${column + 1})`).allTextContents();
    assert.deepEqual(
      ids.map((id) => id.trim()),
      Array.from({ length: 25 }, (_, i) => String(26 + i)),
    );
    assert.equal(
      js.requests.filter((r) => r.startsWith('GET /v1/usage/details')).length,
      asked,
      'page 2 is cut from the whole list already read: no request for it',
    );
    await wb.screenshot('frameworks-json-server-records');
  });

  it('a service whose routes end in a slash (Hono): add an environment, the first page, a create', async () => {
    const wb = workbench();
    await wb.closeEditors();
    await wb.addEnvironment('Hono', hono.baseUrl, HONO_KEY);
    const rows = await wb.waitFor(
      async () => {
        const items = await wb.treeItems(VIEW);
        return items.length === 26 && items[0].label.startsWith('Engagement') ? items : undefined;
      },
      'the first page of the Hono service’s engagements',
      30_000,
    );
    assert.equal(rows[25].label, 'Load more… (25 of 60)');

    await wb.clickSideBarAction('Create Engagement');
    await wb.answerInput('Name of the engagement', 'Made through a slash');
    await wb.waitForQuickInput('Choose a type');
    await wb.quickInput().fill('pilot');
    await wb.chooseQuickPick('pilot');
    await wb.answerInput('Description', '');
    await wb.waitForQuickInput('Create this engagement in Hono?');
    await wb.chooseQuickPick('Create “Made through a slash”');
    await wb.treeRow(VIEW, 'Made through a slash').waitFor({ timeout: 30_000 });
    assert.ok(hono.held().some((row) => row.name === 'Made through a slash'));
    // The slash is learned from the first answers: the key check's two reads, sent together
    // before either was answered, are redirected; no request after them is.
    const redirects = hono.requests.filter((r) => / 30\d$/.test(r));
    assert.deepEqual(
      [...redirects].sort(),
      ['GET /v1/engagements?page=1&pageSize=1 301', 'GET /v1/usage/summary 301'],
      hono.requests.join('\n'),
    );
    assert.ok(
      hono.requests.slice(2).every((r) => !/ 30\d$/.test(r)),
      hono.requests.join('\n'),
    );
    // The create is one POST, straight to /v1/engagements/.
    assert.deepEqual(
      hono.requests.filter((r) => r.startsWith('POST')),
      ['POST /v1/engagements/ 201'],
    );
    await wb.screenshot('frameworks-hono-created');
  });
});
