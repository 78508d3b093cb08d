// Hostile and odd input from the user: empty and whitespace names, very long input, invalid
// base URLs, billing periods and pages; each is refused with a message and nothing is sent.
// A base URL that redirects to another host: the redirect is never followed, and a second
// loopback server (another port, recording every request) proves the key never reaches it.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Answer, createAnswers, pickByLabel, runCommand, useEnvironment } from './support/helpers';
import { openDashboard } from './support/dashboard';
import { reliabilitySuite } from './support/reliabilityKit';

interface Elsewhere {
  url: string;
  seen: Array<{ method?: string; url?: string; authorization?: string }>;
  close(): Promise<void>;
}

/** Another origin on loopback that records whatever reaches it. */
async function startElsewhere(): Promise<Elsewhere> {
  const seen: Elsewhere['seen'] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"data":[],"page":1,"pageSize":25,"totalCount":0}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A free-entry pick answered with `text` (or dismissed), after checking what its validation says of each of `refused`. */
function freeEntry(text: string | undefined, refused: string[], expected: RegExp): Answer {
  return (_prompt, step) => {
    assert.ok('freeEntry' in step && step.freeEntry?.validate, 'the pick takes free entry');
    for (const bad of refused)
      assert.match(step.freeEntry.validate(bad) ?? '', expected, `"${bad.slice(0, 20)}" is refused`);
    return text === undefined ? undefined : step.freeEntry.value(text);
  };
}

