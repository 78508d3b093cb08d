// The road users are on, as a person sees it: the packaged extension against the service at
// https://127.0.0.1:PORT/v1, whose certificate a private CA signed (made by openssl for this
// run: scripts/vscode/tls.mjs). VS Code is told to trust the CA the way a user can without
// touching the machine's store: NODE_EXTRA_CA_CERTS in its environment and
// `http.systemCertificates` off in the user settings (with it on, VS Code's fetch ignores
// NODE_EXTRA_CA_CERTS; see CONTRIBUTING.md, "HTTPS and proxies"). Add Environment → key check →
// tree → create → dashboard, every step on screen. On the newest VS Code only: what differs
// on the oldest is the extension host's fetch with the CA, which the integration suite runs
// on both (https-ca.test.ts); the screens are those of the other e2e files.
import assert from 'node:assert/strict';
import { certificatesForRun } from '../../scripts/vscode/tls.mjs';
import { CONTAINER, useWorkbench, VIEW } from './workbench';

const trust = certificatesForRun();
const { key, cert } = trust.certificates.served.good;

describe('HTTPS with a private CA (e2e)', function () {
  this.timeout(150_000);
  const workbench = useWorkbench({
    service: { tls: { key, cert } },
    env: trust.env,
    settings: { 'http.systemCertificates': false },
  });
  after(() => trust.remove());

  it('Add Environment → key check → tree → create → dashboard over https://127.0.0.1', async () => {
    const wb = workbench();
    assert.match(wb.service.baseUrl, /^https:\/\/127\.0\.0\.1:\d+\/v1$/);
    await wb.addEnvironmentFromWelcome(CONTAINER, 'Secure', wb.service.baseUrl, wb.service.keys.admin);
    assert.ok(
      wb.service.requests.some((r) => r.keyId === 'key_admin'),
      'the key was checked with the service, over TLS, before it was saved',
    );
    assert.ok(wb.service.connections.tls > 0, 'the requests came over TLS');

    await wb.waitFor(
      async () => (await wb.treeItems(VIEW)).filter((r) => r.label).length >= 25,
      'the first page of engagements in the tree',
      30_000,
    );
    const name = 'Made over HTTPS (e2e)';
    await wb.clickSideBarAction('Create Engagement');
    await wb.answerCreateUpToConfirmation(name, 'Secure');
    await wb.chooseQuickPick(`Create “${name}”`);
    await wb.treeRow(VIEW, name).waitFor({ timeout: 30_000 });
    assert.equal(wb.service.store.engagements.filter((e) => e.name === name).length, 1, 'created once');

    await wb.runCommand('Open Usage Dashboard');
    const frame = await wb.webviewFrame('[data-meter="calls"]:not(.skeleton-card)', 30_000);
    const percent = (await frame.locator('[data-meter="calls"] [data-part="percent"]').textContent()) ?? '';
    assert.match(percent, /\d+\s*%/, 'the calls meter shows a percentage');
    const toasts = await wb.notificationTexts();
    assert.ok(!toasts.some((t) => /Could not|Cannot reach/i.test(t)), `no failure on screen: ${toasts.join(' | ')}`);
    assert.ok(
      wb.service.requests.every((r) => r.keyId === 'key_admin'),
      'every request carried the key, inside TLS',
    );
    await wb.screenshot('https-private-ca-dashboard');
  });
});
