// The road users are on, in the real VS Code: the service at https://127.0.0.1:PORT/v1 with a
// certificate of a private CA, trusted the two ways VS Code honours for an extension's fetch:
// - the CA in the system's trusted certificates, with VS Code's defaults (`http.systemCertificates`
//   on), as a company's IT installs it: the runner starts code-server in a private mount
//   namespace whose /etc/ssl/certs/ca-certificates.crt holds the run's CA besides the machine's
//   (scripts/vscode/code-server.mjs), the machine's files untouched;
// - NODE_EXTRA_CA_CERTS in VS Code's environment, which its fetch honours only with
//   `http.systemCertificates` off (with it on, VS Code passes its own CA list, Node's bundled
//   roots and the system store, and Node's extra certificates are not among them).
// Then the broken certificates, a CA not trusted, a name that does not resolve and a closed
// port: each fails in the handshake or before, says what is wrong in words, and neither sends
// the key anywhere nor saves anything. The exact error is printed for each (`[network] …`).
import assert from 'node:assert/strict';
import type { CertificateName } from '../../scripts/vscode/tls.mjs';
import { OTHER_HOST } from '../../scripts/vscode/tls.mjs';
import type { RunningService } from '../service/server';
import { type TestContext, clearEnvironments, setup, teardown } from './support/helpers';
import { findSecrets, keyFreeZones, secretsOf } from './support/reliabilityKit';
import {
  addWhereNothingIsSent,
  recordConnections,
  runCertificates,
  sequentialReads,
  setHttp,
  startHttpsService,
  walkThrough,
} from './support/network';

/** The sentence for a certificate whose issuer this machine does not trust, with the code Node gave. */
function untrusted(code: string): RegExp {
  return new RegExp(
    `The certificate of 127\\.0\\.0\\.1:\\d+ is issued by an authority this machine does not trust \\(${code}\\)\\..*add that authority to the system's trusted certificates \\(or ask IT\\); VS Code uses them while the setting http\\.systemCertificates is on\\.`,
  );
}

