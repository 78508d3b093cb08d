// Benchmarks (not tests): print numbers, assert nothing. Run by `npm run bench`.
// Listing N engagements from the reference service at several injected latencies, with the
// client's concurrent paging and one page at a time, counting the requests each makes.
// The service runs in its own process (as a real one would), so its work does not share
// the client's thread.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { ServiceApi } from '../../src/api/service';
import { startFastifyLinkHeaderService } from '../frameworks/fastifyLinkHeader';
import { startFastifyOffsetService } from '../frameworks/fastifyOffset';
import { startHonoCursorService } from '../frameworks/honoCursor';

interface Row {
  /** The service's own cap on items per page (none: it answers the 100 asked for). */
  cap?: number;
  latencyMs: number;
  n: number;
  concurrentMs: number;
  concurrentRequests: number;
  sequentialMs: number;
  sequentialRequests: number;
}

interface Started {
  child: ChildProcess;
  baseUrl: string;
  key: string;
}

function startServiceProcess(n: number, latencyMs: number, cap?: number, readingName?: string): Promise<Started> {
  const cli = path.join(__dirname, '..', 'service', 'cli.js');
  const reading = [
    ...(cap === undefined ? [] : ['--page-size-cap', String(cap)]),
    ...(readingName === undefined ? [] : ['--reading', readingName]),
  ];
  const child = spawn(
    process.execPath,
    [cli, '--port', '0', '--engagements', String(n), '--latency', String(latencyMs), ...reading],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the reference service did not start within 15 s')), 15_000);
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('READY ')) return;
      clearTimeout(timer);
      const ready = JSON.parse(line.slice(6)) as { baseUrl: string; keys: { admin: string } };
      resolve({ child, baseUrl: ready.baseUrl, key: ready.keys.admin });
    });
    child.once('exit', (code) => reject(new Error(`the reference service exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const sizes = (process.env.BENCH_SIZES ?? '100,1000,10000').split(',').map(Number);
  const latencies = (process.env.BENCH_LATENCIES ?? '0,20,100').split(',').map(Number);
  // The client's default unless BENCH_CONCURRENCY asks for another (to compare settings).
  const override = process.env.BENCH_CONCURRENCY ? Number(process.env.BENCH_CONCURRENCY) : undefined;
  let concurrency = 0;
  // The grid, then the case of a service that caps its pages at 50 (the client asks for 100).
  const runsToDo: Array<{ latencyMs: number; n: number; cap?: number }> = latencies.flatMap((latencyMs) =>
    sizes.map((n) => ({ latencyMs, n })),
  );
  if (process.env.BENCH_CAPPED !== '0') runsToDo.push({ latencyMs: 20, n: Math.max(...sizes), cap: 50 });
  for (const { latencyMs, n, cap } of runsToDo) {
    const service = await startServiceProcess(n, latencyMs, cap);
    try {
      let requests = 0;
      const counting: typeof fetch = (input, init) => {
        requests++;
        return fetch(input, init);
      };
      const api = new ServiceApi({
        baseUrl: service.baseUrl,
        getKey: () => service.key,
        timeoutMs: 30_000,
        fetch: counting,
        concurrency: override,
      });
      concurrency = api.client.concurrency;
      await api.engagements.list({ page: 1, pageSize: 1 }); // warm the connection
      // Concurrent: the median of three runs (the first also opens the connections).
      const runs: Array<{ ms: number; requests: number }> = [];
      for (let run = 0; run < 3; run++) {
        requests = 0;
        const t0 = performance.now();
        const all = await api.engagements.listAll({ pageSize: 100 });
        runs.push({ ms: performance.now() - t0, requests });
        if (all.items.length !== n) throw new Error(`concurrent listing returned ${all.items.length} of ${n}`);
      }
      runs.sort((a, b) => a.ms - b.ms);
      const concurrentMs = runs[1].ms;
      const concurrentRequests = runs[1].requests;

      requests = 0;
      const started = performance.now();
      let seen = 0;
      for (let page = 1; ; page++) {
        const result = await api.engagements.list({ page, pageSize: 100 });
        seen += result.data.length;
        if (result.data.length === 0 || seen >= result.totalCount) break;
      }
      const sequentialMs = performance.now() - started;
      if (seen !== n) throw new Error(`sequential listing returned ${seen} of ${n}`);
      rows.push({ cap, latencyMs, n, concurrentMs, concurrentRequests, sequentialMs, sequentialRequests: requests });
    } finally {
      service.child.kill('SIGTERM');
    }
  }
  // The whole set as the extension reads it (no size named: pages of 1,000 asked first), from a
  // service that takes at most 100 a page (the reference) and from one that takes 1,000. Each run
  // is a new client, as after a switch of environment: the refused size is asked again.
  const whole: Array<{ reading: string; n: number; latencyMs: number; ms: number; requests: number; refused: number }> =
    [];
  const wholeN = Math.max(...sizes);
  for (const reading of ['reference', 'largePages']) {
    const service = await startServiceProcess(wholeN, 20, undefined, reading);
    try {
      const runs: Array<{ ms: number; requests: number; refused: number }> = [];
      for (let run = 0; run < 3; run++) {
        let requests = 0;
        let refused = 0;
        const counting: typeof fetch = async (input, init) => {
          requests++;
          const response = await fetch(input, init);
          if (response.status === 400) refused++;
          return response;
        };
        const api = new ServiceApi({ baseUrl: service.baseUrl, getKey: () => service.key, fetch: counting });
        await api.usage.summary(); // open a connection first, as the view's own reads would have
        requests = 0;
        const t0 = performance.now();
        const all = await api.engagements.listAll();
        runs.push({ ms: performance.now() - t0, requests, refused });
        if (all.items.length !== wholeN) throw new Error(`whole-set read returned ${all.items.length} of ${wholeN}`);
      }
      runs.sort((a, b) => a.ms - b.ms);
      whole.push({ reading, n: wholeN, latencyMs: 20, ...runs[1] });
    } finally {
      service.child.kill('SIGTERM');
    }
  }
  const byLinks = await readByLinks(wholeN);
  console.log(JSON.stringify({ kind: 'listing', concurrency, rows, whole, byLinks }));
}

/** A service to read whole: its base URL and how to stop it. */
interface Paged {
  baseUrl: string;
  key: string;
  close(): Promise<void> | void;
}

/**
 * Every one of `n` engagements read whole as the extension reads them, each service paging its
 * own way in pages of 100, with 20 ms added before each request (a round trip's latency, the same
 * for all): page numbers (the reference, its own process: pages asked concurrently), and the
 * services that only name their next page (test/frameworks/, in this process: one page after
 * another, as only each answer tells where the next is).
 */
async function readByLinks(n: number): Promise<Array<{ paging: string; n: number; ms: number; requests: number }>> {
  const latencyMs = 20;
  const services: Array<{ paging: string; start: () => Promise<Paged> }> = [
    {
      paging: 'page numbers with a total (the reference)',
      start: async () => {
        const s = await startServiceProcess(n, 0);
        return { baseUrl: s.baseUrl, key: s.key, close: () => void s.child.kill('SIGTERM') };
      },
    },
    {
      paging: 'limit/offset, a next URL in the body (Fastify)',
      start: async () => ({ ...(await startFastifyOffsetService({ count: n, defaultLimit: 100 })), key: 'k' }),
    },
    {
      paging: "an opaque cursor, Stripe's has_more (Hono)",
      start: async () => ({ ...(await startHonoCursorService({ count: n, defaultLimit: 100 })), key: 'k' }),
    },
    {
      paging: 'an opaque cursor, next_cursor (Hono)',
      start: async () => ({
        ...(await startHonoCursorService({ style: 'token', count: n, defaultLimit: 100 })),
        key: 'k',
      }),
    },
    {
      paging: 'a Link header with a cursor over a bare array (Fastify)',
      start: async () => ({
        ...(await startFastifyLinkHeaderService({ count: n, defaultPerPage: 100, links: 'cursor' })),
        key: 'k',
      }),
    },
  ];
  const out: Array<{ paging: string; n: number; ms: number; requests: number }> = [];
  for (const { paging, start } of services) {
    const service = await start();
    try {
      const runs: Array<{ ms: number; requests: number }> = [];
      for (let run = 0; run < 3; run++) {
        let requests = 0;
        const late: typeof fetch = async (input, init) => {
          requests++;
          await new Promise((resolve) => setTimeout(resolve, latencyMs));
          return fetch(input, init);
        };
        const api = new ServiceApi({ baseUrl: service.baseUrl, getKey: () => service.key, fetch: late });
        const t0 = performance.now();
        const all = await api.engagements.listAll();
        runs.push({ ms: performance.now() - t0, requests });
        if (all.items.length !== n) throw new Error(`${paging}: read ${all.items.length} of ${n}`);
      }
      runs.sort((a, b) => a.ms - b.ms);
      out.push({ paging, n, ...runs[1] });
    } finally {
      await service.close();
    }
  }
  return out;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
