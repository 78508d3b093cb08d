// The extension's client over HTTPS, in plain Node, against the reference service presenting
// each test certificate (made by openssl at test time: scripts/vscode/tls.mjs). With the
// private CA trusted it reads and writes; each broken certificate fails in the handshake,
// before any request (so before the key) reaches the service, with the code Node gives.
// Trust is a fetch over undici's Agent with `connect.ca`, as VS Code's own fetch passes its CAs.
import assert from 'node:assert/strict';
import { Agent } from 'undici';
import { ServiceApi } from '../../src/api/service';
import { type CertificateName, makeCertificates, type TestCertificates } from '../../scripts/vscode/tls.mjs';
import { startService, type RunningService } from '../service/server';
import { rejectsWith } from './support/apiErrors';
import { fetchThrough } from './support/clients';
import { done } from './support/writes';

/** A fetch that trusts `ca` (and only it), as undici's Agent does with `connect.ca`. */
function fetchTrusting(ca: string): typeof globalThis.fetch {
  return fetchThrough(new Agent({ connect: { ca } }));
}

describe('HTTPS with a private CA (unit)', function () {
  this.timeout(20_000);
  let certificates: TestCertificates;
  const running: RunningService[] = [];

  before(() => {
    certificates = makeCertificates();
  });
  after(async () => {
    await Promise.all(running.map((s) => s.close()));
  });

  async function serve(name: CertificateName): Promise<RunningService> {
    const { key, cert } = certificates.served[name];
    const service = await startService({ tls: { key, cert } });
    running.push(service);
    return service;
  }

  const client = (service: RunningService, trust: 'ca' | 'none' = 'ca') =>
    new ServiceApi({
      baseUrl: service.baseUrl,
      getKey: () => service.keys.admin,
      timeoutMs: 5000,
      backoffLimitMs: 20,
      ...(trust === 'ca' ? { fetch: fetchTrusting(certificates.ca.cert) } : {}),
    });

  it('reads, creates and reads back over https://127.0.0.1 with the CA trusted', async () => {
    const service = await serve('good');
    assert.match(service.baseUrl, /^https:\/\/127\.0\.0\.1:\d+\/v1$/);
    const api = client(service);
    const page = await api.engagements.list({ pageSize: 5 });
    assert.equal(page.data.length, 5);
    const created = done(await api.engagements.create({ name: 'Over TLS', type: 'evaluation' }));
    assert.equal((await api.engagements.get(created.engagement.id)).name, 'Over TLS');
    assert.deepEqual(
      service.requests.map((r) => `${r.method} ${r.keyId ?? '-'}`),
      ['GET key_admin', 'POST key_admin', 'GET key_admin'],
    );
    assert.ok(service.connections.tls >= 1, 'the requests came over TLS');
  });

  it('listens on 127.0.0.2 too (the address VS Code sends through a proxy), named in the certificate', async () => {
    const { key, cert } = certificates.served.good;
    const service = await startService({ tls: { key, cert }, host: '127.0.0.2' });
    running.push(service);
    assert.match(service.baseUrl, /^https:\/\/127\.0\.0\.2:\d+\/v1$/);
    assert.equal((await client(service).engagements.list({ pageSize: 1 })).data.length, 1);
  });

  // What Node says for each certificate, the private CA trusted (the last: not trusted).
  const broken: Array<{ name: CertificateName; trust?: 'none'; code: string; what: string }> = [
    { name: 'expired', code: 'CERT_HAS_EXPIRED', what: 'an expired certificate' },
    { name: 'wrongHost', code: 'ERR_TLS_CERT_ALTNAME_INVALID', what: 'a certificate for another host name' },
    { name: 'selfSigned', code: 'DEPTH_ZERO_SELF_SIGNED_CERT', what: 'a self-signed certificate' },
    {
      name: 'untrusted',
      code: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
      what: 'a certificate of an untrusted CA, sent with its intermediate',
    },
    {
      name: 'untrustedRoot',
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
      what: 'a certificate of an untrusted CA, sent with its intermediate and root',
    },
    {
      name: 'good',
      trust: 'none',
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      what: 'the private CA not trusted (Node’s own CA list only)',
    },
  ];
  for (const { name, trust, code, what } of broken) {
    it(`${what}: a read and a create fail with ${code}; no request reaches the service`, async () => {
      const service = await serve(name);
      const api = client(service, trust);
      const before = service.store.engagements.length;
      const read = await rejectsWith(api.engagements.list(), 'network');
      assert.equal(read.detail, code);
      assert.equal((read.cause as { code?: string }).code, code);
      const write = await rejectsWith(api.engagements.create({ name: 'Never sent', type: 'evaluation' }), 'network');
      assert.equal(write.detail, code);
      assert.deepEqual(service.requests, [], 'no request (and so no key) reached the service');
      assert.equal(service.store.engagements.length, before, 'nothing was created');
      assert.ok(service.connections.tcp >= 2, 'the client did connect: the handshake is what failed');
      assert.equal(service.connections.tls, 0, 'no handshake completed');
    });
  }
});
