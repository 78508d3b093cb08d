import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { BACK, pickByLabel, runCommand, suiteContext, useEnvironment, waitFor } from './support/helpers';

describe('Environments and API keys', function () {
  this.timeout(30_000);
  const ctx = suiteContext({ afresh: true });

  const envs = () => ctx.exports.environments!;

  it('adds an environment through label → URL → key, checks the key, and makes it active', async () => {
    ctx.ui.answer('Staging', ctx.service.baseUrl, ctx.service.keys.admin);
    await runCommand('addEnvironment');
    const steps = ctx.ui.prompts.map((p) => `${p.step}/${p.totalSteps}${p.password ? ' password' : ''}`);
    assert.deepEqual(steps, ['1/3', '2/3', '3/3 password']);
    const env = envs().active();
    assert.equal(env?.label, 'Staging');
    assert.equal(env?.baseUrl, ctx.service.baseUrl);
    assert.equal(await envs().keyLocation(env.id), 'secretStorage');
    // The key was checked with the service before saving.
    assert.ok(ctx.service.requests.some((r) => r.authorization === `Bearer ${ctx.service.keys.admin}`));
    assert.deepEqual(envs().capabilities(env.id), { read: true, usage: true });
    await waitFor(() => envs().statusBarText().includes('Staging'), 'the status bar to show Staging');
    assert.equal(envs().contextKeys()['engagementUsage.hasEnvironment'], true);
  });

  it('a rejected key is said so in the key input, with label and URL kept', async () => {
    ctx.ui.answer('Sandbox', ctx.service.baseUrl, 'key_admin.not-the-secret', ctx.service.keys.admin);
    await runCommand('addEnvironment');
    const titles = ctx.ui.prompts.map((p) => p.step);
    assert.deepEqual(titles, [1, 2, 3, 3], 'only the key is asked again');
    const again = ctx.ui.prompts[3];
    assert.match(again.initialError ?? '', /rejected this key \(401\)/);
    assert.equal(again.value, '', 'the rejected key is not kept');
    assert.equal(envs().active()?.label, 'Sandbox');
    assert.equal(envs().list().length, 1);
  });

  it('Back returns to the previous step with the answer kept; bad URLs are explained', async () => {
    ctx.ui.answer(
      'Prod',
      (prompt) => {
        assert.equal(prompt.step, 2);
        return BACK;
      },
      (prompt) => {
        assert.equal(prompt.step, 1);
        assert.equal(prompt.value, 'Prod', 'the label is kept');
        return 'Production';
      },
      'http://api.example.com/v1',
      'https://api.example.com/api',
      ctx.service.baseUrl,
      ctx.service.keys.readOnly,
    );
    await runCommand('addEnvironment');
    const urlStep = ctx.ui.prompts.find((p) => p.step === 2 && p.rejected.length > 0);
    assert.ok(urlStep, 'the URL step rejected answers');
    assert.match(urlStep.rejected[0], /https/);
    assert.match(urlStep.rejected[1], /\/v1/);
    const env = envs().active();
    assert.equal(env?.label, 'Production');
    assert.equal(env?.production, true, 'a label saying production marks it');
    await waitFor(
      () => envs().statusBarText().includes('$(warning) Production'),
      'the production environment to stand out',
    );
  });

  it('an unreachable service offers to save anyway', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    ctx.ui
      .answer('Offline', `http://127.0.0.1:${port}/v1`, 'key_x.y')
      .onMessages((m) => m.actions.find((a) => a === 'Save Anyway'));
    await runCommand('addEnvironment');
    const warning = ctx.ui.messages.find((m) => m.modal);
    assert.match(warning?.text ?? '', /Could not reach the service/);
    assert.deepEqual(warning?.actions, ['Retry', 'Save Anyway']);
    assert.equal(envs().active()?.label, 'Offline');
    assert.equal(await envs().keyLocation(envs().active()!.id), 'secretStorage');
  });

  it('switching environments changes the key the client sends', async () => {
    ctx.ui.answer('One', ctx.service.baseUrl, ctx.service.keys.admin);
    await runCommand('addEnvironment');
    ctx.ui.answer('Two', ctx.service.baseUrl, ctx.service.keys.writer);
    await runCommand('addEnvironment');
    assert.equal(envs().active()?.label, 'Two');
    // The views and the status bar make requests of their own; the test's carry a marker.
    const mine = () => ctx.service.requests.filter((r) => r.query.pageSize === '7').map((r) => r.keyId);
    await envs().api()!.engagements.list({ pageSize: 7 });
    ctx.ui.answer(pickByLabel('One'));
    await runCommand('switchEnvironment');
    assert.equal(envs().active()?.label, 'One');
    await envs().api()!.engagements.list({ pageSize: 7 });
    assert.deepEqual(mine(), ['key_writer', 'key_admin']);
  });

  it('replacing a key takes effect at once; removing deletes the secret', async () => {
    const id = await useEnvironment(ctx, ctx.service.keys.readOnly);
    ctx.ui.answer(ctx.service.keys.admin);
    await runCommand('replaceKey', id);
    ctx.service.clearRequests();
    await envs().api()!.engagements.list({ pageSize: 7 });
    assert.deepEqual(
      ctx.service.requests.filter((r) => r.query.pageSize === '7').map((r) => r.keyId),
      ['key_admin'],
    );
    assert.equal(
      envs()
        .list()
        .find((e) => e.id === id)?.source,
      'settings',
    );

    ctx.ui.answer('Mine', ctx.service.baseUrl, ctx.service.keys.admin);
    await runCommand('addEnvironment');
    const mine = envs().active()!;
    ctx.ui.onMessages((m) => (m.modal ? 'Remove' : undefined));
    await runCommand('removeEnvironment', mine.id);
    assert.equal(await envs().keyLocation(mine.id), 'none');
    assert.ok(
      !envs()
        .list()
        .some((e) => e.id === mine.id),
    );
  });

  it('sign out of all deletes every key but keeps the environments', async () => {
    const id = await useEnvironment(ctx, ctx.service.keys.admin);
    ctx.ui.onMessages('Sign Out');
    await runCommand('signOutAll');
    assert.equal(await envs().keyLocation(id), 'none');
    assert.ok(
      envs()
        .list()
        .some((e) => e.id === id),
    );
    await waitFor(() => envs().statusBarText().includes('$(key)'), 'the status bar to show the key is missing');
  });

  it('context keys follow what the key may do', async () => {
    const id = await useEnvironment(ctx, ctx.service.keys.readOnly);
    assert.deepEqual(envs().capabilities(id), { read: true, usage: true });
    await assert.rejects(envs().api()!.engagements.create({ name: 'x', type: 'y' }), /403/);
    await waitFor(
      () => envs().contextKeys()['engagementUsage.canWrite'] === false,
      'canWrite to turn false after a 403',
    );
    assert.equal(envs().contextKeys()['engagementUsage.canRead'], true);

    ctx.ui.answer(ctx.service.keys.noUsage);
    await runCommand('replaceKey', id);
    await waitFor(() => envs().contextKeys()['engagementUsage.canReadUsage'] === false, 'canReadUsage to turn false');
    assert.equal(envs().contextKeys()['engagementUsage.canWrite'], true, 'write is learned afresh for a new key');
    await envs().api()!.engagements.create({ name: 'Allowed now', type: 'onboarding' });
    assert.equal(envs().capabilities(id).write, true);
  });

  it('keeps nothing key-like in settings or mementos', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin);
    ctx.ui.answer('Second', ctx.service.baseUrl, ctx.service.keys.writer);
    await runCommand('addEnvironment');
    const settings = JSON.stringify(vscode.workspace.getConfiguration('engagementUsage'));
    const inspected = JSON.stringify(vscode.workspace.getConfiguration().inspect('engagementUsage'));
    const mementos = JSON.stringify(envs().mementos());
    for (const secret of [ctx.service.keys.admin, ctx.service.keys.writer, 'demo-admin', 'demo-writer']) {
      assert.ok(!settings.includes(secret), 'not in settings');
      assert.ok(!inspected.includes(secret), 'not in inspected settings');
      assert.ok(!mementos.includes(secret), 'not in mementos');
    }
    assert.ok(mementos.includes('Second'), 'the mementos were read');
  });
});
