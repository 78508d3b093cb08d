// Connections: the client never stands in the way of reusing them. VS Code's fetch decides
// whether a connection is kept (1.100 makes a new undici Agent, so a new connection, for every
// request while system certificates are on or a proxy applies; 1.139 keeps its Agents), so
// these tests give the client a fetch over one kept-alive undici Agent, as 1.139's is, and
// count at the reference service what it accepted over HTTPS: requests answered, read, failed,
// retried or redirected never cost a connection or a TLS handshake each. Also the reference
// service on a worker thread (the Performance suite's) over HTTPS, counting the same.
import assert from 'node:assert/strict';
import { Agent } from 'undici';
import { ServiceApi } from '../../src/api/service';
import { startServiceThread } from '../service/thread';
import { fetchThrough } from './support/clients';
import { useReferenceService } from './support/referenceService';

/**
 * undici may open a second connection when a request is sent while the connection of the one
 * before is being handed back to its pool (seen: 2 for 10 requests one after another, with
 * Node's own fetch alone); a client that closed connections would open one per request.
 */
const KEPT = 2;
const SEQUENTIAL = 12;

describe('Connections kept by the fetch are reused by the client (HTTPS, unit)', function () {
  this.timeout(20_000);
  const reference = useReferenceService({ https: true, engagementCount: 1_000 });
  const service = reference.service;
  let agents: Agent[] = [];

  afterEach(async () => {
    await Promise.all(agents.map((a) => a.close()));
    agents = [];
  });

  /** A client whose fetch keeps its connections (one undici Agent trusting the test CA), as VS Code 1.139's does. */
  function client(): ServiceApi {
    const dispatcher = new Agent({ connect: { ca: reference.certificates.ca.cert } });
    agents.push(dispatcher);
    return reference.api({ backoffLimitMs: 10, fetch: fetchThrough(dispatcher) });
  }

  /** Runs `call` SEQUENTIAL times, one after another (failures expected), and returns what the service counted. */
  async function sequential(call: (api: ServiceApi) => Promise<unknown>, before = () => {}) {
    const api = client();
    const failures: string[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      before();
      await call(api).catch((error: unknown) => failures.push((error as { kind?: string }).kind ?? String(error)));
    }
    return { requests: service.requests.length, ...service.connections, failures };
  }

  it('reads one after another over the same connection', async () => {
    const seen = await sequential((api) => api.engagements.list({ pageSize: 5 }));
    assert.deepEqual(seen.failures, []);
    assert.equal(seen.requests, SEQUENTIAL);
    assert.ok(seen.tcp <= KEPT && seen.tls === seen.tcp, `${SEQUENTIAL} reads: ${JSON.stringify(seen)}`);
  });

  it('keeps the connection after answers that are failures: 404, 503 retried twice, a redirect to another host refused, a 500 to a create', async () => {
    const cases: Array<{ what: string; call: (api: ServiceApi) => Promise<unknown>; before?: () => void }> = [
      { what: '404', call: (api) => api.engagements.get('eng_missing') },
      {
        what: '503, retried twice',
        call: (api) => api.engagements.list(),
        before: () => service.faults.add({ kind: 'status', status: 503, times: 3 }),
      },
      {
        what: 'a redirect to another host',
        call: (api) => api.engagements.list(),
        before: () => service.faults.add({ kind: 'redirect', location: 'https://127.0.0.2:9/elsewhere', times: 1 }),
      },
      {
        what: '500 to a create',
        call: (api) => api.engagements.create({ name: 'Kept', type: 'evaluation' }),
        before: () => service.faults.add({ kind: 'status', status: 500, method: 'POST', times: 1 }),
      },
    ];
    for (const { what, call, before } of cases) {
      service.reset();
      const seen = await sequential(call, before);
      assert.equal(seen.failures.length, SEQUENTIAL, `${what}: each call failed`);
      assert.ok(seen.requests >= SEQUENTIAL, `${what}: the service was asked`);
      assert.ok(
        seen.tcp <= KEPT && seen.tls === seen.tcp,
        `${what}, ${seen.requests} requests: ${JSON.stringify(seen)}`,
      );
    }
  });

  it('the reference service on a worker thread speaks HTTPS and counts the connections and handshakes it accepted', async () => {
    const { key, cert } = reference.certificates.served.good;
    const threaded = await startServiceThread({ tls: { key, cert }, host: '127.0.0.2', engagementCount: 30 });
    try {
      assert.match(threaded.baseUrl, /^https:\/\/127\.0\.0\.2:\d+\/v1$/);
      assert.equal(threaded.url, threaded.baseUrl.replace(/\/v1$/, ''));
      const api = new ServiceApi({
        baseUrl: threaded.baseUrl,
        getKey: () => threaded.keys.admin,
        fetch: (input, init) => {
          // A new Agent per request, as VS Code 1.100's fetch does: a connection and a handshake each.
          const dispatcher = new Agent({ connect: { ca: reference.certificates.ca.cert } });
          agents.push(dispatcher);
          return fetchThrough(dispatcher)(input, init);
        },
      });
      const all = await api.engagements.listAll({ pageSize: 10 });
      assert.equal(all.items.length, 30);
      assert.equal((await threaded.requests()).length, 3);
      assert.deepEqual(await threaded.connections(), { tcp: 3, tls: 3, handshakeFailures: [] });
    } finally {
      await threaded.close();
    }
  });
});
