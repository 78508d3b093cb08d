// The reference service on a worker thread (worker.ts), driven from the thread that started
// it: the Performance suite measures Go to Engagement and sorting with the service's work off
// the extension host's thread, as a real service's is. Over HTTP or HTTPS (`tls`, `host`), with
// the connections it accepted counted.
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ConnectionCounts, DemoKeys, RecordedRequest, ServiceOptions } from './server';

export type ThreadRequest = { id: number } & (
  | { kind: 'seed'; count: number }
  | { kind: 'latency'; ms: number }
  | { kind: 'requests' }
  | { kind: 'clearRequests' }
  | { kind: 'connections' }
  | { kind: 'close' }
);

export interface ThreadReply {
  id: number;
  ready?: { url: string; baseUrl: string; keys: DemoKeys };
  requests?: RecordedRequest[];
  connections?: ConnectionCounts;
}

type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never;

export interface ThreadedService {
  /** `http://127.0.0.1:<port>`, or `https://<host>:<port>` with `tls`. */
  url: string;
  baseUrl: string;
  keys: DemoKeys;
  seedEngagements(count: number): Promise<void>;
  setLatency(ms: number): Promise<void>;
  requests(): Promise<RecordedRequest[]>;
  clearRequests(): Promise<void>;
  /** TCP connections and TLS handshakes the service accepted since it started (a copy). */
  connections(): Promise<ConnectionCounts>;
  close(): Promise<void>;
}

const ANSWER_WITHIN_MS = 30_000;

/**
 * Starts the reference service on its own thread; `workerFile` is the built worker.js. The
 * options cross to the thread as data (`tls` as PEM text; no clock, no timers).
 */
export function startServiceThread(
  options: Omit<ServiceOptions, 'now' | 'timers'> = {},
  workerFile = path.join(__dirname, '..', 'service', 'worker.js'),
): Promise<ThreadedService> {
  const worker = new Worker(workerFile, { workerData: { ...options, port: 0 } });
  const waiting = new Map<number, { resolve: (reply: ThreadReply) => void; reject: (error: Error) => void }>();
  let next = 1;
  let failed: Error | undefined;
  const fail = (error: Error) => {
    failed = error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the service thread exited (${code})`)));
  worker.on('message', (reply: ThreadReply) => {
    waiting.get(reply.id)?.resolve(reply);
    waiting.delete(reply.id);
  });
  const ask = (request: Distribute<ThreadRequest>): Promise<ThreadReply> => {
    if (failed) return Promise.reject(failed);
    const id = next++;
    return new Promise<ThreadReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`the service thread did not answer ${request.kind} within ${ANSWER_WITHIN_MS} ms`));
      }, ANSWER_WITHIN_MS);
      waiting.set(id, {
        resolve: (reply) => (clearTimeout(timer), resolve(reply)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      worker.postMessage({ id, ...request });
    });
  };
  return new Promise<ThreadedService>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`the service thread did not start within ${ANSWER_WITHIN_MS} ms`));
    }, ANSWER_WITHIN_MS);
    waiting.set(0, {
      reject: (error) => (clearTimeout(timer), reject(error)),
      resolve: ({ ready }) => {
        clearTimeout(timer);
        if (!ready) return reject(new Error('the service thread started without an address'));
        resolve({
          ...ready,
          seedEngagements: async (count) => void (await ask({ kind: 'seed', count })),
          setLatency: async (ms) => void (await ask({ kind: 'latency', ms })),
          requests: async () => (await ask({ kind: 'requests' })).requests ?? [],
          clearRequests: async () => void (await ask({ kind: 'clearRequests' })),
          connections: async () => {
            const { connections } = await ask({ kind: 'connections' });
            if (!connections) throw new Error('the service thread sent no connection counts');
            return connections;
          },
          close: async () => {
            await ask({ kind: 'close' }).catch(() => undefined);
            await worker.terminate();
          },
        });
      },
    });
  });
}
