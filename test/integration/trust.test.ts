// Trust boundaries inside the real extension host (issue 14): the test seams exist in Test
// mode; an environment a workspace defines is marked everywhere, asks for its own key showing
// where it goes, and never gets the user's key, not even with an id that collides under the
// 32-bit scheme this replaced (the test finds such a URL), nor when a key bound to another
// origin sits under its very id; keys of earlier builds keep working for the user's own.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionExports } from '../../src/testing/exports';
import { startService, type RunningService } from '../service/server';
import { findLegacyCollision, legacySettingsEnvironmentId } from '../fnvCollision';

/** The origin a key for this base URL is bound to. */
const originOf = (baseUrl: string) => new URL(baseUrl).origin;
import {
  EXTENSION_ID,
  createAnswers,
  defineEnvironment,
  pickByLabel,
  requestsBeforeMarker,
  runCommand,
  suiteContext,
  tempFolder,
  useEnvironment,
  waitFor,
} from './support/helpers';
import { openDashboard, expectExported } from './support/dashboard';
import { findSecrets, keyFreeZones, refreshRefusedWith, searchForKeys, secretsOf } from './support/reliabilityKit';

describe('Trust boundaries', function () {
  this.timeout(60_000);
  const ctx = suiteContext();
  let foreign: RunningService;
  const envs = () => ctx.exports.environments!;
  const config = () => vscode.workspace.getConfiguration('engagementUsage');
  /** Requests the foreign service received carrying any Authorization header. */
  const keysReceived = () => foreign.requests.filter((r) => r.authorization !== undefined);

  before(async () => {
    foreign = await startService({ port: 0 });
  });
  afterEach(async () => {
    await config().update('environments', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('defaultEnvironment', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('environments', undefined, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await foreign.close();
  });

  it('the test seams (useUi, the client) exist in Test mode, as the integration suite runs the extension', () => {
    const ext = vscode.extensions.getExtension<ExtensionExports>(EXTENSION_ID);
    assert.ok(ext?.isActive);
    assert.equal(typeof ext.exports?.useUi, 'function');
    assert.equal(typeof ext.exports?.environments?.api, 'function');
  });

  it('a workspace "Production" whose old 32-bit id collides with the user\'s own gets no key: it is marked and asks for its own', async () => {
    const own = ctx.service.baseUrl;
    const started = Date.now();
    const colliding = findLegacyCollision('Production', own, `${foreign.url}/`);
    assert.ok(colliding, 'a URL colliding under the old id scheme was found');
    console.log(`      (colliding URL found in ${Date.now() - started} ms: ${colliding})`);
    assert.equal(legacySettingsEnvironmentId('Production', colliding), legacySettingsEnvironmentId('Production', own));

    // An upgrade: the user's settings define Production; an earlier build stored its key under the old id.
    const mine = await defineEnvironment(
      ctx,
      { label: 'Production', baseUrl: own },
      vscode.ConfigurationTarget.Global,
      (e) => e.source === 'settings',
    );
    await envs().storeKeyAsEarlierBuild(legacySettingsEnvironmentId('Production', own), ctx.service.keys.admin);
    // The repository's settings define a Production of their own, at the colliding URL.
    const theirs = await defineEnvironment(
      ctx,
      { label: 'Production', baseUrl: colliding },
      vscode.ConfigurationTarget.Workspace,
      (e) => e.source === 'workspace',
    );
    assert.deepEqual(
      envs()
        .list()
        .map((e) => [e.label, e.source]),
      [
        ['Production', 'settings'],
        ['Production', 'workspace'],
      ],
      "both listed; nothing replaced the user's own",
    );
    assert.notEqual(theirs.id, mine.id);

    // The user's own works with the key of the earlier build, now bound to its origin.
    ctx.ui.answer(pickByLabel('Production (your settings)'));
    await runCommand('switchEnvironment');
    assert.equal(envs().active()?.id, mine.id);
    ctx.service.clearRequests();
    await envs().api()!.engagements.list({ pageSize: 3 });
    assert.deepEqual(
      ctx.service.requests.filter((r) => r.query.pageSize === '3').map((r) => r.keyId),
      ['key_admin'],
    );
    assert.equal(await envs().keyOrigin(mine.id), originOf(own));
    await waitFor(
      () => envs().statusBarText().includes('Production (your settings)'),
      'the status bar names the source of a shared label',
    );

    // Switching to the workspace's: the key step says the workspace defines it and where the key goes.
    foreign.clearRequests();
    ctx.ui.answer(pickByLabel('Production (workspace)'), undefined);
    await runCommand('switchEnvironment');
    const pick = ctx.ui.prompts.at(-2)!;
    assert.ok(
      pick.items?.includes('Production (workspace)') && pick.items.includes('Production (your settings)'),
      `switcher: ${pick.items?.join(', ')}`,
    );
    const keyStep = ctx.ui.prompts.at(-1)!;
    assert.equal(keyStep.password, true);
    assert.match(keyStep.title, /defined by this workspace/);
    assert.equal(envs().active()?.id, theirs.id);
    await waitFor(
      () => envs().statusBarText().includes('$(folder) Production (workspace)'),
      'the status bar marks the workspace environment',
    );
    await waitFor(
      () => (ctx.exports.engagements!.description() ?? '').includes(`Production (workspace) — ${foreign.url}`),
      'the view names the workspace environment and its origin',
    );

    // Nothing reaches the colliding URL with a key, whatever asks.
    await assert.rejects(envs().api()!.engagements.list(), /No API key/);
    await runCommand('refreshEngagements');
    // The refresh has settled: a request it sent would be in the log ahead of the test's marker.
    await requestsBeforeMarker(foreign, 'the refresh');
    assert.deepEqual(keysReceived(), [], 'the colliding URL received no key');
  });

  it('the key step of a workspace environment shows its origin in full before a key is typed', async () => {
    const url = `${foreign.url}/team/v1`;
    const env = await defineEnvironment(ctx, { label: 'Shared', baseUrl: url }, vscode.ConfigurationTarget.Workspace);
    ctx.ui.answer(undefined);
    await runCommand('replaceKey', env.id);
    const step = ctx.ui.prompts.at(-1)!;
    assert.match(step.title, /Shared, defined by this workspace/);
    assert.ok(
      step.prompt?.includes(`the key will be sent to ${foreign.url} (${url})`),
      `the prompt names the origin and the URL: ${step.prompt}`,
    );
    assert.match(step.prompt ?? '', /This workspace's settings \(\.vscode\/settings\.json\) define "Shared"/);
    assert.equal(step.password, true);
  });

  it('a key bound to another origin is refused whatever the id it is stored under', async () => {
    const env = await defineEnvironment(ctx, { label: 'Elsewhere', baseUrl: foreign.baseUrl });
    // As if an id collided outright: the entry under this id holds a key entered for another origin.
    await envs().storeKeyAsEarlierBuild(
      env.id,
      JSON.stringify({ v: 2, origin: originOf(ctx.service.baseUrl), key: ctx.service.keys.admin }),
    );
    await waitFor(
      async () => (await envs().keyOrigin(env.id)) === originOf(ctx.service.baseUrl),
      'the vault to see the entry',
    );
    ctx.ui.answer(pickByLabel('Elsewhere'), undefined);
    await runCommand('switchEnvironment');
    assert.equal(envs().active()?.id, env.id);
    foreign.clearRequests();
    await assert.rejects(envs().api()!.engagements.list(), /No API key/);
    assert.deepEqual(keysReceived(), [], 'the key was not sent to the other origin');
    assert.ok(envs().statusBarText().includes('$(key)'), 'the status bar says the key is missing here');
  });

  it("a key an earlier build stored for the user's own environment keeps working, bound to its origin", async () => {
    ctx.ui.answer('Own', ctx.service.baseUrl, ctx.service.keys.writer);
    await runCommand('addEnvironment');
    const env = envs().active()!;
    assert.equal(await envs().keyOrigin(env.id), originOf(ctx.service.baseUrl), 'a new key is stored with its origin');
    await envs().storeKeyAsEarlierBuild(env.id, ctx.service.keys.writer);
    await waitFor(
      async () => (await envs().keyOrigin(env.id)) === undefined,
      'the vault to see the entry of the earlier build',
    );
    ctx.service.clearRequests();
    await envs().api()!.engagements.list({ pageSize: 4 });
    assert.deepEqual(
      ctx.service.requests.filter((r) => r.query.pageSize === '4').map((r) => r.keyId),
      ['key_writer'],
    );
    assert.equal(await envs().keyOrigin(env.id), originOf(ctx.service.baseUrl), 'bound on first use');
  });

  it("an earlier build's key under a workspace environment's old id is not used: the key is asked for", async () => {
    const env = await defineEnvironment(
      ctx,
      { label: 'Repo', baseUrl: foreign.baseUrl },
      vscode.ConfigurationTarget.Workspace,
    );
    await envs().storeKeyAsEarlierBuild(legacySettingsEnvironmentId('Repo', foreign.baseUrl), ctx.service.keys.admin);
    ctx.ui.answer(pickByLabel('Repo (workspace)'), undefined);
    await runCommand('switchEnvironment');
    assert.equal(envs().active()?.id, env.id);
    assert.match(ctx.ui.prompts.at(-1)!.title, /defined by this workspace/, 'the key step is shown');
    foreign.clearRequests();
    await assert.rejects(envs().api()!.engagements.list(), /No API key/);
    assert.deepEqual(keysReceived(), []);
  });
});

describe('Trust boundaries: what the dashboard webview can make the host do', function () {
  this.timeout(60_000);
  const ctx = suiteContext();
  const tmp = tempFolder('eus-webview-');

  it("no message opens a URI, runs a command of its choosing or writes a file without the user's own dialog", async () => {
    ctx.ui.answer('Board', ctx.service.baseUrl, ctx.service.keys.admin);
    await runCommand('addEnvironment');
    const probe = await openDashboard(ctx);
    const options = probe.webviewOptions();
    assert.notEqual(options.enableCommandUris, true, 'command: links in the webview do nothing');

    const target = path.join(tmp, 'chosen-by-the-webview.csv');
    const before = probe.rejectedMessages();
    const hostile: unknown[] = [
      { type: 'openExternal', uri: 'https://evil.example/' },
      { type: 'open', uri: vscode.Uri.file(target).toString() },
      { type: 'command', command: 'vscode.open', args: ['https://evil.example/'] },
      { type: 'command', command: 'workbench.action.terminal.sendSequence' },
      { type: 'command', command: 'signOutAll' },
      { type: 'writeFile', path: target, text: 'x' },
    ];
    for (const message of hostile) await probe.receive(message);
    assert.equal(probe.rejectedMessages() - before, hostile.length, 'each dropped');

    // An export names no file: the user's save dialog does; dismissed, nothing is written.
    const saves = ctx.ui.messages.length;
    ctx.ui.onSave(undefined);
    await probe.receive({ type: 'export', format: 'csv', uri: vscode.Uri.file(target).toString(), path: target });
    await probe.idle();
    assert.equal(fs.existsSync(target), false, 'no file written without the dialog');
    assert.equal(ctx.ui.messages.length, saves, 'and nothing claimed');

    // The commands it may ask for are the extension's own, each asking the user: Replace Key opens the key box.
    const prompts = ctx.ui.prompts.length;
    ctx.ui.answer(undefined);
    await probe.receive({ type: 'command', command: 'replaceKey' });
    await waitFor(() => ctx.ui.prompts.length > prompts, 'the key input box');
    assert.equal(ctx.ui.prompts.at(-1)?.password, true, "the user's own key box, which they dismissed");
    assert.equal(
      await ctx.exports.environments!.keyLocation(ctx.exports.environments!.active()!.id),
      'secretStorage',
      'the key is unchanged',
    );
  });
});

describe('Trust boundaries: a key the service echoes escaped appears nowhere', function () {
  this.timeout(90_000);
  const ctx = suiteContext();
  const tmp = tempFolder('eus-escaped-');
  const eng = () => ctx.exports.engagements!;

  it("JSON \\u escapes, percent-encoding and a mix, in the tree's message, a notification, the dashboard, the log, an export", async () => {
    const { admin } = ctx.service.keys;
    const u = (s: string) => Array.from(s, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const percent = Array.from(admin, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    const mixed = `${admin.slice(0, 8)}${u(admin.slice(8, 16))}${admin.slice(16)}`;
    const body = (text: string) =>
      `{"error":{"message":"Key ${text} is malformed","fields":{"key":"${text}","name":"${text}"}}}`;
    assert.equal(
      findSecrets({ sample: body(u(admin)) + body(percent) + body(mixed) }, secretsOf(admin)).length,
      2,
      'the search finds a key in each escaped form',
    );

    await useEnvironment(ctx, admin, 'Escaped');
    await eng().tree();
    await refreshRefusedWith(ctx, { rawBody: body(u(admin)) });
    assert.match(
      eng().message() ?? '',
      /Key \[redacted\] is malformed/,
      "the view's message says what the service said, without the key",
    );

    for (const text of [percent, mixed]) {
      // The service refuses the name: the name step opens again with its words, the key redacted (dismissed here).
      ctx.service.faults.add({ method: 'POST', kind: 'status', status: 422, rawBody: body(text), times: 1 });
      ctx.ui.answer(...createAnswers('Leak'), undefined);
      await runCommand('createEngagement');
      // The other field it refused ("key") is said after it.
      assert.match(
        ctx.ui.prompts.at(-1)?.initialError ?? '',
        /^The service refused this name: \[redacted\] \(also: key: \[redacted\]\)$/,
      );
    }
    // A notification with the service's words: a 500 whose page quotes the key, escaped.
    ctx.service.faults.add({ method: 'POST', kind: 'status', status: 500, rawBody: body(mixed), times: 1 });
    ctx.ui.answer(...createAnswers('Leak'));
    ctx.ui.onMessages(undefined);
    await runCommand('createEngagement');
    const notifications = ctx.ui.messages.filter((m) => m.level === 'error');
    assert.equal(notifications.length, 1);
    for (const m of notifications) assert.match(m.text, /\[redacted\]/, m.text);

    ctx.service.faults.add({ method: 'GET', path: '/usage', kind: 'status', status: 500, rawBody: body(mixed) });
    const probe = await openDashboard(ctx);
    assert.equal(probe.state().summary.status, 'error');
    ctx.service.faults.clear();

    const file = path.join(tmp, 'usage.csv');
    ctx.ui.onSave(vscode.Uri.file(file));
    expectExported(ctx, file);
    await probe.receive({ type: 'export', format: 'csv' });
    await probe.idle();
    await waitFor(() => probe.state().export?.phase === 'done', 'the export');
    const logDir = path.dirname(ctx.exports.environments!.logUri().fsPath);
    await waitFor(() => {
      const dir = path.join(logDir, 'eus-tools.engagement-usage');
      return (
        fs.existsSync(dir) &&
        fs.readdirSync(dir).some((f) => fs.readFileSync(path.join(dir, f), 'utf8').includes('/usage/summary'))
      );
    }, 'the failures in the log file');

    const zones = { ...(await keyFreeZones(ctx, [probe])), 'exported file': fs.readFileSync(file, 'utf8') };
    assert.deepEqual(searchForKeys(zones, secretsOf(admin)), [], 'no key, in any form, outside SecretStorage');
  });
});
