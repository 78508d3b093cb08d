// Issue 4, as a person does it: from a fresh VS Code with the packaged extension, open the
// "Engagements" side bar, press the welcome view's button, type label → base URL →
// key into the input boxes; the status bar then shows the environment, and the key was
// kept (in code-server's SecretStorage) across a reload of the window. The last test also
// exercises the palette and webview helpers on the usage dashboard.
import assert from 'node:assert/strict';
import { CONTAINER, useWorkbench } from './workbench';

describe('Adding the first environment (e2e)', function () {
  this.timeout(120_000);
  const workbench = useWorkbench();

  it('welcome button → label → URL → key; the status bar shows the environment', async () => {
    const wb = workbench();
    await wb.openViewContainer(CONTAINER);
    const button = wb.page.locator('.part.sidebar .welcome-view-content .monaco-button', {
      hasText: 'Add Environment',
    });
    await button.waitFor({ state: 'visible', timeout: 30_000 });
    await wb.screenshot('docs-welcome');

    await button.click();
    await wb.answerInput('short name', 'Staging');
    await wb.answerInput('ending in /v1', wb.service.baseUrl);
    await wb.waitForQuickInput('API key');
    await wb.screenshot('add-environment-key');
    await wb.answerInput('API key', wb.service.keys.admin);

    const item = await wb.waitFor(
      async () => (await wb.statusBarItems()).find((i) => i.text.includes('Staging')),
      'the status bar to show Staging',
      30_000,
    );
    assert.match(item.ariaLabel, /Staging/);
    assert.ok(
      wb.service.requests.some((r) => r.authorization === `Bearer ${wb.service.keys.admin}`),
      'the key was checked with the service before it was saved',
    );
    const items = await wb.waitFor(
      async () => {
        const rows = await wb.treeItems('Engagements');
        return rows.length > 1 && rows.every((r) => r.label) ? rows : undefined;
      },
      'the Engagements view to list engagements',
      30_000,
    );
    assert.ok(
      items.some((i) => i.icons.length > 0),
      `tree items have codicons: ${JSON.stringify(items.slice(0, 3))}`,
    );
    await wb.screenshot('docs-environment-added');
  });

  it('the key survives a reload of the window (code-server SecretStorage)', async () => {
    const wb = workbench();
    wb.service.clearRequests();
    await wb.page.reload({ waitUntil: 'domcontentloaded' });
    await wb.windowReady();
    await wb.openViewContainer(CONTAINER);
    const item = wb.page.locator('.part.statusbar .statusbar-item', { hasText: 'Staging' });
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await item.locator('.codicon-key').count(), 0, 'no "key missing" icon next to the environment');
    await wb.waitFor(
      () => wb.service.requests.some((r) => r.keyId === 'key_admin'),
      'a request made with the stored key',
      30_000,
    );
  });

  it('then the usage dashboard opens from the command palette and shows the meters (webview)', async () => {
    const wb = workbench();
    await wb.runCommand('Open Usage Dashboard');
    const frame = await wb.webviewFrame('[data-meter="calls"]:not(.skeleton-card)', 30_000);
    const percent = (await frame.locator('[data-meter="calls"] [data-part="percent"]').textContent()) ?? '';
    assert.match(percent, /\d+\s*%/, 'the calls meter shows a percentage');
    await wb.screenshot('usage-dashboard-first-open');
  });
});
