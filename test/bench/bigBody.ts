// Memory of a Node process (the extension host and the MCP server are Node processes) while its
// client reads one answer of 256 MB, as fast as the service sends it: the resident set before and
// at its peak (sampled every 10 ms), how much the service sent, and how the read ended. Prints
// JSON; asserts nothing.
import { ServiceApi } from '../../src/api/service';
import { startEndlessService } from '../unit/support/endlessBody';

async function main(): Promise<void> {
  const service = await startEndlessService({ totalBytes: 256 * 2 ** 20 });
  try {
    const api = new ServiceApi({ baseUrl: service.baseUrl, getKey: () => 'bench', timeoutMs: 120_000, retryLimit: 0 });
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const started = Date.now();
    let outcome = 'read';
    try {
      await api.engagements.list({ page: 1 });
    } catch (error) {
      outcome = error instanceof Error ? error.message : String(error);
    }
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log(
      JSON.stringify({
        kind: 'bigBody',
        rssBeforeMb: before / 2 ** 20,
        rssPeakMb: peak / 2 ** 20,
        sentMb: service.sent / 2 ** 20,
        ms: Date.now() - started,
        outcome,
      }),
    );
  } finally {
    await service.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
