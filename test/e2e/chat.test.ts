// Issue 26 in the real workbench with the packaged extension: a write tool invoked as the
// chat invokes it (`vscode.lm.invokeTool` outside a chat request, here from another installed
// extension, test/e2e/fixtures/probe-extension) shows VS Code's confirmation dialog with the
// environment, its production mark and old → new; Cancel sends nothing, the confirming button
// sends the change once. (The integration host's dialog service confirms every dialog by
// itself, so only this test proves that the person's answer decides.) Links: "Developer:
// Open URL" hands a `<scheme>://eus-tools.engagement-usage/engagement?…` link to VS Code's URL
// service, which gives it to the extension's URI handler, as a link clicked elsewhere would.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startService } from '../service/server';
import { CONTAINER, required, useWorkbench, type Workbench } from './workbench';

const UPDATE_TOOL = 'engagementUsage_updateEngagements';

interface ToolReport {
  outcome: 'answered' | 'cancelled' | 'failed';
  text: string;
}

describe('Chat tools and links (e2e)', function () {
  this.timeout(180_000);
  const reportFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'eus-tool-')), 'tool.json');
  const workbench = useWorkbench({
    extraVsix: [required('EUS_E2E_PROBE_VSIX')],
    env: { EUS_PROBE_TOOL_OUT: reportFile, EUS_PROBE_OUT: `${reportFile}.exports` },
  });

  before(async function () {
    this.timeout(120_000);
    const wb = workbench();
    // "Prod" is marked production when added (its label says so).
    await wb.addEnvironmentFromWelcome(CONTAINER, 'Prod', wb.service.baseUrl, wb.service.keys.admin);
  });
  after(() => fs.rmSync(path.dirname(reportFile), { recursive: true, force: true }));

  /** Invokes a tool through the probe; resolves once VS Code's dialog is on screen. */
  async function invoke(wb: Workbench, input: object) {
    fs.rmSync(reportFile, { force: true });
    await wb.runCommand('Probe: Invoke a Language Model Tool');
    await wb.answerInput('The tool name', `${UPDATE_TOOL} ${JSON.stringify(input)}`);
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    return dialog;
  }

  const toolReport = (wb: Workbench) =>
    wb.waitFor(
      () => (fs.existsSync(reportFile) ? (JSON.parse(fs.readFileSync(reportFile, 'utf8')) as ToolReport) : undefined),
      "the probe's report of the tool",
      30_000,
    );

  it('a write tool shows VS Code’s confirmation: Cancel sends nothing, confirming sends one PATCH', async () => {
    const wb = workbench();
    const target = wb.service.store.engagements.find((e) => e.status === 'active')!;
    const patches = () => wb.service.requests.filter((r) => r.method === 'PATCH');
    wb.service.clearRequests();

    const dialog = await invoke(wb, { ids: [target.id], status: 'completed' });
    const shown = (await dialog.innerText()).replace(/\s+/g, ' ');
    assert.match(shown, /Change an engagement in “Prod” \(PRODUCTION\)\?/, shown);
    assert.ok(shown.includes(`“${target.name}” (${target.id}): status: “active” → “completed”`), shown);
    await wb.screenshot('chat-tool-confirmation');
    const buttons = (await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((b) => b.trim());
    assert.ok(buttons.includes('Cancel'), `buttons: ${buttons.join(', ')}`);
    await dialog.locator('.dialog-buttons .monaco-button', { hasText: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
    assert.equal((await toolReport(wb)).outcome, 'cancelled');
    assert.equal(patches().length, 0, 'Cancel: no PATCH in the service’s log');
    assert.equal(wb.service.store.engagements.find((e) => e.id === target.id)!.status, 'active');

    const again = await invoke(wb, { ids: [target.id], status: 'completed' });
    const confirm = buttons.find((b) => b !== 'Cancel')!;
    await again.locator('.dialog-buttons .monaco-button', { hasText: confirm }).click();
    await again.waitFor({ state: 'hidden', timeout: 15_000 });
    const report = await toolReport(wb);
    assert.equal(report.outcome, 'answered', report.text);
    assert.match(report.text, /Changed 1,/);
    assert.ok(!report.text.includes(wb.service.keys.admin), 'no key in the result');
    assert.equal(patches().length, 1, 'confirmed: exactly one PATCH');
    assert.equal(patches()[0].path, `/v1/engagements/${target.id}`);
    assert.equal(wb.service.store.engagements.find((e) => e.id === target.id)!.status, 'completed');
  });

  /**
   * Opens a link as VS Code does one from outside: "Developer: Open URL" gives it to the URL
   * service, which asks "Allow … to open this URI?" (answered Open) and calls the URI handler.
   */
  async function openLink(wb: Workbench, query: string) {
    await wb.runCommand('Developer: Open URL');
    const input = wb.quickInput();
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(`code-oss://eus-tools.engagement-usage/engagement?${query}`);
    await wb.page.keyboard.press('Enter');
    const allow = wb.page.locator('.monaco-dialog-box', { hasText: 'open this URI' });
    await allow.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match((await allow.innerText()).replace(/\s+/g, ' '), /Allow '.*Engagement.*' extension to open this URI\?/);
    await allow.locator('.dialog-buttons .monaco-button', { hasText: 'Open' }).click();
    await allow.waitFor({ state: 'hidden', timeout: 15_000 });
  }

  it('a link opens the details of the engagement it names', async () => {
    const wb = workbench();
    const target = wb.service.store.engagements[7];
    await openLink(wb, `environment=Prod&id=${target.id}`);
    const details = await wb.webviewFrame('h1.name', 30_000);
    await wb.waitFor(
      async () => (await details.locator('h1.name').textContent()) === target.name,
      'the details of the linked engagement',
    );
    const shownId = (await details.locator('table.fields td code').first().textContent()) ?? '';
    assert.equal(shownId, target.id);
    await wb.screenshot('chat-link-opened');
  });

  it('hostile links are refused with a message, and send nothing', async () => {
    const wb = workbench();
    const id = wb.service.store.engagements[3].id;
    const cases: Array<[string, string]> = [
      [`environment=Staging&id=${id}`, 'The link is for the environment “Staging”, which is not one of yours'],
      [
        `environment=${encodeURIComponent('https://evil.example/v1')}&id=${id}`,
        'A link names an environment by its label, never by a URL',
      ],
      [
        `environment=Prod&id=${encodeURIComponent('command:engagementUsage.changeEngagementStatus')}`,
        'This link does not name an engagement id',
      ],
      [`environment=Prod&id=${'x'.repeat(10_240)}`, 'This link is too long to be a link to an engagement'],
    ];
    for (const [query, words] of cases) {
      wb.service.clearRequests();
      await openLink(wb, query);
      await wb.waitFor(
        async () => (await wb.notificationTexts()).some((t) => t.includes(words)),
        `the message "${words}"`,
      );
      assert.deepEqual(
        wb.service.requests.map((r) => `${r.method} ${r.path}`),
        [],
        `nothing sent for ${query.slice(0, 80)}`,
      );
      await wb.clearNotifications();
    }
    await wb.screenshot('chat-link-refused');
  });

  it('a link to another of the user’s environments asks before switching, then opens the engagement there', async () => {
    const wb = workbench();
    await wb.addEnvironment('Sandbox', wb.service.baseUrl, wb.service.keys.admin);
    const target = wb.service.store.engagements[11];
    await openLink(wb, `environment=Prod&id=${target.id}`);
    const ask = wb.page.locator('.monaco-dialog-box', { hasText: 'Switch to the environment' });
    await ask.waitFor({ state: 'visible', timeout: 15_000 });
    const asked = (await ask.innerText()).replace(/\s+/g, ' ');
    assert.ok(asked.includes(`Switch to the environment “Prod” to open engagement ${target.id}?`), asked);
    assert.ok(asked.includes('“Prod” is a production environment.'), asked);
    await ask.locator('.dialog-buttons .monaco-button', { hasText: 'Switch and Open' }).click();
    await wb.waitFor(
      async () => (await wb.statusBarItems()).some((i) => i.text.includes('Prod')),
      'Prod to be the active environment again',
      30_000,
    );
    const details = await wb.webviewFrame('h1.name', 30_000);
    await wb.waitFor(
      async () => (await details.locator('h1.name').textContent()) === target.name,
      'the details of the linked engagement',
    );
  });

  it('a write confirmed in Staging goes to Staging after the person switched to Production before answering', async () => {
    const wb = workbench();
    const staging = wb.service;
    // Production: another service with the same data (the same ids and versions).
    const production = await startService({ port: 0 });
    production.store.setEngagements(staging.store.engagements);
    const signal = `${reportFile}.go`;
    try {
      await wb.addEnvironment('Production', production.baseUrl, production.keys.admin);
      await wb.addEnvironment('Staging', staging.baseUrl, staging.keys.admin);
      // Beyond the tree's first page, so the confirmation reads its current value from Staging.
      const target = staging.store.engagements.at(-1)!;
      assert.equal(production.store.getEngagement(target.id)?.updatedAt, target.updatedAt);
      const status = target.status === 'archived' ? 'completed' : 'archived';

      // The tool is asked for now, and prepared once the link's question is on screen.
      fs.rmSync(reportFile, { force: true });
      fs.rmSync(signal, { force: true });
      await wb.runCommand('Probe: Invoke a Language Model Tool');
      await wb.answerInput(
        'The tool name',
        `wait:${signal} ${UPDATE_TOOL} ${JSON.stringify({ ids: [target.id], status })}`,
      );
      await openLink(wb, `environment=Production&id=${target.id}`);
      const ask = wb.page.locator('.monaco-dialog-box', { hasText: 'Switch to the environment' });
      await ask.waitFor({ state: 'visible', timeout: 15_000 });
      staging.clearRequests();
      fs.writeFileSync(signal, 'go');
      // The confirmation is prepared in Staging: it reads the engagement there.
      await wb.waitFor(
        () => staging.requests.some((r) => r.method === 'GET' && r.path === `/v1/engagements/${target.id}`),
        'the confirmation to read the engagement in Staging',
        30_000,
      );
      // The person switches to Production before answering the confirmation.
      await ask.locator('.dialog-buttons .monaco-button', { hasText: 'Switch and Open' }).click();
      const confirmation = wb.page.locator('.monaco-dialog-box', { hasText: 'Change an engagement' });
      await confirmation.waitFor({ state: 'visible', timeout: 30_000 });
      await wb.waitFor(
        async () => (await wb.statusBarItems()).some((i) => i.text.includes('Production')),
        'Production to be the active environment',
        30_000,
      );
      const shown = (await confirmation.innerText()).replace(/\s+/g, ' ');
      assert.match(shown, /Change an engagement in “Staging”\?/, shown);
      staging.clearRequests();
      production.clearRequests();
      const yes = (await confirmation.locator('.dialog-buttons .monaco-button').allInnerTexts())
        .map((b) => b.trim())
        .find((b) => b !== 'Cancel')!;
      await confirmation.locator('.dialog-buttons .monaco-button', { hasText: yes }).click();
      const report = await toolReport(wb);
      assert.equal(report.outcome, 'answered', report.text);
      assert.match(report.text, /^Environment: “Staging”\./);
      assert.match(report.text, /Changed 1,/);
      const writes = (service: typeof staging) =>
        service.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
      assert.deepEqual(writes(staging), [`PATCH /v1/engagements/${target.id}`], 'one write in Staging');
      assert.deepEqual(writes(production), [], 'none in Production');
      assert.equal(staging.store.getEngagement(target.id)?.status, status);
      assert.notEqual(production.store.getEngagement(target.id)?.status, status);
    } finally {
      fs.rmSync(signal, { force: true });
      await production.close();
    }
  });
});
