// Trust boundaries in the real workbench with the packaged extension (Production mode):
// another installed extension (test/e2e/fixtures/probe-extension) takes our `exports` and gets
// no key, no client and no way to replace the input boxes; a service error holding a
// `command:` link is shown in a real notification as text, and clicking it runs nothing.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONTAINER, required, useWorkbench } from './workbench';

interface ProbeReport {
  found: boolean;
  active: boolean;
  exportsType: string;
  paths: Record<string, string>;
  uiReplaced: boolean;
  client: string;
  text: string;
}

describe('Trust boundaries (e2e)', function () {
  this.timeout(180_000);
  // Named now (the workbench's environment needs it), made only when the suite runs: a run
  // whose --grep leaves this suite out runs none of its hooks and must leave no folder behind.
  const reportFile = path.join(os.tmpdir(), `eus-probe-${process.pid}-${randomUUID()}`, 'report.json');
  before(() => fs.mkdirSync(path.dirname(reportFile), { recursive: true }));
  const workbench = useWorkbench({ extraVsix: [required('EUS_E2E_PROBE_VSIX')], env: { EUS_PROBE_OUT: reportFile } });

  before(async function () {
    this.timeout(120_000);
    const wb = workbench();
    await wb.addEnvironmentFromWelcome(CONTAINER, 'Prod', wb.service.baseUrl, wb.service.keys.admin);
  });
  after(() => fs.rmSync(path.dirname(reportFile), { recursive: true, force: true }));

  it('another installed extension gets neither a key, a client, nor a way to replace the UI from our exports', async () => {
    const wb = workbench();
    const { admin } = wb.service.keys;

    await wb.runCommand('Probe: Read Engagement & Usage Exports');
    const report = await wb.waitFor(
      () => (fs.existsSync(reportFile) ? (JSON.parse(fs.readFileSync(reportFile, 'utf8')) as ProbeReport) : undefined),
      "the probe's report",
      30_000,
    );
    assert.equal(report.found, true, 'the probe found the extension');
    assert.equal(report.active, true, 'and it is active (a key is stored, the tree is loaded)');
    assert.equal(report.exportsType, 'undefined', 'activate() returns nothing when installed');
    assert.deepEqual(report.paths, { exports: 'undefined' }, 'nothing reachable');
    assert.equal(report.uiReplaced, false, 'no useUi to replace the input boxes with');
    assert.equal(report.client, 'none', 'no client of the active environment');
    const raw = fs.readFileSync(reportFile, 'utf8');
    assert.ok(!raw.includes(admin) && !raw.includes(admin.split('.')[1]), 'no key in anything the probe could read');

    // The extension's own input boxes are still the real ones.
    await wb.runCommand('Add Environment');
    await wb.waitForQuickInput('short name');
    await wb.page.keyboard.press('Escape');
  });

  it('a command: link in a service error, shown in a real notification, is text: clicking it runs nothing', async () => {
    const wb = workbench();
    await wb.clearNotifications();
    wb.service.faults.add({
      method: 'GET',
      path: /^\/engagements\/[^/]+$/,
      kind: 'status',
      status: 500,
      body: {
        error: { message: 'Maintenance. [Open the settings](command:workbench.action.openSettings) to continue' },
      },
    });
    await wb.runCommand('Open Engagement Details');
    await wb.waitForQuickInput('Open details of');
    await wb.page.keyboard.press('Enter');

    const toast = wb.page.locator('.notifications-toasts .notification-toast', { hasText: 'Maintenance' }).first();
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await toast.innerText();
    assert.ok(
      text.includes('[Open the settings] (command:workbench.action.openSettings)'),
      `the link is shown as text: ${text}`,
    );
    const anchors = await toast
      .locator('a')
      .evaluateAll((links) =>
        links.map((a) => `${a.textContent ?? ''} ${a.getAttribute('href') ?? ''} ${a.getAttribute('data-href') ?? ''}`),
      );
    assert.deepEqual(
      anchors.filter((a) => /command:|Open the settings/.test(a)),
      [],
      'no link element in the notification',
    );
    await wb.screenshot('trust-command-link-notification');

    await toast.getByText('Open the settings', { exact: false }).first().click({ timeout: 15_000 });
    // A link's command would run at the click and open its editor; a later signal: an editor
    // opened from the palette after the click. Once its tab is there, the Settings tab would be.
    await wb.runCommand('File: New Untitled Text File');
    const untitled = wb.page.locator('.part.editor .tabs-container .tab', { hasText: 'Untitled' });
    await untitled.first().waitFor({ timeout: 15_000 });
    const tabs = await wb.page.locator('.part.editor .tabs-container .tab').allInnerTexts();
    assert.ok(!tabs.some((t) => /Settings/i.test(t)), `no Settings editor opened: tabs ${JSON.stringify(tabs)}`);
    assert.equal(await wb.page.locator('.settings-editor').count(), 0, 'no settings editor anywhere');
    await wb.closeEditors();
    wb.service.faults.clear();
  });
});
