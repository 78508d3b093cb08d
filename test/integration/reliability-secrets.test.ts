// The API key never leaves SecretStorage: after flows that fail in every way, with a service
// that even echoes the key back in its error bodies, HTML pages and redirect addresses, the
// key (and its secret part) is searched for in the settings of every scope, the mementos, the
// log files, every message and input box shown, the tree, the status bar, and the webview's
// HTML, messages and state. Also: the unhandled-error watch itself is shown to work.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openDashboard } from './support/dashboard';
import { createAnswers, pickByLabel, runCommand, setSetting, useEnvironment, waitFor } from './support/helpers';
import {
  figures,
  findSecrets,
  keyFreeZones,
  refreshRefusedWith,
  reliabilitySuite,
  searchForKeys,
  secretsOf,
} from './support/reliabilityKit';

describe('Reliability: the API key stays in SecretStorage', function () {
  this.timeout(90_000);
  // A test turns the status bar on: it is removed after the suite.
  const { ctx, seen, eng } = reliabilitySuite({ 'usage.statusBar': undefined });

  it('the watch on unhandled errors sees a deliberate unhandled rejection (a zero means something)', async () => {
    const before = seen.errors.length;
    const rejected = Promise.reject(new Error('deliberate rejection'));
    await waitFor(() => seen.errors.length > before, 'the watch to see it', 5_000);
    await rejected.catch(() => undefined);
    const caught = seen.errors.splice(before);
    assert.deepEqual(caught, ['unhandled rejection: Error: deliberate rejection'], 'seen once');
  });

  it('after failing flows, with the service echoing the key back, no key is found anywhere outside SecretStorage', async () => {
    const { admin, writer } = ctx.service.keys;
    await useEnvironment(ctx, admin, 'Secret A');
    ctx.ui.answer('Secret B', ctx.service.baseUrl, writer);
    await runCommand('addEnvironment');
    ctx.ui.answer(pickByLabel('Secret A'));
    await runCommand('switchEnvironment');
    assert.equal(ctx.exports.environments?.active()?.label, 'Secret A');
    const echo = `Key ${admin} is malformed (Authorization: Bearer ${admin}); secret part ${admin.split('.')[1]}`;

    // The tree: a 400 echoing the key, then a redirect whose address carries it.
    await eng().tree();
    await refreshRefusedWith(ctx, { body: { error: { message: echo, fields: { key: echo } } } });
    assert.match(eng().message() ?? '', /refused/);
    ctx.service.faults.add({
      method: 'GET',
      path: '/engagements',
      kind: 'redirect',
      location: `http://127.0.0.1:9/steal?key=${admin}`,
      times: 1,
    });
    await runCommand('refreshEngagements');
    assert.match(
      eng().message() ?? '',
      /redirected GET \/engagements\?page=1&pageSize=25 to http:\/\/127\.0\.0\.1:9\/steal\?key=\[redacted\]\. The key was not sent there/,
    );

    // A create refused with the key in its field errors: the name step opens again with the
    // service's words, the key redacted; then one that fails with a 500 page.
    ctx.service.faults.add({
      method: 'POST',
      kind: 'status',
      status: 422,
      body: { error: { message: echo, fields: { name: echo } } },
      times: 1,
    });
    ctx.ui.answer(...createAnswers('Leak 0'), undefined);
    await runCommand('createEngagement');
    assert.match(
      ctx.ui.prompts.at(-1)?.initialError ?? '',
      /^The service refused this name: Key \[redacted\] is malformed/,
    );
    ctx.service.faults.add({ method: 'POST', kind: 'html', status: 500, headers: { 'X-Debug': admin }, times: 1 });
    ctx.ui.answer(...createAnswers('Leak 1'));
    ctx.ui.onMessages(undefined);
    await runCommand('createEngagement');
    assert.equal(ctx.ui.messages.filter((m) => m.level === 'error').length, 1);

    // The dashboard and the status bar: every usage endpoint answers with the key in its body.
    await setSetting('usage.statusBar', true);
    await waitFor(async () => {
      await ctx.exports.usage!.refreshStatusBar();
      return ctx.exports.usage!.statusBar().visible;
    }, 'the status bar item');
    ctx.service.faults.add({
      method: 'GET',
      path: '/usage',
      kind: 'status',
      status: 500,
      body: { error: { message: echo } },
    });
    await ctx.exports.usage!.refreshStatusBar();
    assert.match(ctx.exports.usage!.statusBar().tooltip, /Could not refresh/);
    const probe = await openDashboard(ctx);
    assert.equal(probe.state().summary.status, 'error');
    ctx.service.faults.clear();
    await probe.receive({ type: 'refresh' });
    await probe.idle();

    // The service received the keys: the search below would find them if they were written anywhere.
    const sent = { 'what the service received': JSON.stringify(ctx.service.requests.map((r) => r.authorization)) };
    assert.equal(
      findSecrets(sent, secretsOf(admin, writer)).length,
      4,
      'the search finds both keys and their secret parts where they are',
    );
    // The log is written to disk asynchronously: wait for the last failure to be there.
    const environments = ctx.exports.environments;
    assert.ok(environments);
    const logDir = path.dirname(environments.logUri().fsPath);
    await waitFor(() => {
      const logs = fs
        .readdirSync(path.join(logDir, 'eus-tools.engagement-usage'))
        .map((f) => fs.readFileSync(path.join(logDir, 'eus-tools.engagement-usage', f), 'utf8'))
        .join('\n');
      return logs.includes('HTTP 422') && logs.includes('/usage/summary');
    }, 'the failures in the log file');

    const zones = await keyFreeZones(ctx, [probe]);
    const found = searchForKeys(zones, secretsOf(admin, writer));
    assert.deepEqual(found, [], 'no key outside SecretStorage');
    assert.ok(Object.keys(zones).length >= 10, `places searched: ${Object.keys(zones).join(', ')}`);
    assert.ok(
      zones['input boxes and picks'].includes('[redacted]') && zones['messages shown'].includes('HTTP 500'),
      'the messages and prompts were read',
    );
    figures().faultsTried += 6;
  });
});
