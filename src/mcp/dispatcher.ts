// A fetch over undici's own dispatchers, for the MCP server when a proxy applies or certificate
// authorities must be added that Node's default cannot hold (src/mcp/network.ts decides). Built
// as its own file, dist/mcp-network.mjs, with undici in it, and loaded only then. It takes and
// gives Node's own Request and Response, as the client's ky expects, whatever undici this Node
// carries; undici's errors (a tunnel refused, a certificate not trusted) reach the client as
// Node's fetch throws them, so src/api/network.ts reads them alike.
import { Agent, ProxyAgent, fetch as undiciFetch } from 'undici';

export interface FetchOptions {
  /** The proxy's URL (credentials in it are sent as Proxy-Authorization). */
  proxy?: string;
  /** Every certificate authority to trust; Node's default when absent. */
  ca?: string[];
}

/** Statuses whose answer has no body (a Response with one cannot be made). */
const NO_BODY = new Set([101, 204, 205, 304]);

export function fetchVia(options: FetchOptions): typeof globalThis.fetch {
  const tls = options.ca ? { ca: options.ca } : undefined;
  const dispatcher = options.proxy
    ? new ProxyAgent({ uri: options.proxy, requestTls: tls, proxyTls: tls })
    : new Agent({ connect: tls });
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    const answer = await undiciFetch(request.url, {
      method: request.method,
      headers: [...request.headers],
      body,
      redirect: request.redirect,
      signal: request.signal,
      dispatcher,
    });
    const response = new Response(NO_BODY.has(answer.status) ? null : (answer.body as ReadableStream | null), {
      status: answer.status,
      statusText: answer.statusText,
      headers: [...answer.headers],
    });
    Object.defineProperty(response, 'url', { value: answer.url });
    Object.defineProperty(response, 'redirected', { value: answer.redirected });
    return response;
  };
}
