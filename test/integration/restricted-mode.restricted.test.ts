// Restricted Mode in the real VS Code: run by `node scripts/run-integration.mjs --restricted`
// (and by `npm test`), which keeps workspace trust on and opens a folder that is not trusted,
// whose .vscode/settings.json defines a "Production" environment at another address, makes it
// the default and asks for a refresh every second. The extension still runs (it declares
// limited support), but nothing of that folder decides where the user's key goes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, runCommand, suiteContext, waitFor } from './support/helpers';

describe('Restricted Mode (workspace not trusted)', function () {
  this.timeout(60_000);
  const ctx = suiteContext();
  const envs = () => ctx.exports.environments!;
  const section = () => vscode.workspace.getConfiguration('engagementUsage');

  it('runs in a folder VS Code does not trust, which defines an environment of its own', () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the harness opened the folder in Restricted Mode');
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a folder is open');
    const file = JSON.parse(
      fs.readFileSync(path.join(folder.uri.fsPath, '.vscode', 'settings.json'), 'utf8'),
    ) as Record<string, Array<{ label: string }>>;
    assert.equal(
      file['engagementUsage.environments']?.[0]?.label,
      'Production',
      "the folder's settings define an environment",
    );
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      capabilities?: { untrustedWorkspaces?: { supported?: unknown; restrictedConfigurations?: string[] } };
    };
    assert.equal(manifest.capabilities?.untrustedWorkspaces?.supported, 'limited');
  });

  it('VS Code ignores the restricted settings of the untrusted folder, and so does the extension', () => {
    assert.deepEqual(
      section().get('environments'),
      [],
      "VS Code does not apply the folder's environments (restrictedConfigurations)",
    );
    assert.equal(section().inspect('environments')?.workspaceValue, undefined, 'not even as the workspace value');
    assert.equal(section().get('defaultEnvironment'), '', 'nor its default environment');
    assert.equal(section().get('engagements.autoRefreshSeconds'), 0, 'nor its refresh interval');
    assert.deepEqual(envs().list(), [], 'no environment from the folder is listed');
    assert.equal(envs().active(), undefined, 'none is active');
    assert.match(envs().statusBarText(), /No environment/);
  });

  it("the user's own environment works, and the folder's default cannot select another", async () => {
    ctx.ui.answer('Mine', ctx.service.baseUrl, ctx.service.keys.admin);
    await runCommand('addEnvironment');
    assert.deepEqual(
      envs()
        .list()
        .map((e) => [e.label, e.source]),
      [['Mine', 'user']],
    );
    assert.equal(envs().active()?.label, 'Mine');
    const items = await ctx.exports.engagements!.tree();
    assert.ok(items.length > 0, "the tree shows the engagements of the user's environment");
    await waitFor(() => envs().statusBarText().includes('Mine'), 'the status bar');
    ctx.ui.answer((_prompt, step) => {
      const labels = 'items' in step ? step.items.map((i) => i.label) : [];
      assert.ok(
        !labels.some((l) => l.includes('Production')),
        `the switcher offers nothing of the folder: ${labels.join(', ')}`,
      );
      return undefined;
    });
    await runCommand('switchEnvironment');
  });
});
