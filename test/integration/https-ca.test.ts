// The road users are on, in the real VS Code: the service at https://127.0.0.1:PORT/v1 with a
// certificate of a private CA. The runner trusts that CA for the VS Code process the way a
// user can without touching the machine's store: NODE_EXTRA_CA_CERTS in code-server's
// environment. VS Code's fetch honours it only with `http.systemCertificates` off (with it on,
// its fetch passes its own CA list, Node's bundled roots and the OS store, and Node's extra
// certificates are not among them), so the suite sets that as such a user does. Then the
// broken certificates, the CA not trusted, a name that does not resolve and a closed port:
// each fails in the handshake or before, without the key reaching anything and without
// saving anything. The exact error the extension got is printed for each (`[network] …`).
import assert from 'node:assert/strict';
import type { CertificateName } from '../../scripts/vscode/tls.mjs';
import { OTHER_HOST } from '../../scripts/vscode/tls.mjs';
import type { RunningService } from '../service/server';
import { type TestContext, clearEnvironments, setup, teardown } from './support/helpers';
import { findSecrets, keyFreeZones, secretsOf } from './support/reliabilityKit';
import {
  addEnvironment,
  failureAt,
  recordConnections,
  recordFailure,
  runCertificates,
  sequentialReads,
  setHttp,
  startHttpsService,
  walkThrough,
} from './support/network';

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
    await setHttp('systemCertificates', false);
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

  it('Add Environment → key check → tree → create → dashboard over https://127.0.0.1 with the CA trusted', async () => {
    assert.match(secure.baseUrl, /^https:\/\/127\.0\.0\.1:\d+\/v1$/);
    await walkThrough(ctx, 'Secure');
    const reads = await sequentialReads(ctx, 5);
    recordConnections('direct HTTPS, http.systemCertificates off', secure, reads);
    assert.ok(secure.connections.tls >= 1, 'the requests came over TLS');
    assert.ok(secure.connections.tls <= secure.requests.length, 'never more handshakes than requests');
  });

  describe('certificates that must not be trusted', () => {
    const broken: Array<{ name: CertificateName; what: string }> = [
      { name: 'expired', what: 'an expired certificate (signed by the trusted CA)' },
      { name: 'wrongHost', what: `a certificate for ${OTHER_HOST} (signed by the trusted CA)` },
      { name: 'selfSigned', what: 'a self-signed certificate' },
      { name: 'untrusted', what: 'a certificate of an untrusted CA, sent with its intermediate' },
      { name: 'untrustedRoot', what: 'a certificate of an untrusted CA, sent with its intermediate and root' },
    ];
    for (const { name, what } of broken) {
      it(`${what}: the key check fails in the handshake; nothing is saved, created or sent`, async () => {
        const service = (ctx.service = await startHttpsService(name));
        try {
          await untrustedFlows(ctx, service, `certificate ${name}`);
        } finally {
          await service.close();
        }
      });
    }

    it('the CA only in NODE_EXTRA_CA_CERTS, with VS Code’s default http.systemCertificates (on): not trusted', async () => {
      await setHttp('systemCertificates', undefined);
      try {
        await untrustedFlows(
          ctx,
          secure,
          'good certificate, CA only in NODE_EXTRA_CA_CERTS, http.systemCertificates on',
        );
      } finally {
        await setHttp('systemCertificates', false);
      }
    });

    it('after these failures no key is anywhere outside SecretStorage (settings, state, logs, messages)', async () => {
      const zones = await keyFreeZones(ctx);
      assert.deepEqual(findSecrets(zones, secretsOf(ctx.service.keys.admin)), []);
    });
  });

  describe('no connection at all', () => {
    it('a host name that does not resolve: nothing is saved', async () => {
      const url = `https://${OTHER_HOST}:${new URL(secure.url).port}/v1`;
      const shown = await addEnvironment(ctx, 'Nowhere', url, true);
      assert.equal(ctx.exports.environments!.list().length, 0);
      const { read, created, fetch: chain } = await failureAt(ctx, 'Nowhere', url);
      assert.equal((read as { kind?: string }).kind, 'network');
      recordFailure(
        'name not found',
        read,
        [...shown, ...created].map((m) => m.text),
        chain,
      );
      assert.equal(secure.requests.length, 0);
    });

    it('a closed port: nothing is saved', async () => {
      const closed = await startHttpsService('good');
      await closed.close();
      const shown = await addEnvironment(ctx, 'Closed', closed.baseUrl, true);
      assert.equal(ctx.exports.environments!.list().length, 0);
      const { read, created, fetch: chain } = await failureAt(ctx, 'Closed', closed.baseUrl);
      assert.equal((read as { kind?: string }).kind, 'network');
      recordFailure(
        'connection refused',
        read,
        [...shown, ...created].map((m) => m.text),
        chain,
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
async function untrustedFlows(ctx: TestContext, service: RunningService, label: string): Promise<void> {
  const count = service.store.engagements.length;
  const shown = await addEnvironment(ctx, 'Refused', service.baseUrl, true);
  const warning = shown.find((m) => m.modal);
  assert.ok(warning, `a warning about the key check; shown: ${shown.map((m) => m.text).join(' | ')}`);
  assert.deepEqual(warning.actions, ['Retry', 'Save Anyway']);
  assert.equal(ctx.exports.environments!.list().length, 0, 'dismissed: nothing was saved');

  const { read, created, fetch: chain } = await failureAt(ctx, 'Refused', service.baseUrl);
  recordFailure(
    label,
    read,
    [...shown, ...created].map((m) => m.text),
    chain,
  );
  assert.equal((read as { kind?: string }).kind, 'network');
  assert.ok(created.length > 0, 'the create said it failed');
  assert.equal(service.store.engagements.length, count, 'nothing was created');
  assert.deepEqual(service.requests, [], 'no request, so no key, reached the service');
  assert.ok(service.connections.tcp > 0, 'the extension did connect: the handshake is what failed');
  assert.equal(service.connections.tls, 0, 'no handshake completed');
}
