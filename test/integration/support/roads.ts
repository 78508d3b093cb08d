// The roads the Performance suite reads 10,000 engagements over: loopback http (what every
// other figure uses), HTTPS with the run's private CA (trusted in the system store code-server
// sees, VS Code's defaults), the same HTTPS through a real proxy (tinyproxy, set as VS Code's
// `http.proxy` at run time; VS Code sends 127.0.0.1 direct, so that service listens on
// 127.0.0.2), and HTTPS with `http.systemCertificates` off (the CA in NODE_EXTRA_CA_CERTS):
// there VS Code's fetch is Node's own, whose connections are kept. The reference service runs
// on a worker thread, off the extension host's thread; it counts the TCP connections and TLS
// handshakes it accepted, and the proxy's log counts the CONNECT tunnels.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as vscode from 'vscode';
import { type RunningProxy, startProxy } from '../../../scripts/vscode/proxy.mjs';
import { startServiceThread, type ThreadedService } from '../../service/thread';
import { runCertificates, setHttp } from './network';
import type { RoadCost, RoadName } from './performanceKit';

export const ROADS: ReadonlyArray<{ name: RoadName; title: string }> = [
  { name: 'http', title: 'loopback http' },
  { name: 'https', title: 'HTTPS with a private CA' },
  { name: 'proxy', title: 'HTTPS through a proxy (tinyproxy)' },
  { name: 'httpsNodeCa', title: 'HTTPS with http.systemCertificates off' },
];

/** What the service and the proxy have counted so far (monotonic). */
type Counters = Omit<RoadCost, 'ms' | 'hostCpuMs'>;

/**
 * CPU time (user + system) the extension host's main thread has used, in ms: where the
 * extension's code, VS Code's fetch and every TLS handshake run. Unlike wall time it does not
 * grow when other processes share the cores. Linux only (/proc, in ticks of 10 ms); else undefined.
 */
export function hostThreadCpuMs(): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // The fields after the command name (in parentheses, which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

export interface Road {
  name: RoadName;
  service: ThreadedService;
  /** Counts from now until `done()` resolves: requests, new connections, handshakes, tunnels. */
  count<T>(done: () => Promise<T>): Promise<{ value: T; cost: RoadCost }>;
  /** The service stopped, the proxy too, `http.proxy` and `http.systemCertificates` as they were. */
  close(): Promise<void>;
}

/** Starts the service (and the proxy) of a road with `engagementCount` engagements. */
export async function openRoad(name: RoadName, engagementCount: number): Promise<Road> {
  const tls = name === 'http' ? undefined : runCertificates().served.good;
  const service = await startServiceThread({
    engagementCount,
    ...(tls ? { tls: { key: tls.key, cert: tls.cert } } : {}),
    host: name === 'proxy' ? '127.0.0.2' : '127.0.0.1',
  });
  let proxy: RunningProxy | undefined;
  try {
    if (name === 'proxy') {
      proxy = await startProxy();
      await setHttp('proxy', proxy.url);
    } else {
      if (name === 'httpsNodeCa') await setHttp('systemCertificates', false);
      assert.equal(vscode.workspace.getConfiguration('http').get('proxy') || undefined, undefined, 'no proxy set');
    }
  } catch (error) {
    await proxy?.stop();
    await service.close();
    throw error;
  }
  const counters = async (): Promise<Counters> => {
    const [requests, connections] = await Promise.all([service.requests(), service.connections()]);
    return {
      requests: requests.length,
      tcp: connections.tcp,
      tls: connections.tls,
      handshakeFailures: connections.handshakeFailures.length,
      tunnels: proxy?.connects().length ?? 0,
    };
  };
  return {
    name,
    service,
    async count(done) {
      const before = await counters();
      const cpu = hostThreadCpuMs();
      const started = performance.now();
      const value = await done();
      const ms = performance.now() - started;
      const cpuAfter = hostThreadCpuMs();
      const after = await counters();
      return {
        value,
        cost: {
          ms,
          hostCpuMs: cpu === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpu,
          requests: after.requests - before.requests,
          tcp: after.tcp - before.tcp,
          tls: after.tls - before.tls,
          tunnels: after.tunnels - before.tunnels,
          handshakeFailures: after.handshakeFailures - before.handshakeFailures,
        },
      };
    },
    async close() {
      if (proxy) await setHttp('proxy', undefined);
      if (name === 'httpsNodeCa') await setHttp('systemCertificates', undefined);
      await proxy?.stop();
      await service.close();
    },
  };
}

/**
 * What holds on each road whatever VS Code does with connections: every request came over
 * a connection of its own road (TLS on HTTPS, a CONNECT tunnel through the proxy), and a
 * connection carried at least one request: at most one new connection and one handshake each.
 */
export function assertRoad(road: RoadName, cost: RoadCost, what: string): void {
  assert.ok(cost.requests > 0, `${what}: the service was asked`);
  assert.equal(cost.handshakeFailures, 0, `${what}: no TLS handshake failed`);
  assert.ok(cost.tcp <= cost.requests, `${what}: at most one new connection per request (${JSON.stringify(cost)})`);
  if (road === 'http') {
    assert.equal(cost.tls, 0, `${what}: plain http`);
  } else {
    assert.equal(cost.tls, cost.tcp, `${what}: every new connection was a TLS one (${JSON.stringify(cost)})`);
  }
  if (road === 'proxy') {
    assert.equal(
      cost.tunnels,
      cost.tcp,
      `${what}: every connection the service got came through a tunnel of the proxy (${JSON.stringify(cost)})`,
    );
  } else {
    assert.equal(cost.tunnels, 0, `${what}: no proxy`);
  }
}

/**
 * Where VS Code's fetch keeps connections (Node's own, with `http.systemCertificates` off and
 * no proxy), the client reuses them: a read right after another opens at most one new
 * connection per two requests (seen: none). A client that closed its connections would open one each.
 */
export function assertKept(cost: RoadCost, what: string): void {
  assert.ok(cost.tcp * 2 <= cost.requests, `${what}: connections reused (${JSON.stringify(cost)})`);
}
