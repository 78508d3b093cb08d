// A service whose answer never ends: a 200 with a JSON list that keeps coming, as fast as the
// client takes it (or one chunk per `paceMs`), until the client closes the connection (or, with
// `totalBytes`, until that much was sent). It counts the bytes it sent and says when the
// connection closed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EndlessService {
  readonly baseUrl: string;
  /** Bytes of body written so far. */
  readonly sent: number;
  /** Resolves when the client closed the connection of the answer. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

const CHUNK = Buffer.from(`${'{"id":"e","name":"An engagement that never ends"},'.repeat(20_000)}`);

export async function startEndlessService(
  options: { paceMs?: number; declareLength?: number; totalBytes?: number } = {},
) {
  let sent = 0;
  let onClosed!: () => void;
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  const server = http.createServer((_req, res) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (options.declareLength !== undefined) headers['Content-Length'] = String(options.declareLength);
    res.writeHead(200, headers);
    res.write('{"data":[');
    let stopped = false;
    res.on('close', () => {
      stopped = true;
      onClosed();
    });
    const pump = () => {
      while (!stopped) {
        if (options.totalBytes !== undefined && sent >= options.totalBytes) return void res.end(']}');
        sent += CHUNK.length;
        const more = res.write(CHUNK);
        if (options.paceMs !== undefined) return void setTimeout(pump, options.paceMs);
        if (!more) return void res.once('drain', pump);
      }
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const service: EndlessService = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get sent() {
      return sent;
    },
    closed,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return service;
}