describe('HTTPS with a private CA', function () {
  this.timeout(60_000);
  const ctx = {} as TestContext;
  let secure: RunningService;

  before(async () => {
    Object.assign(ctx, await setup());
    runCertificates();
    // The flows below talk to this service; the plain one setup() started is not used.
    await ctx.service.close();
    secure = ctx.service = await startHttpsService('good');
  });
  after(async () => {
    await setHttp('systemCertificates', undefined);
    await teardown(ctx.service ? ctx : undefined);
  });
  beforeEach(() => {
    ctx.service = secure;
    secure.reset();
    ctx.ui.prompts.length = 0;
    ctx.ui.messages.length = 0;
  });
  afterEach(async () => {
    for (const dashboard of ctx.exports.usage?.dashboards() ?? []) dashboard.close();
    ctx.service = secure;
    await clearEnvironments(ctx.exports, ctx.ui);
  });

  it('Add Environment → key check → tree → create → dashboard over https://127.0.0.1, the CA in the system store, VS Code defaults', async () => {
    assert.match(secure.baseUrl, /^https:\/\/127\.0\.0\.1:\d+\/v1$/);
    await walkThrough(ctx, 'Secure');
    const reads = await sequentialReads(ctx, 5);
    recordConnections('direct HTTPS, VS Code defaults', secure, reads);
    assert.ok(secure.connections.tls >= 1, 'the requests came over TLS');
    assert.ok(secure.connections.tls <= secure.requests.length, 'never more handshakes than requests');
  });

  it('the same with http.systemCertificates off and the CA in NODE_EXTRA_CA_CERTS', async () => {
    await setHttp('systemCertificates', false);
    try {
      await walkThrough(ctx, 'Secure, Node CAs');
      const reads = await sequentialReads(ctx, 5);
      recordConnections('direct HTTPS, http.systemCertificates off', secure, reads);
    } finally {
      await setHttp('systemCertificates', undefined);
    }
    assert.ok(secure.connections.tls >= 1, 'the requests came over TLS');
    assert.ok(secure.connections.tls <= secure.requests.length, 'never more handshakes than requests');
  });

  describe('certificates that must not be trusted', () => {
    const broken: Array<{ name: CertificateName; what: string; said: RegExp }> = [
      {
        name: 'expired',
        what: 'an expired certificate (signed by the trusted CA)',
        said: /The certificate of 127\.0\.0\.1:\d+ has expired or is not valid yet \(CERT_HAS_EXPIRED\)\. Check this machine's date and time/,
      },
      {
        name: 'wrongHost',
        what: `a certificate for ${OTHER_HOST} (signed by the trusted CA)`,
        said: /The certificate of 127\.0\.0\.1:\d+ is for another host name \(ERR_TLS_CERT_ALTNAME_INVALID\)\. Check the base URL of Refused/,
      },
      { name: 'selfSigned', what: 'a self-signed certificate', said: untrusted('DEPTH_ZERO_SELF_SIGNED_CERT') },
      {
        name: 'untrusted',
        what: 'a certificate of an untrusted CA, sent with its intermediate',
        said: untrusted('UNABLE_TO_GET_ISSUER_CERT_LOCALLY'),
      },
      {
        name: 'untrustedRoot',
        what: 'a certificate of an untrusted CA, sent with its intermediate and root',
        said: untrusted('SELF_SIGNED_CERT_IN_CHAIN'),
      },
    ];
    for (const { name, what, said } of broken) {
      it(`${what}: the key check fails in the handshake and says why; nothing is saved, created or sent`, async () => {
        const service = (ctx.service = await startHttpsService(name));
        try {
          await untrustedFlows(ctx, service, `certificate ${name}`, said);
        } finally {
          await service.close();
        }
      });
    }

    it('after these failures no key is anywhere outside SecretStorage (settings, state, logs, messages)', async () => {
      const zones = await keyFreeZones(ctx);
      assert.deepEqual(findSecrets(zones, secretsOf(ctx.service.keys.admin)), []);
    });
  });

  describe('no connection at all', () => {
    it('a host name that does not resolve: nothing is saved', async () => {
      const url = `https://${OTHER_HOST}:${new URL(secure.url).port}/v1`;
      await addWhereNothingIsSent(
        ctx,
        'Nowhere',
        url,
        'name not found',
        /The host name of engagements\.invalid:\d+ cannot be found \((?:ENOTFOUND|EAI_AGAIN)\)\. Check the base URL of Nowhere, and the network or VPN\./,
      );
      assert.equal(secure.requests.length, 0);
    });

    it('a closed port: nothing is saved', async () => {
      const closed = await startHttpsService('good');
      await closed.close();
      await addWhereNothingIsSent(
        ctx,
        'Closed',
        closed.baseUrl,
        'connection refused',
        /127\.0\.0\.1:\d+ refused the connection \(ECONNREFUSED\): nothing answers at that address\. Check the base URL of Closed/,
      );
    });
  });
});

/**
 * Against a service whose certificate the extension must refuse: Add Environment warns that
 * the service could not be reached (dismissed: nothing is saved), a read fails with kind
 * `network`, a create creates nothing; no request, so no key, reaches the service; the client
 * did connect (the handshake is what failed). Prints what the extension got.
 */
async function untrustedFlows(ctx: TestContext, service: RunningService, label: string, said: RegExp): Promise<void> {
  const count = service.store.engagements.length;
  await addWhereNothingIsSent(ctx, 'Refused', service.baseUrl, label, said);
  assert.equal(service.store.engagements.length, count, 'nothing was created');
  assert.deepEqual(service.requests, [], 'no request, so no key, reached the service');
  assert.ok(service.connections.tcp > 0, 'the extension did connect: the handshake is what failed');
  assert.equal(service.connections.tls, 0, 'no handshake completed');
}
