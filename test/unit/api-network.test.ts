// Why a connection failed, read from what Node and undici really throw on loopback (a closed
// port, a dropped connection, TLS spoken to a plain-HTTP port), and from the errors VS Code's
// proxy support throws (its tunnel refusal mimics undici's sentence; see docs/performance.md).
import assert from 'node:assert/strict';
import net from 'node:net';
import { ServiceApi } from '../../src/api/service';
import { ApiError } from '../../src/api/errors';
import { describeError } from '../../src/api/errorText';
import { classifyConnectionFailure, hostOf } from '../../src/api/network';
import { rejectsWith } from './support/apiErrors';
import { closedPort, startLoopbackServer } from './support/loopback';

/** The shape of fetch's failure: `TypeError('fetch failed')` with undici's or the socket's error as cause. */
function fetchFailed(cause: Record<string, unknown>): TypeError {
  const inner = Object.assign(new Error(typeof cause.message === 'string' ? cause.message : 'failed'), cause);
  return new TypeError('fetch failed', { cause: inner });
}

describe('Connection failures (src/api/network.ts)', () => {
  const target = 'https://svc.example:8443/v1/engagements';

  it('knows the port of a URL without one', () => {
    assert.equal(hostOf('https://svc.example/v1'), 'svc.example:443');
    assert.equal(hostOf('http://127.0.0.1/v1'), '127.0.0.1:80');
  });

  const table: Array<[string, Record<string, unknown>, string, boolean]> = [
    ['a private CA sent in the chain', { code: 'SELF_SIGNED_CERT_IN_CHAIN' }, 'untrustedCertificate', true],
    ['an intermediate not trusted', { code: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY' }, 'untrustedCertificate', true],
    ['a leaf whose issuer is unknown', { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }, 'untrustedCertificate', true],
    ['a self-signed leaf', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'untrustedCertificate', true],
    ['an expired certificate', { code: 'CERT_HAS_EXPIRED' }, 'expiredCertificate', true],
    ['a certificate not valid yet', { code: 'CERT_NOT_YET_VALID' }, 'expiredCertificate', true],
    ['another host name', { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }, 'hostMismatch', true],
    ['a TLS protocol mismatch', { code: 'ERR_SSL_WRONG_VERSION_NUMBER' }, 'tlsHandshake', true],
    ['a name not found', { code: 'ENOTFOUND', hostname: 'svc.example' }, 'nameNotFound', true],
    ['nothing listening', { code: 'ECONNREFUSED', address: '10.1.2.3', port: 8443 }, 'connectionRefused', true],
    ['no route', { code: 'EHOSTUNREACH', address: '10.1.2.3', port: 8443 }, 'hostUnreachable', true],
    ['the connect timeout', { code: 'UND_ERR_CONNECT_TIMEOUT' }, 'connectTimeout', true],
    ['a reset connection', { code: 'ECONNRESET' }, 'connectionDropped', false],
    ['a socket closed by the other side', { code: 'UND_ERR_SOCKET' }, 'connectionDropped', false],
    ['a proxy that is down', { code: 'ECONNREFUSED', address: '127.0.0.1', port: 3128 }, 'proxyUnreachable', true],
    ['a proxy whose name is not found', { code: 'ENOTFOUND', hostname: 'proxy.corp' }, 'proxyUnreachable', true],
    [
      'a proxy asking for credentials (VS Code)',
      { code: 'UND_ERR_ABORTED', message: 'Proxy response (407) ?.== 200 when HTTP Tunneling' },
      'proxyAuthentication',
      true,
    ],
    [
      'a proxy refusing the tunnel (undici)',
      { code: 'UND_ERR_ABORTED', message: 'Proxy response (403) !== 200 when HTTP Tunneling' },
      'proxyRefused',
      true,
    ],
    ['an unknown code', { code: 'E_SOMETHING' }, 'other', false],
  ];
  for (const [name, cause, problem, notSent] of table) {
    it(`${name}: ${problem}, ${notSent ? 'nothing sent' : 'may have been sent'}`, () => {
      const failure = classifyConnectionFailure(fetchFailed(cause), target);
      assert.ok(failure);
      assert.equal(failure.problem, problem);
      assert.equal(failure.notSent, notSent);
    });
  }

  it('names the proxy, not the service, when the proxy cannot be reached', () => {
    const failure = classifyConnectionFailure(
      fetchFailed({ code: 'ECONNREFUSED', address: '127.0.0.1', port: 3128 }),
      target,
    );
    assert.equal(failure?.host, '127.0.0.1:3128');
    const service = classifyConnectionFailure(fetchFailed({ code: 'CERT_HAS_EXPIRED' }), target);
    assert.equal(service?.host, 'svc.example:8443');
  });

  it('says the proxy status it saw', () => {
    const failure = classifyConnectionFailure(
      fetchFailed({ code: 'UND_ERR_ABORTED', message: 'Proxy response (502) !== 200 when HTTP Tunneling' }),
      target,
    );
    assert.equal(failure?.proxyStatus, 502);
    assert.equal(failure?.code, 'proxy 502');
  });

  it('reads nothing into an error without a code', () => {
    assert.equal(classifyConnectionFailure(new TypeError('fetch failed'), target), undefined);
  });

  it("a browser's bare fetch failure (CORS or the network, which it does not tell): refused by the browser, perhaps sent", () => {
    for (const message of ['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed']) {
      const failure = classifyConnectionFailure(new TypeError(message), target);
      assert.equal(failure?.problem, 'refusedByBrowser', message);
      assert.equal(failure?.notSent, false, 'a preflight may have passed and the request been received');
      assert.equal(failure?.code, message);
    }
    // Node's own failure with these words in a cause is not a browser's.
    assert.notEqual(
      classifyConnectionFailure(fetchFailed({ message: 'Failed to fetch' }), target)?.problem,
      'refusedByBrowser',
    );
  });

  it('the words for it name the origin the service must allow, and what to allow', () => {
    const error = new ApiError('network', 'GET /engagements could not reach the service.', {
      connection: classifyConnectionFailure(new TypeError('Failed to fetch'), target),
    });
    const global = globalThis as { location?: { origin: string } };
    global.location = { origin: 'https://vscode.example.dev' };
    try {
      const words = describeError(error, 'Staging');
      assert.match(words, /must allow requests from https:\/\/vscode\.example\.dev \(CORS\)/);
      assert.match(words, /Access-Control-Allow-Origin/);
      assert.match(words, /allow the headers Authorization and Content-Type and the method PATCH/);
      assert.match(words, /If-Match or If-Unmodified-Since if it sends ETag or Last-Modified/);
      assert.match(words, /expose the headers ETag and Location/);
    } finally {
      delete global.location;
    }
    assert.match(describeError(error, 'Staging'), /must allow requests from the address VS Code for the Web runs at/);
  });

  describe('as Node really fails on loopback', () => {
    it('a closed port: connection refused, a create not sent, not retried as a change', async () => {
      const port = await closedPort();
      const api = new ServiceApi({ baseUrl: `http://127.0.0.1:${port}/v1`, getKey: () => 'k', retryLimit: 0 });
      const read = await rejectsWith(api.engagements.list(), 'network');
      assert.equal(read.connection?.problem, 'connectionRefused');
      assert.equal(read.connection?.host, `127.0.0.1:${port}`);
      const write = await rejectsWith(api.engagements.create({ name: 'N', type: 't' }), 'network');
      assert.equal(write.connection?.notSent, true);
      assert.equal(write.writeOutcome, undefined, 'nothing left this machine: certainly not carried out');
    });

    it('TLS spoken to a plain-HTTP port: a failed handshake, not retried', async () => {
      const server = await startLoopbackServer();
      try {
        const api = new ServiceApi({ baseUrl: `https://127.0.0.1:${server.port}/v1`, getKey: () => 'k' });
        const error = await rejectsWith(api.engagements.list(), 'network');
        assert.equal(error.connection?.problem, 'tlsHandshake', `got ${error.connection?.code}`);
        assert.equal(server.received.length, 0, 'no request reached the server');
      } finally {
        await server.close();
      }
    });

    it('a connection dropped after the request was sent: the outcome of a write is unknown', async () => {
      const server = net.createServer((socket) => socket.once('data', () => socket.destroy()));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as net.AddressInfo).port;
      try {
        const api = new ServiceApi({ baseUrl: `http://127.0.0.1:${port}/v1`, getKey: () => 'k', retryLimit: 0 });
        const error = await rejectsWith(api.engagements.create({ name: 'N', type: 't' }), 'network');
        assert.equal(error.connection?.problem, 'connectionDropped');
        assert.equal(error.writeOutcome, 'unknown');
      } finally {
        server.close();
      }
    });
  });
});
