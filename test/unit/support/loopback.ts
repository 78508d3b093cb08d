// Other servers on loopback ports, for what the client must do when the service is not
// the one answering: another host (a key must never reach it), one that never answers,
// and a port where nothing listens.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Every request it got: method, URL and Authorization header. */
  readonly received: Array<{ method?: string; url?: string; authorization?: string }>;
  /** Drops the open connections and stops listening. */
  close(): Promise<void>;
}

/** A server that records each request and answers `{}`, or (`silent`) never answers. */
export async function startLoopbackServer(options: { silent?: boolean } = {}): Promise<LoopbackServer> {
  const received: LoopbackServer['received'] = [];
  const server = http.createServer((req, res) => {
    received.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
    if (!options.silent) res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port nothing listens on: a server's, closed again. */
export async function closedPort(): Promise<number> {
  const server = await startLoopbackServer();
  await server.close();
  return server.port;
}
