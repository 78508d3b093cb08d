// A real proxy in front of the service, in the real VS Code: Debian's tinyproxy, set as
// VS Code's `http.proxy` at run time as a user sets it (VS Code's fetch reads it at each
// request). VS Code never sends 127.0.0.1 or localhost through a proxy (@vscode/proxy-agent's
// resolver answers DIRECT for them), so the service listens on 127.0.0.2 with the private CA's
// certificate (trusted as in https-ca.test.ts). A wire tap between VS Code and tinyproxy keeps
// every byte the proxy receives: all the proxy could read. Then http.noProxy, a proxy asking
// for credentials (407) and a proxy that is down. Each failure is printed as the extension got
// it (`[network] …`).
import assert from 'node:assert/strict';
import { type RunningProxy, startProxy } from '../../scripts/vscode/proxy.mjs';
import type { RunningService } from '../service/server';
import { type TestContext, clearEnvironments, defineEnvironment, runCommand, setup, teardown } from './support/helpers';
import {
  addWhereNothingIsSent,
  type WireTap,
  clearForms,
  fetchFailure,
  recordConnections,
  recordFailure,
  sequentialReads,
  setHttp,
  startHttpsService,
  startWireTap,
  walkThrough,
} from './support/network';

describe('HTTPS through a real proxy (tinyproxy)', function () {
  this.timeout(60_000);
  const ctx = {} as TestContext;
  let service: RunningService;
  let proxy: RunningProxy;
  let tap: WireTap;
  const stops: Array<() => Promise<void>> = [];

  before(async () => {
    Object.assign(ctx, await setup());
    await ctx.service.close();
    service = ctx.service = await startHttpsService('good', { host: '127.0.0.2' });
    proxy = await startProxy();
    stops.push(() => proxy.stop());
    tap = await startWireTap(proxy.port);
    stops.push(() => tap.close());
    // VS Code's defaults: the run's CA is in the system store code-server sees (the runner puts it there).
  });
  after(async () => {
    for (const name of ['proxy', 'noProxy', 'proxyAuthorization']) await setHttp(name, undefined);
    await teardown(ctx.service ? ctx : undefined);
    for (const stop of stops.reverse()) await stop();
  });
  beforeEach(async () => {
    service.reset();
    ctx.ui.prompts.length = 0;
    ctx.ui.messages.length = 0;
    await setHttp('proxy', tap.url);
  });
  afterEach(async () => {
    for (const dashboard of ctx.exports.usage?.dashboards() ?? []) dashboard.close();
    await setHttp('noProxy', undefined);
    await clearEnvironments(ctx.exports, ctx.ui);
  });

  /** Where the service is, as a CONNECT names it. */
  const target = () => new URL(service.url).host;

  it('every request goes through the proxy as a CONNECT tunnel: Add Environment → key check → tree → create → dashboard; the proxy never sees the key', async () => {
    assert.match(service.baseUrl, /^https:\/\/127\.0\.0\.2:\d+\/v1$/);
    const tunnelsBefore = proxy.connects().length;
    await walkThrough(ctx, 'Behind a proxy');
    const reads = await sequentialReads(ctx, 5);
    const tunnels = proxy.connects().slice(tunnelsBefore);
    assert.ok(tunnels.length > 0, 'the proxy tunnelled');
    assert.deepEqual([...new Set(tunnels)], [target()], 'every tunnel went to the service');
    assert.equal(service.connections.tcp, tunnels.length, 'every connection the service got came through the proxy');

    const seen = tap.sent();
    assert.ok(seen.includes(`CONNECT ${target()} HTTP/1.1`), 'the proxy was asked for tunnels');
    assert.ok(seen.includes('\x16\x03'), 'TLS records went through the tunnels');
    for (const form of clearForms(service.keys.admin))
      assert.ok(!seen.includes(form), 'nothing the proxy received holds the key');
    assert.ok(!proxy.log().includes(service.keys.admin.split('.')[1]), 'nor does its log');
    recordConnections('HTTPS through tinyproxy, VS Code defaults', service, reads, {
      tunnels: tunnels.length,
    });
  });

  it('http.noProxy: a host listed there is reached directly, the proxy asked for nothing', async () => {
    const env = await defineEnvironment(ctx, { label: 'Direct', baseUrl: service.baseUrl });
    await setHttp('noProxy', ['127.0.0.2']);
    const tunnels = proxy.connects().length;
    ctx.ui.answer(service.keys.admin);
    await runCommand('replaceKey', env.id);
    const reads = await sequentialReads(ctx, 3);
    assert.equal(reads.requests, 3, 'the service answered');
    assert.ok(
      service.requests.some((r) => r.keyId === 'key_admin' && r.path === '/v1/engagements'),
      'the key check and the reads arrived',
    );
    assert.equal(proxy.connects().length, tunnels, 'no CONNECT for a host in http.noProxy');
  });

  /**
   * Adding an environment through a proxy that fails: the key check says it could not reach
   * the service, nothing is saved, a read and a create are told in these words that nothing
   * was sent (`addWhereNothingIsSent`), the proxy opened nothing to the service.
   */
  async function addThroughFailingProxy(label: string, failure: string, words: RegExp) {
    await addWhereNothingIsSent(ctx, label, service.baseUrl, failure, words);
    assert.equal(service.connections.tcp, 0, 'the proxy opened nothing to the service');
    assert.deepEqual(service.requests, []);
  }

  it('a proxy that asks for credentials (407): the key check fails, nothing is saved, the service gets nothing', async () => {
    const guarded = await startProxy({ auth: { user: 'eus', password: 'proxy-pass' } });
    stops.push(() => guarded.stop());
    const guardedTap = await startWireTap(guarded.port);
    stops.push(() => guardedTap.close());
    await setHttp('proxy', guardedTap.url);

    await addThroughFailingProxy(
      'Guarded',
      'proxy answering 407',
      /The proxy asks for credentials before it connects to 127\.0\.0\.2:\d+ \(proxy 407\)\. Put them in the setting http\.proxy \(http:\/\/user:password@host:port\) or check http\.proxyAuthorization/,
    );
    assert.ok(guarded.connects().length > 0, 'the proxy was asked for a tunnel');
    for (const form of clearForms(service.keys.admin))
      assert.ok(!guardedTap.sent().includes(form), 'nothing the proxy received holds the key');

    // What VS Code does with the two places a user puts proxy credentials.
    await setHttp('proxyAuthorization', `Basic ${Buffer.from('eus:proxy-pass').toString('base64')}`);
    const withSetting = await attempt(ctx, 'Guarded, http.proxyAuthorization');
    await setHttp('proxyAuthorization', undefined);
    recordFailure(
      'proxy answering 407, http.proxyAuthorization set',
      withSetting ?? 'the read succeeded',
      [],
      await fetchFailure(`${service.baseUrl}/engagements`),
    );
    await setHttp('proxy', `http://eus:proxy-pass@127.0.0.1:${guardedTap.port}`);
    const inUrl = await attempt(ctx, 'Guarded, credentials in http.proxy');
    assert.equal(inUrl, undefined, 'credentials in the http.proxy URL are sent to the proxy: the read succeeds');
  });

  it('a proxy that refuses the tunnel (403): the key check says so, nothing is saved, the service gets nothing', async () => {
    const strict = await startProxy({ connectPorts: [443] });
    stops.push(() => strict.stop());
    await setHttp('proxy', strict.url);
    await addThroughFailingProxy(
      'Strict proxy',
      'proxy refusing the tunnel (403)',
      /The proxy refused to connect to 127\.0\.0\.2:\d+ \(proxy 403\)\. Check the settings http\.proxy and http\.noProxy/,
    );
    assert.ok(strict.connects().length > 0, 'the proxy was asked for a tunnel');
  });

  it('a proxy that is down: the key check fails, nothing is saved, the service gets nothing', async () => {
    const down = await startProxy();
    await down.stop();
    await setHttp('proxy', down.url);
    await addThroughFailingProxy(
      'Proxy down',
      'proxy down (closed port)',
      new RegExp(
        `The proxy at 127\\.0\\.0\\.1:${down.port} cannot be reached \\(ECONNREFUSED\\)\\. Check the setting http\\.proxy \\(or HTTPS_PROXY\\) and that the proxy is running\\.`,
      ),
    );
  });
});

/** A read through the current proxy settings by an environment whose key is saved without a check: the error, or undefined. */
async function attempt(ctx: TestContext, label: string): Promise<unknown> {
  const env = await defineEnvironment(ctx, { label, baseUrl: ctx.service.baseUrl });
  const save = (m: { modal: boolean; actions: string[] }) => m.modal && m.actions.includes('Save Anyway');
  ctx.ui.answer(ctx.service.keys.admin);
  ctx.ui.answerWhen(save, 'Save Anyway');
  await runCommand('replaceKey', env.id);
  ctx.ui.dropStanding(save);
  const error = await ctx.exports
    .environments!.api()!
    .engagements.list({ pageSize: 1 })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  await clearEnvironments(ctx.exports, ctx.ui);
  return error;
}
