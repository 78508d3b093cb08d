// The breakdown of a period of 10,000 records (issue 48): the period read whole through the client
// (pages of 100, concurrently) from the reference service at 20 ms latency, then grouped by key,
// by endpoint with the units summed, and day by day; requests, wall time of the read and of the
// grouping, and the Node heap the records and the breakdown hold. The service runs in this
// process (its work shares the thread: the read's time is an upper bound). Prints JSON; asserts nothing.
import { ServiceApi } from '../../src/api/service';
import { breakdown } from '../../src/core/breakdown';
import { breakdownOf } from '../../src/usage/breakdown';
import { RecordsScan } from '../../src/usage/sections';
import { startService } from '../service/server';
import { plantPeriod } from '../service/spikes';

async function main(): Promise<void> {
  const latencyMs = Number(process.env.BENCH_BREAKDOWN_LATENCY ?? 20);
  const service = await startService({ port: 0, latencyMs });
  try {
    const period = service.store.currentPeriod();
    const now = new Date();
    const days = now.getUTCDate();
    const records = plantPeriod(service.store, {
      period,
      perDay: Math.floor(8_000 / days),
      days,
      spikes: [
        {
          day: Math.max(1, days - 1),
          records: 10_000 - Math.floor(8_000 / days) * days,
          keyId: 'key_ci',
          method: 'POST',
          endpoint: '/v1/engagements',
        },
      ],
    });
    let requests = 0;
    const api = new ServiceApi({
      baseUrl: service.baseUrl,
      getKey: () => service.keys.admin,
      timeoutMs: 30_000,
      fetch: (input, init) => {
        requests++;
        return fetch(input, init);
      },
    });
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage().heapUsed;
    const readStart = performance.now();
    const scan = await new RecordsScan().read(api, period, () => undefined);
    const readMs = performance.now() - readStart;
    const groupStart = performance.now();
    const made = breakdownOf(scan, undefined, new Map(), Date.now(), { used: records.length, included: 5_000 });
    const byEndpoint = breakdown(scan.records, 'endpoint', 'units');
    const groupMs = performance.now() - groupStart;
    gc?.();
    const after = process.memoryUsage().heapUsed;
    console.log(
      JSON.stringify({
        kind: 'breakdown',
        records: scan.records.length,
        latencyMs,
        requests,
        readMs,
        groupMs,
        marked: made.data.daily.days.filter((d) => d.marked).length,
        groups: byEndpoint.groups.length,
        heapBeforeMb: before / 2 ** 20,
        heapAfterMb: after / 2 ** 20,
        gcExposed: Boolean(gc),
        // Kept alive until here, so the heap after counts them.
        held: scan.records.length + made.data.read,
      }),
    );
  } finally {
    await service.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
