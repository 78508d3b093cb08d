// Issue 37, VS Code for the Web: the packaged extension moved into the browser's web-worker
// extension host (`remote.extensionKind` set to `web`, as a user moves it in code-server), then
// the main paths a person takes, in one window: add an environment, the tree and Load more,
// create, rename and status, the details, Go to Engagement, the dashboard and its records'
// page 2, export, and a service that allows no other origin (CORS). On both VS Code versions:
// the web-worker host is another runtime than the Node one, and each version has its own.
// That the code runs in the worker is read from what the service received: the browser's own
// user agent and the page's origin on every request, after a CORS preflight; from the Node
// host no request carries an Origin, and the user agent is the extension's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { type RunningService, READINGS, startService } from '../service/server';
import { useWorkbench } from './workbench';

const CONTAINER = 'Engagements';
const VIEW = 'Engagements';
const EXTENSION = 'eus-tools.engagement-usage';
const NEW_NAME = 'Web Worker Review (e2e)';
const RENAMED = 'Web Worker Review, renamed (e2e)';
const PAGE_SIZE = 25;

describe('VS Code for the Web: the extension in the browser web worker (e2e)', function () {
  this.timeout(120_000);
  const workbench = useWorkbench({
    settings: { 'remote.extensionKind': { [EXTENSION]: ['web'] }, 'workbench.colorTheme': 'Default Dark Modern' },
  });
  let noCors: RunningService | undefined;
  after(async () => {
    await noCors?.close();
  });

  it('adds an environment from the welcome view; every request comes from the page, in the browser, after a preflight', async () => {
    const wb = workbench();
    await wb.addEnvironmentFromWelcome(CONTAINER, 'Staging', wb.service.baseUrl, wb.service.keys.admin);
    await wb.treeRow(VIEW, `Load more… (${PAGE_SIZE} of 60)`).waitFor({ timeout: 30_000 });

    const origin = new URL(wb.page.url()).origin;
    const browserAgent = await wb.page.evaluate(() => navigator.userAgent);
    const sent = wb.service.requests.filter((r) => r.method !== 'OPTIONS');
    assert.ok(sent.length >= 2, `requests were sent: ${sent.length}`);
    for (const r of sent) {
      assert.equal(r.origin, origin, `${r.method} ${r.path} from the page's origin`);
      assert.equal(r.userAgent, browserAgent, `${r.method} ${r.path} with the browser's user agent`);
    }
    assert.ok(
      wb.service.requests.some((r) => r.method === 'OPTIONS' && r.path === '/v1/engagements'),
      'the browser asked the service first (a CORS preflight for the Authorization header)',
    );
  });

  it('"Load more…" adds the next page below the rows shown', async () => {
    const wb = workbench();
    const before = (await wb.treeItems(VIEW)).slice(0, 5).map((r) => r.label);
    await wb.treeRow(VIEW, `Load more… (${PAGE_SIZE} of 60)`).click({ timeout: 15_000 });
    await wb.waitFor(
      async () => (await wb.treeSize(VIEW)) === 2 * PAGE_SIZE + 1,
      'the second page and "Load more…" in the tree',
      30_000,
    );
    assert.deepEqual(
      (await wb.treeItems(VIEW)).slice(0, 5).map((r) => r.label),
      before,
      'the rows shown before stay in place',
    );
    await wb.scrollTreeToEnd(VIEW);
    await wb.treeRow(VIEW, `Load more… (${2 * PAGE_SIZE} of 60)`).waitFor({ timeout: 15_000 });
  });

  it('creates an engagement through the input boxes, renames it and changes its status', async () => {
    const wb = workbench();
    wb.service.clearRequests();
    await wb.clickSideBarAction('Create Engagement');
    await wb.answerCreateUpToConfirmation(NEW_NAME, 'Staging');
    await wb.chooseQuickPick(`Create “${NEW_NAME}”`);
    const row = wb.treeRow(VIEW, NEW_NAME);
    await row.waitFor({ timeout: 30_000 });
    const created = wb.service.store.engagements.find((e) => e.name === NEW_NAME);
    assert.ok(created, 'the service holds the new engagement');
    assert.deepEqual(
      wb.service.requests.filter((r) => r.method === 'POST').map((r) => r.body),
      [{ name: NEW_NAME, type: 'onboarding' }],
      'one POST with what was typed',
    );

    await wb.contextMenu(row, /^Rename Engagement…$/);
    await wb.answerInput(/name/i, RENAMED);
    const renamed = wb.treeRow(VIEW, RENAMED);
    await renamed.waitFor({ timeout: 30_000 });

    await wb.contextMenu(renamed, /^Change (Engagement )?Status…$/);
    await wb.waitForQuickInput(`Status of “${RENAMED}”`);
    await wb.chooseQuickPick('completed');
    await wb.waitFor(
      async () => (await wb.treeItems(VIEW)).find((r) => r.label === RENAMED)?.icons.includes('codicon-pass-filled'),
      'the completed icon on the renamed engagement',
      30_000,
    );
    const held = wb.service.store.engagements.find((e) => e.id === created.id);
    assert.equal(held?.name, RENAMED);
    assert.equal(held?.status, 'completed');
    assert.deepEqual(
      wb.service.requests.filter((r) => r.method === 'PATCH').map((r) => [r.path, r.body]),
      [
        [`/v1/engagements/${created.id}`, { name: RENAMED }],
        [`/v1/engagements/${created.id}`, { status: 'completed' }],
      ],
      'one PATCH for the name, one for the status, each with only what changed',
    );
  });

  it('Go to Engagement finds one by its id and opens its details', async () => {
    const wb = workbench();
    const target = wb.service.store.engagements.at(-1)!;
    await wb.runCommand('Go to Engagement');
    await wb.waitForQuickInput('Go to Engagement in Staging');
    await wb.quickInput().fill(target.id);
    const pick = wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: target.id }).first();
    await pick.waitFor({ state: 'visible', timeout: 30_000 });
    await wb.page.keyboard.press('Enter');
    const details = await wb.webviewFrame('h1.name', 30_000);
    await wb.waitFor(async () => (await details.locator('h1.name').textContent()) === target.name, 'its details');
    assert.equal(await details.locator('table.fields td code').first().textContent(), target.id);
    const selected = wb.viewPane(VIEW).locator('.monaco-list-row[role="treeitem"][aria-selected="true"]');
    await wb.waitFor(
      async () => (await selected.locator('.label-name').textContent())?.trim() === target.name,
      'the engagement selected in the tree',
      30_000,
    );
    await wb.closeEditors();
  });

  it('the dashboard shows the meters, tier and keys; the records page 2 is read from the service', async () => {
    const wb = workbench();
    const store = wb.service.store;
    const period = store.currentPeriod();
    const summary = store.summary(period);
    const records = store.details(period);
    await wb.runCommand('Open Usage Dashboard');
    const frame = await wb.webviewFrame('.meter-card[data-meter="calls"]:not(.skeleton-card)', 30_000);
    const figures = await frame.locator('.meter-card:not(.skeleton-card) [data-part="figures"]').allTextContents();
    const count = (n: number) => new Intl.NumberFormat('en-US').format(n);
    assert.equal(
      figures[0]?.trim(),
      `${count(summary.usage.calls.used)} of ${count(summary.usage.calls.included)}`,
      'calls: used of included, as the service says',
    );
    assert.equal(figures.length, 3, 'three meters');
    assert.ok((await frame.locator('body').innerText()).includes(summary.tier), `the tier ${summary.tier} is shown`);
    assert.equal(await frame.locator('#keys-table tbody tr').count(), store.byKey(period).length, 'a row per API key');
    const pages = Math.ceil(records.length / PAGE_SIZE);
    assert.ok(pages >= 2, `more than one page of records (${records.length})`);
    await frame.getByRole('button', { name: 'Next page' }).click();
    await frame.locator('#page-of', { hasText: `Page 2 of ${pages}` }).waitFor({ timeout: 15_000 });
    assert.equal(
      await frame.locator('#records-range').textContent(),
      `Records ${PAGE_SIZE + 1}–${2 * PAGE_SIZE} of ${records.length}`,
    );
    assert.ok(
      wb.service.requests.some((r) => r.path === '/v1/usage/details' && r.query.page === '2'),
      'page 2 was read from the service',
    );
    // The picture for the README's web section: the dashboard beside the tree, in the web worker.
    if (await wb.page.locator('.part.auxiliarybar').isVisible()) await wb.runCommand('Hide Secondary Side Bar');
    await wb.clearNotifications();
    await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 15_000 });
    await wb.screenshot('docs-web');
  });

  it('Export CSV writes the period’s records through the workspace file system', async () => {
    const wb = workbench();
    const period = wb.service.store.currentPeriod();
    const records = wb.service.store.details(period);
    const file = path.join(wb.workspaceFolder, `usage-staging-${period}.csv`);
    fs.rmSync(file, { force: true });
    const frame = await wb.webviewFrame('#export-csv', 30_000);
    await frame.locator('#export-csv').click();
    await wb.waitForQuickInput(/usage-staging-|Export/);
    await wb.page.keyboard.press('Enter');
    await wb.waitFor(
      async () => (await wb.notificationTexts()).some((t) => t.includes(`Exported ${records.length} usage records`)),
      'the notice that the export is written',
      30_000,
    );
    const lines = fs.readFileSync(file, 'utf8').trim().split(/\r?\n/);
    assert.equal(lines.length, records.length + 1, 'a header and a line per record');
    const ids = records.map((r) => String(r.id));
    assert.deepEqual(
      ids.filter((id) => !lines.some((l) => l.startsWith(`${id},`))),
      [],
      'every record of the period is in it, first on its line',
    );
    await wb.closeEditors();
  });

  it('a service that allows no other origin: adding it says, in words, which origin it must allow', async () => {
    const wb = workbench();
    noCors = await startService({ port: 0, reading: READINGS.noCors });
    await wb.runCommand('Engagements: Add Environment…');
    await wb.answerInput('short name', 'Partner');
    await wb.answerInput('ending in /v1', noCors.baseUrl);
    await wb.answerInput('API key', noCors.keys.admin);
    const origin = new URL(wb.page.url()).origin;
    // Asked as the key is checked: save anyway, retry or cancel, with the reason.
    const said = await wb.waitFor(
      async () => (await wb.dialogTexts()).find((t) => t.includes('Access-Control-Allow-Origin')),
      'the message about CORS',
      30_000,
    );
    assert.match(
      said,
      /^.*Could not reach the service to check the key: The browser gave no answer from 127\.0\.0\.1:\d+/,
    );
    assert.ok(said.includes(origin), `the message names the origin ${origin}: ${said}`);
    assert.match(said, /Authorization, Content-Type, If-Match and If-Unmodified-Since and the method PATCH/);
    assert.ok(
      noCors.requests.some((r) => r.method === 'OPTIONS'),
      'the browser asked, and the service did not allow it',
    );
    assert.ok(
      !noCors.requests.some((r) => r.method !== 'OPTIONS' && r.authorization),
      'the key was never sent where the browser was not allowed to read the answer',
    );
    await wb.screenshot('web-no-cors');
    const dialog = wb.page.locator('.monaco-dialog-box', { hasText: 'Access-Control-Allow-Origin' });
    await dialog.locator('.monaco-button', { hasText: /^Cancel$/ }).click({ timeout: 15_000 });
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
    const environments = (await wb.statusBarItems()).filter((i) => i.text.includes('Partner'));
    assert.deepEqual(environments, [], 'nothing was added');
  });
});
