// The network the user configured, for the MCP server outside VS Code (issue 47): the built
// dist/mcp-server.mjs, driven by the SDK's client, reaching the reference service over HTTPS
// with a private CA (made by openssl at test time) through a real proxy (tinyproxy) named by
// HTTPS_PROXY; NO_PROXY; a proxy asking for credentials; the CA trusted by NODE_EXTRA_CA_CERTS,
// `~` in it; and the failures said in environment variables, not VS Code's settings. Then how
// NO_PROXY is read and which authorities are trusted, on the Node versions' different tls APIs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bypassed, planNetwork, proxyFor, type TlsApi } from '../../src/mcp/network';
import { Tools } from '../../src/tools/definitions';
import { type RunningProxy, startProxy } from '../../scripts/vscode/proxy.mjs';
import { call, connect, type Session } from './support/mcpClient';
import { useReferenceService } from './support/referenceService';

describe('The MCP server through a proxy and with a private CA (unit)', function () {
  this.timeout(30_000);
  // On 127.0.0.2, named in its certificate, as the proxy suites serve it.
  const reference = useReferenceService({ https: true, host: '127.0.0.2' });
  const service = reference.service;
  const sessions: Session[] = [];
  const proxies: RunningProxy[] = [];

  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.close()));
    await Promise.all(proxies.splice(0).map((p) => p.stop()));
  });

  async function proxy(options?: Parameters<typeof startProxy>[0]): Promise<RunningProxy> {
    const started = await startProxy(options);
    proxies.push(started);
    return started;
  }
  async function open(env: Record<string, string>): Promise<Session> {
    const session = await connect({
      EUS_BASE_URL: service.baseUrl,
      EUS_API_KEY: service.keys.admin,
      EUS_ENVIRONMENT: 'Corp',
      // The system store holds no test CA: only what each test names is trusted.
      EUS_SYSTEM_CA: '0',
      ...env,
    });
    sessions.push(session);
    return session;
  }
  const target = () => new URL(service.baseUrl).host;
  const secret = () => service.keys.admin.slice(service.keys.admin.indexOf('.') + 1);

  it('HTTPS_PROXY: the proxy tunnels the server’s requests, the CA of NODE_EXTRA_CA_CERTS is trusted', async () => {
    const tinyproxy = await proxy();
    const session = await open({ HTTPS_PROXY: tinyproxy.url, NODE_EXTRA_CA_CERTS: reference.certificates.ca.certFile });
    const found = await call(session, Tools.findEngagements, { limit: 2 });
    assert.equal(found.isError, false, found.text);
    assert.match(found.text, /^Environment: “Corp”\./);
    assert.ok(tinyproxy.connects().length >= 1, 'the proxy saw the server’s tunnel');
    assert.ok(
      tinyproxy.connects().every((c) => c === target()),
      'every tunnel is to the service',
    );
    assert.ok(service.requests.length >= 1 && service.requests.every((r) => r.keyId === 'key_admin'));
    assert.ok(!tinyproxy.log().includes(secret()), 'the proxy log holds no key');
    assert.match(session.stderr(), new RegExp(`through the proxy ${tinyproxy.url} \\(HTTPS_PROXY\\)`));
  });

  it('lower-case https_proxy too; NO_PROXY naming the host: straight to the service, the proxy sees nothing', async () => {
    const tinyproxy = await proxy();
    const lower = await open({ https_proxy: tinyproxy.url, NODE_EXTRA_CA_CERTS: reference.certificates.ca.certFile });
    assert.equal((await call(lower, Tools.usage)).isError, false);
    const tunnels = tinyproxy.connects().length;
    assert.ok(tunnels >= 1, 'https_proxy is read');

    const bypassing = await open({
      HTTPS_PROXY: tinyproxy.url,
      NO_PROXY: 'example.com,127.0.0.2',
      NODE_EXTRA_CA_CERTS: reference.certificates.ca.certFile,
    });
    const found = await call(bypassing, Tools.findEngagements, { limit: 1 });
    assert.equal(found.isError, false, found.text);
    assert.equal(tinyproxy.connects().length, tunnels, 'no tunnel for a host NO_PROXY names');
    assert.doesNotMatch(bypassing.stderr(), /through the proxy/);
  });

  it('a proxy asking for credentials: the answer names HTTPS_PROXY, not a VS Code setting; with them in the URL it works', async () => {
    const tinyproxy = await proxy({ auth: { user: 'eus', password: 'proxy-secret' } });
    const ca = reference.certificates.ca.certFile;
    const refused = await call(await open({ HTTPS_PROXY: tinyproxy.url, NODE_EXTRA_CA_CERTS: ca }), Tools.usage);
    assert.equal(refused.isError, true);
    assert.match(refused.text, /The proxy asks for credentials .*\(proxy 407\)\. Put them in HTTPS_PROXY/);
    assert.doesNotMatch(refused.text, /http\.proxy|setting/);
    assert.deepEqual(service.requests, [], 'nothing reached the service');

    const withCredentials = `http://eus:proxy-secret@127.0.0.1:${tinyproxy.port}`;
    const session = await open({ HTTPS_PROXY: withCredentials, NODE_EXTRA_CA_CERTS: ca });
    assert.equal((await call(session, Tools.findEngagements, { limit: 1 })).isError, false);
    assert.ok(!session.stderr().includes('proxy-secret'), 'the proxy’s password is not written');
  });

  it('a proxy that is down: the answer says to check HTTPS_PROXY', async () => {
    const tinyproxy = await proxy();
    await tinyproxy.stop();
    const session = await open({ HTTPS_PROXY: tinyproxy.url, NODE_EXTRA_CA_CERTS: reference.certificates.ca.certFile });
    const failed = await call(session, Tools.usage);
    assert.equal(failed.isError, true);
    assert.match(failed.text, /The proxy at 127\.0\.0\.1:\d+ cannot be reached \(ECONNREFUSED\)\. Check HTTPS_PROXY/);
  });

  it('the private CA not trusted: the answer says to set NODE_EXTRA_CA_CERTS; trusted from ~/…, it answers', async () => {
    const untrusted = await call(await open({}), Tools.findEngagements);
    assert.equal(untrusted.isError, true);
    assert.match(untrusted.text, /issued by an authority this machine does not trust .*set NODE_EXTRA_CA_CERTS/);
    assert.doesNotMatch(untrusted.text, /http\.systemCertificates|VS Code/);

    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'eus-home-'));
    try {
      fs.copyFileSync(reference.certificates.ca.certFile, path.join(home, 'corp-ca.pem'));
      const session = await open({ HOME: home, NODE_EXTRA_CA_CERTS: '~/corp-ca.pem' });
      const found = await call(session, Tools.findEngagements, { limit: 1 });
      assert.equal(found.isError, false, found.text);
      assert.match(session.stderr(), new RegExp(`trusting the certificates in ${home}/corp-ca\\.pem`));
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('How the MCP server reads the proxy variables and picks the authorities it trusts (unit)', () => {
  const url = (u: string) => new URL(u);

  it('HTTPS_PROXY for https, HTTP_PROXY for http, lower case first; a bare host:port is http://', () => {
    const env = { HTTPS_PROXY: 'proxy.corp:3128', HTTP_PROXY: 'http://plain:8080', https_proxy: '' };
    assert.deepEqual(proxyFor(url('https://api.example.com/v1'), env), {
      url: 'http://proxy.corp:3128',
      variable: 'HTTPS_PROXY',
    });
    assert.deepEqual(proxyFor(url('http://localhost:8080/v1'), env), {
      url: 'http://plain:8080',
      variable: 'HTTP_PROXY',
    });
    assert.equal(
      proxyFor(url('https://api.example.com/v1'), { https_proxy: 'http://low:1', HTTPS_PROXY: 'http://up:2' })?.url,
      'http://low:1',
    );
    assert.equal(proxyFor(url('https://api.example.com/v1'), { HTTP_PROXY: 'http://plain:8080' }), undefined);
  });

  it('NO_PROXY: *, a domain and its subdomains, a leading dot or *., an IP, a port', () => {
    const cases: Array<[string, string, boolean]> = [
      ['https://api.example.com/v1', '*', true],
      ['https://api.example.com/v1', 'example.com', true],
      ['https://api.example.com/v1', '.example.com', true],
      ['https://api.example.com/v1', '*.example.com', true],
      ['https://api.example.com/v1', 'other.com, EXAMPLE.COM', true],
      ['https://notexample.com/v1', 'example.com', false],
      ['https://api.example.com/v1', 'example.com:8443', false],
      ['https://api.example.com:8443/v1', 'example.com:8443', true],
      ['https://10.0.0.5/v1', '10.0.0.5', true],
      ['https://10.0.0.5/v1', '10.0.0.6', false],
      ['https://[::1]:9000/v1', '::1', true],
      ['https://[::1]:9000/v1', '[::1]:9000', true],
      ['https://[::1]:9000/v1', '[::1]:9001', false],
      ['https://api.example.com/v1', '', false],
    ];
    for (const [address, noProxy, expected] of cases)
      assert.equal(bypassed(url(address), noProxy), expected, `${address} with NO_PROXY=${noProxy}`);
  });

  const ROOTS = ['-----ROOT A-----', '-----ROOT B-----'];
  const SYSTEM = ['-----SYSTEM C-----'];

  it('Node 20 (no getCACertificates): Node’s default is left alone, nothing to add', () => {
    const plan = planNetwork('https://api.example.com/v1', {}, { rootCertificates: ROOTS });
    assert.deepEqual(plan, { proxy: undefined, notes: [] });
  });

  it('Node 22.15+: the system store is added, through setDefaultCACertificates where it exists (22.19+)', () => {
    const set: string[][] = [];
    const modern: TlsApi = {
      rootCertificates: ROOTS,
      getCACertificates: (type) => (type === 'system' ? SYSTEM : ROOTS),
      setDefaultCACertificates: (list) => set.push(list),
    };
    assert.equal(planNetwork('https://api.example.com/v1', {}, modern).ca, undefined, 'Node’s default holds them');
    assert.deepEqual(set, [[...ROOTS, ...SYSTEM]]);

    const between: TlsApi = { rootCertificates: ROOTS, getCACertificates: modern.getCACertificates };
    assert.deepEqual(planNetwork('https://api.example.com/v1', {}, between).ca, [...ROOTS, ...SYSTEM]);

    assert.deepEqual(
      planNetwork('https://api.example.com/v1', { EUS_SYSTEM_CA: '0' }, between),
      { proxy: undefined, notes: [] },
      'EUS_SYSTEM_CA=0 leaves the system store out',
    );
  });
});
