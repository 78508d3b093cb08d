// Runs first (index.ts orders it so): the extension must not be active before anything of
// it is needed, must activate without error when one of its commands runs, and registers
// exactly the commands its manifest contributes. It measures nothing: `npm run bench` reads the
// activation figures (VS Code's own statistics, the first command's time, the requests sent)
// from the Performance suite run alone in a fresh extension host (test/integration/performance.test.ts).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionExports } from '../../src/testing/exports';
import { EXTENSION_ID, runCommand } from './support/helpers';

function extension(): vscode.Extension<ExtensionExports> {
  const ext = vscode.extensions.getExtension<ExtensionExports>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is installed in this VS Code`);
  return ext;
}

describe('Activation', function () {
  this.timeout(60_000);

  it('is not active before anything of it is needed', () => {
    assert.equal(extension().isActive, false, 'the extension must not activate at start-up (narrow activation events)');
  });

  it('activates without error when one of its commands runs', async () => {
    const ext = extension();
    await runCommand('showLogs');
    assert.equal(ext.isActive, true, 'running a command activated the extension');
    const exports = await ext.activate();
    assert.equal(typeof exports.useUi, 'function', 'activate() returned the test seam');
    assert.ok(exports.environments, 'the environments part is exported');
  });

  it('registers exactly the commands its manifest contributes', async () => {
    const manifest = extension().packageJSON as {
      contributes: { commands: Array<{ command: string }>; views: Record<string, Array<{ id: string }>> };
    };
    const declared = manifest.contributes.commands.map((c) => c.command).sort();
    // VS Code itself adds `<view id>.focus`, `.open`, … for every contributed view: not ours.
    const viewIds = Object.values(manifest.contributes.views)
      .flat()
      .map((v) => `${v.id}.`);
    const registered = (await vscode.commands.getCommands(true))
      .filter((c) => c.startsWith('engagementUsage.') && !viewIds.some((prefix) => c.startsWith(prefix)))
      .sort();
    const missing = declared.filter((c) => !registered.includes(c));
    const extra = registered.filter((c) => !declared.includes(c));
    assert.deepEqual(
      { missing, extra },
      { missing: [], extra: [] },
      'declared in package.json but not registered (missing), or registered but not declared (extra)',
    );
  });
});