describe('Reliability: hostile and odd input from the user', function () {
  this.timeout(60_000);
  const { ctx, eng, inputs } = reliabilitySuite({ 'usage.statusBar': false });
  let elsewhere: Elsewhere;
  const long = (n: number, c = 'x') => c.repeat(n);

  before(async () => {
    elsewhere = await startElsewhere();
  });
  after(async () => {
    await elsewhere.close();
  });
  beforeEach(() => {
    ctx.service.reset();
    ctx.ui.messages.length = 0;
    ctx.ui.prompts.length = 0;
  });
  afterEach(() => {
    assert.equal(ctx.ui.pending, 0, 'every scripted answer was used');
    assert.deepEqual(elsewhere.seen, [], 'nothing ever reached the other origin');
  });

  it('Add Environment refuses empty, blank, long and duplicate labels, bad URLs and keys; nothing is sent', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Existing');
    ctx.service.clearRequests();
    ctx.ui.prompts.length = 0;
    const labels = ['', '   ', long(61), 'existing'];
    const urls = [
      '',
      'not a url',
      'ftp://example.com/v1',
      'http://api.example.com/v1',
      'https://api.example.com/api',
      'https://user:pw@api.example.com/v1',
      'https://api.example.com/v1?x=1',
      'https://api.example.com/v1#top',
      `https://api.example.com/${long(10_000)}`,
    ];
    const keys = ['', '   ', 'key with spaces'];
    ctx.ui.answer(...labels, 'New one', ...urls, ctx.service.baseUrl, ...keys, undefined);
    await runCommand('addEnvironment');
    const [label, url, key] = ctx.ui.prompts;
    assert.deepEqual(label.rejected, [
      'Enter a label.',
      'Enter a label.',
      'Keep the label under 60 characters.',
      'An environment with this label exists already.',
    ]);
    assert.equal(url.rejected.length, urls.length);
    for (const [i, pattern] of [
      /Enter the base URL/,
      /not a URL/,
      /must start with https/,
      /Use https/,
      /must end in the version segment \/v1/,
      /credentials/,
      /query/,
      /fragment/,
      /must end in the version segment \/v1/,
    ].entries())
      assert.match(url.rejected[i], pattern);
    assert.deepEqual(key.rejected, [
      'Enter the API key.',
      'Enter the API key.',
      'An API key has no spaces; check what was pasted.',
    ]);
    assert.equal(ctx.service.requests.length, 0, 'nothing was sent');
    assert.deepEqual(
      ctx.exports.environments?.list().map((e) => e.label),
      ['Existing'],
      'nothing was saved',
    );
    inputs(labels.length + urls.length + keys.length);
  });

  it('Create and Rename refuse empty and blank names, types and statuses; long text is the service’s to judge, and its refusal keeps the input', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Input');
    await eng().tree();
    ctx.service.clearRequests();
    ctx.ui.prompts.length = 0;
    const names = ['', '   '];
    ctx.ui.answer(...names, long(10_000), freeEntry('onboarding', ['', '   '], /Enter a type/), long(2_001), undefined);
    await runCommand('createEngagement');
    const [name, , description, confirm] = ctx.ui.prompts;
    assert.deepEqual(
      name.rejected,
      names.map(() => 'Enter a name.'),
    );
    assert.deepEqual(description.rejected, [], 'no length limit the contract does not state');
    assert.equal(confirm.kind, 'pick', 'dismissed at the confirmation');

    // The service refuses a name: its message shows in the name box, with what was typed.
    ctx.service.faults.add({
      method: 'POST',
      kind: 'status',
      status: 422,
      body: { error: { message: 'name is too long', fields: { name: 'name must have at most 120 characters' } } },
      times: 1,
    });
    ctx.ui.answer(long(500), freeEntry('onboarding', [], /./), 'kept', pickByLabel('Create'), (prompt) => {
      assert.equal(prompt.initialError, 'The service refused this name: name must have at most 120 characters');
      assert.equal(prompt.value, long(500), 'the typed name is kept');
      return undefined;
    });
    await runCommand('createEngagement');
    assert.equal(ctx.service.requests.filter((r) => r.method === 'POST').length, 1, 'sent once, not retried');

    const target = eng().loaded()[0];
    ctx.service.clearRequests();
    ctx.ui.answer('', '\t \n', undefined);
    await runCommand('renameEngagement', target.id);
    assert.equal(ctx.ui.prompts.at(-1)?.rejected.length, 2);
    ctx.ui.answer(freeEntry(undefined, ['', '  '], /Enter a status/));
    await runCommand('changeEngagementStatus', target.id);
    assert.equal(ctx.service.requests.length, 0, 'nothing was sent');
    inputs(names.length + 2 + 1 + 2 + 2);
  });

  it('a status the service refuses: its reason said whole beside the list, which asks again with what was typed', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Refused status');
    await eng().tree();
    const target = eng().loaded()[0];
    const reason = "Input should be 'active', 'completed', 'archived' or 'draft'";
    ctx.service.faults.add({
      method: 'PATCH',
      kind: 'status',
      status: 422,
      body: { error: { message: 'invalid status', fields: { status: reason } } },
      times: 1,
    });
    ctx.service.clearRequests();
    ctx.ui.answer(freeEntry('done', [], /./), (_prompt, step) => {
      assert.ok('items' in step, 'the list of statuses again');
      assert.equal(step.activeValue, 'done', 'the typed status kept');
      // The grey line says where the reason is; it is not squeezed in there.
      assert.equal(
        step.placeholder,
        'The service refused this status (its reason is in the notification): choose another',
      );
      return undefined;
    });
    ctx.ui.expectMessage(`The service refused this status: ${reason}`, { level: 'warning' });
    await runCommand('changeEngagementStatus', target.id);
    const said = ctx.ui.messages.filter((m) => m.text.includes(reason));
    assert.deepEqual(
      said.map((m) => [m.level, m.text]),
      [['warning', `The service refused this status: ${reason}`]],
    );
    assert.equal(ctx.service.requests.filter((r) => r.method === 'PATCH').length, 1, 'sent once');
    inputs(1);
  });

  it('a 10,000-character name filter and odd webview messages: nothing sent, nothing breaks', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Odd');
    await eng().tree();
    ctx.service.clearRequests();
    ctx.ui.answer(pickByLabel('Name Contains'), long(10_000, '<'));
    await runCommand('filterEngagements');
    assert.deepEqual(
      (await eng().tree()).filter((i) => i.kind === 'engagement'),
      [],
      'no engagement matches',
    );
    assert.match(eng().description() ?? '', /name: "<</);
    await runCommand('clearEngagementFilter');

    const probe = await openDashboard(ctx);
    ctx.service.clearRequests();
    const rejectedBefore = probe.rejectedMessages();
    const odd: unknown[] = [
      { type: 'setPeriod', period: '2026-13' },
      { type: 'setPeriod', period: 'abc' },
      { type: 'setPeriod', period: '' },
      { type: 'setPeriod', period: '<script>' },
      { type: 'setPeriod', period: 202601 },
      { type: 'setPage', page: 0 },
      { type: 'setPage', page: -1 },
      { type: 'setPage', page: 1.5 },
      { type: 'setPage', page: '2' },
      { type: 'setPage', page: 1e9 },
      { type: 'setPageSize', pageSize: 0 },
      { type: 'setPageSize', pageSize: 101 },
      { type: 'sort', column: '__proto__', direction: 'asc' },
      { type: 'export', format: 'exe' },
      { type: 'command', command: 'workbench.action.terminal.new' },
      null,
      'ready',
      [],
      { type: 'constructor' },
    ];
    for (const message of odd) await probe.receive(message);
    assert.equal(probe.rejectedMessages() - rejectedBefore, odd.length, 'every one was dropped');
    const future = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 1)).toISOString().slice(0, 7);
    await probe.receive({ type: 'setPeriod', period: future });
    assert.match(probe.state().notice?.text ?? '', /has not started yet/);
    assert.equal(ctx.service.requests.length, 0, 'nothing was sent');
    assert.deepEqual(probe.webviewErrors(), []);
    probe.close();
    inputs(odd.length + 2);
  });

  it('a base URL that redirects elsewhere: the key check says so and asks for the address again', async () => {
    ctx.service.faults.add({ kind: 'redirect', location: `${elsewhere.url}/v1/engagements` });
    const key = ctx.service.keys.admin;
    ctx.ui.answer(
      'Redirected',
      ctx.service.baseUrl,
      key,
      (prompt) => {
        assert.equal(prompt.step, 2, 'back at the URL step');
        assert.match(
          prompt.initialError ?? '',
          new RegExp(
            `redirected GET /\\S+ to ${elsewhere.url.replace(/[.]/g, '\\.')}/v1/engagements\\. The key was not sent there.*Enter the final address`,
          ),
        );
        ctx.service.faults.clear();
        return ctx.service.baseUrl;
      },
      (prompt) => {
        assert.ok(prompt.password);
        assert.equal(prompt.value, key, 'the key is kept: Enter, not typed again');
        return prompt.value;
      },
    );
    await runCommand('addEnvironment');
    assert.equal(ctx.exports.environments?.active()?.label, 'Redirected');
    assert.equal(await ctx.exports.environments?.keyLocation(ctx.exports.environments.active()!.id), 'secretStorage');
    inputs(1);
  });

  it('Replace Key where the base URL redirects elsewhere: said as the URL’s problem, never in the key box', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Moved away');
    const env = ctx.exports.environments!.active()!;
    ctx.service.faults.add({ kind: 'redirect', location: `${elsewhere.url}/v1/engagements` });
    try {
      const before = ctx.ui.prompts.length;
      ctx.ui.answer(ctx.service.keys.readOnly).onMessages(undefined);
      await runCommand('replaceKey', env.id);
      const key = ctx.ui.prompts.slice(before).filter((p) => p.password);
      assert.equal(key.length, 1, 'the key box is not asked again');
      assert.equal(key[0].initialError, undefined);
      const said = ctx.ui.messages.at(-1);
      assert.equal(said?.text, `The key was not saved: the base URL of ${env.label} (${env.baseUrl}) has to change.`);
      assert.match(said?.detail ?? '', /The key was not sent there.*Add the environment again with that address/);
      assert.deepEqual(said?.actions, ['Add Environment']);
      assert.equal(said?.modal, true);
    } finally {
      ctx.service.faults.clear();
    }
    assert.equal(
      await ctx.exports.environments?.keyLocation(env.id),
      'secretStorage',
      'the environment still has its key',
    );
    inputs(1);
  });

  it('a redirect within the service (its own address again) is followed through VS Code’s fetch: the view lists', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Redirect within');
    await eng().tree();
    const before = ctx.service.requests.length;
    ctx.service.faults.add({ method: 'GET', kind: 'redirect', status: 307, times: 1 });
    await runCommand('refreshEngagements');
    assert.equal(eng().message(), undefined, 'no error in the view');
    assert.ok(eng().loaded().length > 0, 'the engagements are listed');
    assert.ok(ctx.service.requests.length > before, 'the redirect was followed to the service itself');
  });

  for (const status of [301, 302, 307, 308]) {
    it(`a ${status} redirect to another host on a GET, a POST, a PATCH and a usage read: refused, key not sent`, async () => {
      await useEnvironment(ctx, ctx.service.keys.admin, `Redirect ${status}`);
      await eng().tree();
      ctx.service.faults.add({ kind: 'redirect', status, location: `${elsewhere.url}/v1/stolen?from=${status}` });
      // What was asked and the whole address it was sent to are said.
      const said = new RegExp(
        `redirected (GET|POST|PATCH) /\\S+ to ${elsewhere.url.replace(/[.]/g, '\\.')}/v1/stolen\\S*\\. The key was not sent there`,
      );
      await runCommand('refreshEngagements');
      assert.match(eng().message() ?? '', said);
      ctx.ui.answer(...createAnswers('Via redirect'));
      ctx.ui.onMessages(undefined);
      await runCommand('createEngagement');
      assert.match(ctx.ui.messages.at(-1)?.text ?? '', said);
      const usage = await ctx.exports
        .environments!.api()!
        .usage.summary()
        .then(
          () => 'answered',
          (error: Error & { kind?: string }) => error.kind,
        );
      assert.equal(usage, 'redirected');
      assert.equal(ctx.service.requests.filter((r) => r.method === 'POST').length, 1, 'the POST was not sent again');
      // A PATCH (the read before it answers normally; the view shows what the service holds now).
      ctx.service.faults.clear();
      await runCommand('refreshEngagements');
      ctx.service.faults.add({ method: 'PATCH', kind: 'redirect', status, location: `${elsewhere.url}/v1/stolen` });
      ctx.ui.answer('Renamed via redirect');
      ctx.ui.onMessages(undefined);
      await runCommand('renameEngagement', eng().loaded()[0].id);
      assert.match(ctx.ui.messages.at(-1)?.text ?? '', said);
      assert.equal(ctx.service.requests.filter((r) => r.method === 'PATCH').length, 1, 'the PATCH was not sent again');
      inputs(4);
    });
  }
});
