// A fetch that reaches the service through a proxy, or trusting certificate authorities that
// Node's default cannot be made to hold, for the MCP server (src/mcp/network.ts decides when).
// Node's own fetch is used with a dispatcher of Node's own undici (its Agent class, read from
// the dispatcher Node's fetch made for itself, as undici shares it between copies), whose
// connector opens an HTTP CONNECT tunnel through the proxy and the TLS session inside it: no
// second HTTP stack ships with the server. A tunnel refused is said as undici says it
// ("Proxy response (407) !== 200 when HTTP Tunneling"), and socket errors keep their codes, so
// src/api/network.ts reads every failure as it reads those of VS Code's fetch.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Socket } from 'node:net';
import tls from 'node:tls';

export interface FetchOptions {
  /** The proxy's URL (credentials in it are sent as Proxy-Authorization). */
  proxy?: string;
  /** Every certificate authority to trust; Node's default when absent. */
  ca?: string[];
}

/** What undici's connector is asked (the origin to reach) and how it answers. */
interface ConnectOptions {
  hostname: string;
  port: string;
  protocol: string;
  servername?: string | null;
  timeout?: number | null;
}
type Connected = (error: Error | null, socket: Socket | null) => void;

/** undici's key of the dispatcher its fetch uses, shared by every copy of undici in a process. */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

type AgentClass = new (options: {
  connect: ConnectOptions | ((o: ConnectOptions, cb: Connected) => void) | object;
}) => object;

/** Node's own undici Agent class: from the dispatcher its fetch makes on first use. */
async function nodeAgent(): Promise<AgentClass> {
  // A data: URL makes Node's fetch load undici and its dispatcher, with no request.
  await (await fetch('data:,')).text();
  const made = (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER];
  const Agent = (made as { constructor?: unknown } | undefined)?.constructor;
  if (typeof Agent !== 'function')
    throw new Error(
      `Node ${process.version} gives its fetch no dispatcher to go through a proxy: use Node 20 or later.`,
    );
  return Agent as AgentClass;
}

const DEFAULT_PORTS: Record<string, string> = { 'https:': '443', 'http:': '80' };

/** A connector that opens a tunnel through `proxyUrl` to the origin, then TLS inside it for https. */
function tunnel(proxyUrl: string, ca: string[] | undefined) {
  const proxy = new URL(proxyUrl);
  const credentials = proxy.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`
    : undefined;
  return (options: ConnectOptions, connected: Connected): void => {
    let answered = false;
    const answer = (error: Error | null, socket: Socket | null) => {
      if (answered) return;
      answered = true;
      connected(error, socket);
    };
    const target = `${options.hostname}:${options.port || DEFAULT_PORTS[options.protocol]}`;
    const request = (proxy.protocol === 'https:' ? https : http).request({
      host: proxy.hostname.replace(/^\[|\]$/g, ''),
      port: proxy.port || DEFAULT_PORTS[proxy.protocol],
      method: 'CONNECT',
      path: target,
      agent: false,
      headers: { host: target, ...(credentials ? { 'proxy-authorization': credentials } : {}) },
      ...(proxy.protocol === 'https:' && ca ? { ca } : {}),
    });
    request.setTimeout(options.timeout ?? 10_000, () =>
      request.destroy(Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' })),
    );
    request.once('error', (error) => answer(error, null));
    request.once('connect', (response: http.IncomingMessage, socket: Socket) => {
      request.setTimeout(0);
      if (response.statusCode !== 200) {
        socket.destroy();
        answer(new Error(`Proxy response (${response.statusCode}) !== 200 when HTTP Tunneling`), null);
        return;
      }
      if (options.protocol !== 'https:') return answer(null, socket);
      const name = options.servername ?? options.hostname;
      const secure = tls.connect({
        socket,
        host: options.hostname,
        servername: net.isIP(name) ? undefined : name,
        ALPNProtocols: ['http/1.1'],
        ...(ca ? { ca } : {}),
      });
      secure.once('secureConnect', () => answer(null, secure));
      secure.once('error', (error: Error) => answer(error, null));
    });
    request.end();
  };
}

/** Node's fetch through the proxy, or trusting `ca`, as the options say. */
export async function fetchVia(options: FetchOptions): Promise<typeof globalThis.fetch> {
  const Agent = await nodeAgent();
  const dispatcher = new Agent({
    connect: options.proxy ? tunnel(options.proxy, options.ca) : options.ca ? { ca: options.ca } : {},
  });
  return (input, init) => fetch(input, { ...init, dispatcher } as RequestInit);
}
