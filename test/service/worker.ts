// The reference service on a thread of its own (worker_threads), started by
// `startServiceThread` (thread.ts). A real service answers from another machine: measured
// from inside the extension host, its work must not share the extension's thread.
import { parentPort, workerData } from 'node:worker_threads';
import { startService, type ServiceOptions } from './server';
import type { ThreadReply, ThreadRequest } from './thread';

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('worker.js runs as a worker thread (see thread.ts)');
  const service = await startService(workerData as ServiceOptions);
  port.on('message', (request: ThreadRequest) => {
    const reply = (answer: Omit<ThreadReply, 'id'>) => port.postMessage({ id: request.id, ...answer });
    switch (request.kind) {
      case 'seed':
        service.store.seedEngagements(request.count);
        return reply({});
      case 'latency':
        service.setLatency(request.ms);
        return reply({});
      case 'requests':
        return reply({ requests: service.requests });
      case 'clearRequests':
        service.clearRequests();
        return reply({});
      case 'connections':
        return reply({ connections: { ...service.connections } });
      case 'close':
        void service.close().then(() => reply({}));
        return;
    }
  });
  port.postMessage({ id: 0, ready: { url: service.url, baseUrl: service.baseUrl, keys: service.keys } });
}

void main();
