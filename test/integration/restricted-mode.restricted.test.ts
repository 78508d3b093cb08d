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

  // Every setting that changes what the extension does or where it sends anything: the folder
  // sets each (scripts/run-integration.mjs) and VS Code must not apply it (restrictedConfigurations).
  const FOLDER_SETTINGS: Array<[string, unknown, string]> = [
    ['requestTimeoutSeconds', 30, 'a 1 s timeout would fail every slow read'],
    ['engagements.pageSize', 25, 'pages of one engagement would cost a request each'],
    ['engagements.staleAfterSeconds', 300, 'a saved list would never be shown'],
    ['engagements.wholeSetLimit', 20_000, 'one engagement would stop sorting and grouping'],
    ['usage.statusBar', true, 'the usage item would be hidden'],
    ['usage.statusBarRefreshMinutes', 15, 'usage would be read every minute'],
    ['usage.alertThresholds', [80, 100], 'a threshold of 1000 % would silence the overage alert'],
  ];
  for (const [name, expected, why] of FOLDER_SETTINGS) {
    it(`the folder's ${name} is not applied (${why})`, () => {
      const file = JSON.parse(
        fs.readFileSync(
          path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json'),
          'utf8',
        ),
      ) as Record<string, unknown>;
      assert.notDeepEqual(file[`engagementUsage.${name}`], undefined, 'the folder sets it');
      assert.notDeepEqual(file[`engagementUsage.${name}`], expected, 'to another value than the default');
      assert.deepEqual(section().get(name), expected, 'the default applies');
      assert.equal(section().inspect(name)?.workspaceValue, undefined, 'not even as the workspace value');
    });
  }

  it("the folder cannot hide the usage status bar: the user's environment shows its calls", async () => {
    await ctx.exports.usage!.refreshStatusBar();
    const bar = await waitFor(
      () => (ctx.exports.usage!.statusBar().visible ? ctx.exports.usage!.statusBar() : undefined),
      'the usage status bar',
    );
    assert.match(bar.text, /calls \d/);
  });

  it('the folder cannot turn off the alerts the user turned on: they show', async () => {
    // The seeded calls are at 82 % of the included amount: that alert shows. Projections past
    // the included amount show too, one per meter, as many as the day of the month makes.
    ctx.ui.expectMessage(/^Mine: .*(reached \d+% of the included amount|is projected to pass its included amount)/, {
      repeat: true,
    });
    await section().update('usage.alerts', true, vscode.ConfigurationTarget.Global);
    try {
      assert.equal(section().get('usage.alerts'), true, "the user's choice, not the folder's false");
      assert.equal(section().inspect('usage.alerts')?.workspaceValue, undefined);
      await waitFor(
        () => ctx.ui.messages.find((m) => /^Mine: API calls reached 82% of the included amount/.test(m.text)),
        'the calls alert, which the folder’s thresholds (1000 %) would not give',
      );
    } finally {
      await section().update('usage.alerts', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('the folder does not change the Engagements view: the first page has the default size', async () => {
    await ctx.exports.engagements!.settled();
    assert.equal(ctx.exports.engagements!.loaded().length, 25, 'pages of 25, not of 1');
  });
});
