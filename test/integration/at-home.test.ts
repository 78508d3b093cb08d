// Issue 17 in the real VS Code: where the extension runs (UI side allowed), the User-Agent of
// its requests, one meaning per status-bar colour, the tabs' icons per theme kind, and the
// Collapse All offered while the view is grouped.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as vscode from 'vscode';
import {
  EXTENSION_ID,
  clearEnvironments,
  pickByLabel,
  runCommand,
  suiteContext,
  useEnvironment,
  waitFor,
} from './support/helpers';
import { serveCalls } from './support/dashboard';

describe('At home in VS Code', function () {
  this.timeout(60_000);
  const ctx = suiteContext({ afresh: true });

  it('the running extension declares the UI side first, then the workspace side', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext?.isActive, 'the extension is active');
    assert.deepEqual((ext.packageJSON as { extensionKind?: string[] }).extensionKind, ['ui', 'workspace']);
  });

  it('every request carries a User-Agent naming the extension and its version', async () => {
    const version = (vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { version: string }).version;
    const expected = `${EXTENSION_ID}/${version} (VS Code ${vscode.version})`;
    await useEnvironment(ctx, ctx.service.keys.admin, 'Demo');
    await ctx.exports.engagements?.tree();
    await ctx.exports.usage?.refreshStatusBar();
    const requests = ctx.service.requests.filter((r) => r.keyId !== undefined);
    assert.ok(
      requests.some((r) => r.path.startsWith('/v1/engagements')) &&
        requests.some((r) => r.path.startsWith('/v1/usage')),
      'engagements and usage were read',
    );
    assert.deepEqual([...new Set(requests.map((r) => r.userAgent))], [expected]);
  });

  it('status bar: red means production, yellow means calls at 80 % or more; never the same colour for both', async () => {
    const envs = () => ctx.exports.environments!;
    const usage = () => ctx.exports.usage!;
    serveCalls(ctx, { used: 85_000, included: 100_000, overage: 0 });

    await useEnvironment(ctx, ctx.service.keys.admin, 'Staging');
    await usage().refreshStatusBar();
    await waitFor(() => /calls 85%$/.test(usage().statusBar().text), 'calls 85 % in the status bar');
    assert.equal(envs().statusBarBackground(), undefined, 'an environment that is not production has no colour');
    assert.equal(usage().statusBar().background, 'statusBarItem.warningBackground', '85 % is yellow');

    await clearEnvironments(ctx.exports, ctx.ui);
    ctx.ui.answer('Production', ctx.service.baseUrl, ctx.service.keys.admin);
    await runCommand('addEnvironment');
    assert.equal(envs().active()?.production, true, 'a label saying production marks it');
    await waitFor(() => envs().statusBarText().includes('Production'), 'the production environment in the status bar');
    await usage().refreshStatusBar();
    await waitFor(() => /calls 85%$/.test(usage().statusBar().text), 'calls 85 % for production');
    assert.equal(envs().statusBarBackground(), 'statusBarItem.errorBackground', 'production is red');
    assert.equal(usage().statusBar().background, 'statusBarItem.warningBackground', 'the usage warning stays yellow');

    serveCalls(ctx, { used: 112_000, included: 100_000, overage: 12_000 });
    await usage().refreshStatusBar();
    assert.match(usage().statusBar().text, /calls 112%$/);
    assert.equal(usage().statusBar().level, 'error');
    assert.equal(
      usage().statusBar().background,
      'statusBarItem.warningBackground',
      'over the included amount is still the usage colour, not production red',
    );

    serveCalls(ctx, { used: 10_000, included: 100_000, overage: 0 });
    await usage().refreshStatusBar();
    assert.equal(usage().statusBar().background, undefined, '10 % has no colour');
  });

  it('the dashboard tab has an icon for light themes and one for dark themes', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Demo');
    await runCommand('openUsageDashboard');
    const probe = await waitFor(() => ctx.exports.usage?.dashboard(), 'the dashboard panel');
    const icon = probe.iconPath() as { light: vscode.Uri; dark: vscode.Uri } | undefined;
    assert.ok(icon && 'light' in icon && 'dark' in icon, 'light and dark variants');
    const light = fs.readFileSync(icon.light.fsPath, 'utf8');
    const dark = fs.readFileSync(icon.dark.fsPath, 'utf8');
    assert.notEqual(light, dark);
    assert.match(light, /stroke="#424242"/, 'dark strokes on light themes');
    assert.match(dark, /stroke="#C5C5C5"/, 'light strokes on dark themes');
  });

  it('Collapse All is offered while the view is grouped, and collapses the groups', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Demo');
    await vscode.commands.executeCommand('engagementUsage.engagements.focus');
    const eng = () => ctx.exports.engagements!;
    await eng().tree();
    assert.equal(eng().contextValues()['engagementUsage.grouped'], false);
    ctx.ui.answer(pickByLabel('Group by Status'));
    await runCommand('groupEngagements');
    await waitFor(() => eng().contextValues()['engagementUsage.grouped'] === true, 'the grouped context key');
    const groups = await eng().tree();
    assert.ok(groups.length > 1 && groups.every((g) => g.children?.length));
    // The command is VS Code's own Collapse All of this tree: it runs without an error.
    await runCommand('collapseAll');
    ctx.ui.answer(pickByLabel('No Grouping'));
    await runCommand('groupEngagements');
    await waitFor(() => eng().contextValues()['engagementUsage.grouped'] === false, 'the grouped context key off');
  });
});
