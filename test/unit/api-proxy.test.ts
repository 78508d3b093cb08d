// The extension's client through a real proxy (tinyproxy, scripts/vscode/proxy.mjs), in
// plain Node: HTTPS is tunnelled with CONNECT (the proxy's log names the tunnel and never
// holds the key), a proxy asking for credentials answers 407 before anything is tunnelled,
// and a proxy that is down refuses the connection. The same proxy runs under the real VS Code
// in test/integration/https-proxy.test.ts; this is the fast check of the harness itself.
import assert from 'node:assert/strict';
import { ProxyAgent } from 'undici';
import { type RunningProxy, startProxy } from '../../scripts/vscode/proxy.mjs';
import { rejectsWith } from './support/apiErrors';
import { fetchThrough } from './support/clients';
import { closedPort } from './support/loopback';
import { useReferenceService } from './support/referenceService';

describe('A real proxy: tinyproxy (unit)', function () {
  this.timeout(30_000);
  const reference = useReferenceService({ https: true, host: '127.0.0.2' });
  const service = reference.service;
  const proxies: RunningProxy[] = [];

  after(async () => {
    await Promise.all(proxies.map((p) => p.stop()));
  });

  async function proxy(options?: Parameters<typeof startProxy>[0]): Promise<RunningProxy> {
    const started = await startProxy(options);
    proxies.push(started);
    return started;
  }

  /** A client whose fetch goes through `proxyUrl`, trusting the private CA for the service. */
  const through = (proxyUrl: string) => {
    const dispatcher = new ProxyAgent({ uri: proxyUrl, requestTls: { ca: reference.certificates.ca.cert } });
    return reference.api({ backoffLimitMs: 20, fetch: fetchThrough(dispatcher) });
  };

  it('tunnels HTTPS with CONNECT: the log names the service, never the key', async () => {
    const tinyproxy = await proxy();
    const api = through(tinyproxy.url);
    await api.engagements.list({ pageSize: 3 });
    await api.engagements.create({ name: 'Through the proxy', type: 'evaluation' });
    const target = new URL(service.url).host;
    assert.deepEqual(tinyproxy.connects(), [target, target], 'one tunnel per request, to the service');
    assert.deepEqual(
      service.requests.map((r) => `${r.method} ${r.keyId}`),
      ['GET key_admin', 'POST key_admin'],
    );
    const secret = service.keys.admin.slice(service.keys.admin.indexOf('.') + 1);
    assert.ok(!tinyproxy.log().includes(secret), 'the proxy log holds no key');
  });

  it('a proxy asking for credentials answers 407: nothing is tunnelled, no request reaches the service', async () => {
    const tinyproxy = await proxy({ auth: { user: 'eus', password: 'proxy-secret' } });
    // What the client makes of it (undici: a DOMException with code 0 whose cause says "Proxy
    // response (407) !== 200 when HTTP Tunneling") is for src/api to say; the kind is stable.
    await rejectsWith(through(tinyproxy.url).engagements.list(), 'network');
    assert.ok(tinyproxy.connects().length > 0, 'the client asked the proxy for a tunnel');
    assert.deepEqual(service.requests, []);
    assert.equal(service.connections.tcp, 0, 'the proxy opened no connection to the service');
    const ok = await through(`http://eus:proxy-secret@127.0.0.1:${tinyproxy.port}`).engagements.list({ pageSize: 1 });
    assert.equal(ok.data.length, 1, 'with the credentials, the same proxy tunnels');
  });

  it('a proxy that is down: the connection to it is refused', async () => {
    const error = await rejectsWith(through(`http://127.0.0.1:${await closedPort()}`).engagements.list(), 'network');
    assert.equal(error.detail, 'ECONNREFUSED');
    assert.deepEqual(service.requests, []);
  });

  it('stop() ends tinyproxy: its port refuses connections afterwards', async () => {
    const tinyproxy = await proxy();
    await tinyproxy.stop();
    const error = await rejectsWith(through(tinyproxy.url).engagements.list(), 'network');
    assert.equal(error.detail, 'ECONNREFUSED');
  });
});
