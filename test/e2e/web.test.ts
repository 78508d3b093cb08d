// Issue 37, VS Code for the Web: the packaged extension moved into the browser's web-worker
// extension host (`remote.extensionKind` set to `web`, as a user moves it in code-server), then
// the main paths a person takes, in one window: add an environment, the tree and Load more,
// create, rename and status, the details, Go to Engagement, the dashboard and its records'
// page 2, export, a service built with Hono and its cors middleware, and a service that allows
// no other origin (CORS). On both VS Code versions: the web-worker host is another runtime
// than the Node one, and each version has its own.
// That the code runs in the worker is read from what the service received: the browser's own
// user agent and the page's origin on every request, after a CORS preflight; from the Node
// host no request carries an Origin, and the user agent is the extension's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type HonoService, startHonoService } from '../frameworks/hono';
import { type RunningService, READINGS, startService } from '../service/server';
import { CONTAINER, required, useWorkbench, VIEW, type Workbench } from './workbench';

const EXTENSION = 'eus-tools.engagement-usage';
const NEW_NAME = 'Web Worker Review (e2e)';
const RENAMED = 'Web Worker Review, renamed (e2e)';
const PAGE_SIZE = 25;
const HONO_KEY = 'hono-web-key-5b2e';
/** Where `npm run bench` wants the activation figures read here (unset in a test run). */
const BENCH_OUT = process.env.EUS_BENCH_OUT_WEB || undefined;

/**
 * The extension's row of VS Code's own activation stats ("Developer: Startup Performance",
 * which counts the web worker's extensions too): found with the editor's Find, read from the
 * line on screen. `| id | eager | load code | call activate | finish activate | event | by |`
 */
async function activationStats(
  wb: Workbench,
): Promise<{ loadCodeMs: number; callActivateMs: number; finishActivateMs: number }> {
  await wb.runCommand('Developer: Startup Performance');
  const editor = wb.page.locator('.part.editor .editor-instance .monaco-editor').first();
  await wb.page.locator('.part.editor .tab.active', { hasText: /Startup Performance/i }).waitFor({ timeout: 15_000 });
  await editor.waitFor({ timeout: 15_000 });
  await editor.click({ position: { x: 200, y: 100 } });
  // Monaco writes spaces as no-break spaces and may split a line into spans: read every line on screen.
  const line = async () => {
    const lines = await editor
      .locator('.view-lines .view-line')
      .evaluateAll((all) => all.map((l) => (l.textContent ?? '').replace(/[\u00a0\u200b-\u200d]/g, ' ')));
    return lines.find((l) => l.includes(EXTENSION))?.trim() ?? '';
  };
  const row = await wb.waitFor(
    async () => {
      const text = await line();
      if (text.startsWith('|')) return text;
      await wb.page.keyboard.press('Control+f');
      await wb.page.keyboard.type(EXTENSION);
      await wb.page.keyboard.press('Enter');
      await wb.page.keyboard.press('Escape');
      return undefined;
    },
    'the extension in the activation stats',
    15_000,
  );
  const [, , , load, call, finish] = row.split('|').map((c) => c.trim());
  await wb.closeEditors();
  const stats = { loadCodeMs: Number(load), callActivateMs: Number(call), finishActivateMs: Number(finish) };
  assert.ok(Object.values(stats).every(Number.isFinite), `numbers in the row: ${row}`);
  return stats;
}

describe('VS Code for the Web: the extension in the browser web worker (e2e)', function () {
  this.timeout(120_000);
  // The probe extension (test/e2e/fixtures) stays in the Node host: it invokes our chat tool, in the worker, as the chat does.
  const toolReport = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'eus-web-tool-')), 'tool.json');
  const workbench = useWorkbench({
    settings: { 'remote.extensionKind': { [EXTENSION]: ['web'] }, 'workbench.colorTheme': 'Default Dark Modern' },
    extraVsix: [required('EUS_E2E_PROBE_VSIX')],
    env: { EUS_PROBE_TOOL_OUT: toolReport, EUS_PROBE_OUT: `${toolReport}.exports` },
  });
  let noCors: RunningService | undefined;
  let hono: HonoService | undefined;
  let router: HonoService | undefined;
  after(async () => {
    await noCors?.close();
    await hono?.close();
    await router?.close();
    fs.rmSync(path.dirname(toolReport), { recursive: true, force: true });
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

    // How long VS Code took to load and activate it there (printed, and kept for the bench).
    const stats = await activationStats(wb);
    console.log(
      `    (activation in the web worker, as VS Code counts it: load code ${stats.loadCodeMs} ms, call activate ${stats.callActivateMs} ms, finish ${stats.finishActivateMs} ms)`,
    );
    if (BENCH_OUT)
      fs.writeFileSync(
        BENCH_OUT,
        JSON.stringify({ ...stats, vscodeVersion: process.env.EUS_E2E_VSCODE_VERSION ?? '' }, null, 2),
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

    await wb.changeStatusFromMenu(VIEW, RENAMED, 'completed', 'codicon-pass-filled');
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

  it('the dashboard shows the meters, tier and keys; page 2 of the records shows the service’s records 26–50', async () => {
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
    // The range tells the rows on screen: it says 26–50 once page 2 is shown, not when it is asked for.
    const range = `Records ${PAGE_SIZE + 1}–${2 * PAGE_SIZE} of ${records.length}`;
    await frame.locator('#records-range', { hasText: range }).waitFor({ timeout: 15_000 });
    assert.equal(await frame.locator('#records-range').textContent(), range);
    const headers = (await frame.locator('#details-table thead th').allTextContents()).map((h) => h.trim());
    const idColumn = headers.indexOf('ID') + 1;
    assert.ok(idColumn > 0, `an ID column among ${headers.join(', ')}`);
    assert.deepEqual(
      (await frame.locator(`#details-table tbody tr td:nth-child(${idColumn})`).allTextContents()).map((t) => t.trim()),
      records.slice(PAGE_SIZE, 2 * PAGE_SIZE).map((r) => String(r.id)),
      'page 2 shows the service’s records 26–50, in its order',
    );
    assert.ok(
      wb.service.requests.some((r) => r.path === '/v1/usage/details' && r.origin),
      'the records were read from the service, from the browser',
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

  it('a chat tool answers from the worker; its confirmation decides, and the change goes to the service once', async () => {
    const wb = workbench();
    const target = wb.service.store.engagements.find((e) => e.status === 'active')!;
    wb.service.clearRequests();
    fs.rmSync(toolReport, { force: true });
    await wb.runCommand('Probe: Invoke a Language Model Tool');
    await wb.answerInput(
      'The tool name',
      `engagementUsage_updateEngagements ${JSON.stringify({ ids: [target.id], status: 'paused' })}`,
    );
    const dialog = wb.page.locator('.monaco-dialog-box', { hasText: 'Change an engagement' });
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const shown = (await dialog.innerText()).replace(/\s+/g, ' ');
    assert.ok(shown.includes(`“${target.name}” (${target.id}): status: “active” → “paused”`), shown);
    const confirm = (await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts())
      .map((b) => b.trim())
      .find((b) => b !== 'Cancel')!;
    await dialog.locator('.dialog-buttons .monaco-button', { hasText: confirm }).click();
    const report = await wb.waitFor(
      () =>
        fs.existsSync(toolReport)
          ? (JSON.parse(fs.readFileSync(toolReport, 'utf8')) as { outcome: string; text: string })
          : undefined,
      "the probe's report of the tool",
      30_000,
    );
    assert.equal(report.outcome, 'answered', report.text);
    const patches = wb.service.requests.filter((r) => r.method === 'PATCH');
    assert.deepEqual(
      patches.map((r) => [r.path, r.body, r.origin]),
      [[`/v1/engagements/${target.id}`, { status: 'paused' }, new URL(wb.page.url()).origin]],
      'one PATCH, sent from the browser',
    );
    assert.equal(wb.service.store.engagements.find((e) => e.id === target.id)?.status, 'paused');
  });

  it('a Hono service (its cors middleware, routes ending in a slash): the tree, a rename and the meters, from the browser', async () => {
    const wb = workbench();
    const origin = new URL(wb.page.url()).origin;
    hono = await startHonoService({ token: HONO_KEY, corsOrigin: origin });
    await wb.closeEditors();
    await wb.addEnvironment('Hono', hono.baseUrl, HONO_KEY);
    await wb.waitFor(
      async () => {
        const items = await wb.treeItems(VIEW);
        return items.length === PAGE_SIZE + 1 && items[0].label === 'Engagement 1';
      },
      'the first page of the Hono service’s engagements',
      30_000,
    );
    await wb.treeRow(VIEW, `Load more… (${PAGE_SIZE} of 60)`).waitFor({ timeout: 15_000 });
    // The browser hides where a redirect points: the client tried the path with a slash, once
    // per read until the slash was learned; no request after those reads was redirected.
    const redirected = hono.requests.filter((r) => / 30\d$/.test(r));
    assert.ok(redirected.length > 0 && redirected.length <= 2, hono.requests.join('\n'));
    for (const r of redirected) assert.match(r, /^GET \/v1\/[a-z/]+[^/](\?\S*)? 301$/);
    const afterLearned = hono.requests.slice(hono.requests.lastIndexOf(redirected.at(-1)!) + 1);
    assert.ok(afterLearned.length > 0 && afterLearned.every((r) => !/ 30\d$/.test(r)), hono.requests.join('\n'));

    await wb.contextMenu(wb.treeRow(VIEW, 'Engagement 3'), /^Rename Engagement…$/);
    await wb.answerInput(/name/i, 'Renamed in the browser');
    await wb.treeRow(VIEW, 'Renamed in the browser').waitFor({ timeout: 30_000 });
    assert.equal(hono.held().find((row) => row.id === 'eng_003')?.name, 'Renamed in the browser');
    assert.deepEqual(
      hono.requests.filter((r) => r.startsWith('PATCH')),
      ['PATCH /v1/engagements/eng_003/ 200'],
      'one PATCH, straight to the path with its slash',
    );

    await wb.runCommand('Open Usage Dashboard');
    const frame = await wb.webviewFrame('.meter-card[data-meter="calls"]:not(.skeleton-card)', 30_000);
    const figures = await frame.locator('.meter-card:not(.skeleton-card) [data-part="figures"]').allTextContents();
    assert.equal(figures[0]?.trim(), '12,500 of 10,000', 'calls: used of included, as the Hono service says');
    assert.ok(
      hono.requests.some((r) => r.startsWith('OPTIONS /v1/engagements')),
      'the browser asked first (a CORS preflight), and Hono’s cors middleware allowed it',
    );
    await wb.closeEditors();
  });

  it('a service routed as routers route, left at django-cors-headers’ default CORS: details, then one POST for a create, and a rename with no conditional header', async () => {
    const wb = workbench();
    const origin = new URL(wb.page.url()).origin;
    // The collection ends in a slash, an engagement does not; a GET or a write to the other
    // form is redirected. Its CORS allows only django-cors-headers' default request headers.
    router = await startHonoService({
      token: HONO_KEY,
      corsOrigin: origin,
      corsHeaders: 'djangoDefaults',
      routing: 'collections',
      slashWrites: true,
    });
    await wb.closeEditors();
    await wb.openViewContainer(CONTAINER);
    await wb.addEnvironment('Router', router.baseUrl, HONO_KEY);
    await wb.waitFor(
      async () => (await wb.treeItems(VIEW))[0]?.label === 'Engagement 1',
      'the first page of the router-style service’s engagements',
      30_000,
    );
    await wb.treeRow(VIEW, 'Engagement 5').click({ timeout: 15_000 });
    const details = await wb.webviewFrame('h1.name', 30_000);
    await wb.waitFor(async () => (await details.locator('h1.name').textContent()) === 'Engagement 5', 'its details');
    await wb.closeEditors();

    const made = 'Made after the details (e2e)';
    const before = router.requests.length;
    await wb.clickSideBarAction('Create Engagement');
    // The types offered are those the service's engagements have (Hono's: evaluation, pilot).
    await wb.answerInput('Name of the engagement', made);
    await wb.waitForQuickInput('Choose a type');
    await wb.quickInput().fill('pilot');
    await wb.chooseQuickPick('pilot');
    await wb.answerInput('Description', '');
    await wb.waitForQuickInput('Create this engagement in Router?');
    await wb.chooseQuickPick(`Create “${made}”`);
    await wb.treeRow(VIEW, made).waitFor({ timeout: 30_000 });
    assert.deepEqual(
      router.requests.slice(before).filter((r) => !r.startsWith('GET') && !r.startsWith('OPTIONS')),
      ['POST /v1/engagements/ 201'],
      'one POST, straight to the collection’s form',
    );
    assert.equal(router.held().filter((row) => row.name === made).length, 1, 'made once');

    await wb.contextMenu(wb.treeRow(VIEW, 'Engagement 5'), /^Rename Engagement…$/);
    await wb.answerInput(/name/i, 'Renamed past the default CORS');
    await wb.treeRow(VIEW, 'Renamed past the default CORS').waitFor({ timeout: 30_000 });
    assert.equal(router.held().find((row) => row.id === 'eng_005')?.name, 'Renamed past the default CORS');
    assert.deepEqual(
      router.preconditions,
      [{ ifMatch: undefined, ifUnmodifiedSince: undefined }],
      'one PATCH, with no header the service never offered (its preflight would refuse it)',
    );
    assert.deepEqual(
      (await wb.notificationTexts()).filter((t) => /redirect|Could not/i.test(t)),
      [],
      'no failure was shown',
    );
    // At most one redirect per route, whatever the order the person went in.
    const routeOf = (line: string) =>
      line
        .replace(/\?\S*/, '')
        .replace(/ \d+$/, '')
        .replace(/\/$/, '')
        .replace(/\/engagements\/[^/]+$/, '/engagements/{id}');
    const redirected = router.requests.filter((r) => / 30\d$/.test(r)).map(routeOf);
    assert.deepEqual(redirected, [...new Set(redirected)], router.requests.join('\n'));
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
    // Asked as the key is checked: one short sentence, what the service must allow in the
    // detail, and saving offered for later (it cannot work in this tab until then).
    const said = await wb.waitFor(
      async () => (await wb.dialogTexts()).find((t) => t.includes('Access-Control-Allow-Origin')),
      'the message about CORS',
      30_000,
    );
    const box = wb.page.locator('.monaco-dialog-box', { hasText: 'Access-Control-Allow-Origin' });
    const message = (await box.locator('.dialog-message-text').innerText()).replace(/\s+/g, ' ').trim();
    assert.match(
      message,
      /^The key could not be checked: The browser gave no answer from 127\.0\.0\.1:\d+ that this extension may read \([^)]+\)\.$/,
    );
    const detail = (await box.locator('.dialog-message-detail').innerText()).replace(/\s+/g, ' ');
    assert.ok(detail.includes(origin), `the detail names the origin ${origin}: ${detail}`);
    assert.match(detail, /allow the headers Authorization and Content-Type and the method PATCH/);
    assert.ok(said.includes('Save for Later') && !said.includes('Save Anyway'), said);
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
