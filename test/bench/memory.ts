// Heap used by 10,000 engagements held by the client's listing, measured in one Node process
// (the extension host is a Node process too). Prints JSON; asserts nothing.
import { ServiceApi } from '../../src/api/service';
import { startService } from '../service/server';

async function main(): Promise<void> {
  const service = await startService({ port: 0, engagementCount: 10_000 });
  try {
    const api = new ServiceApi({ baseUrl: service.baseUrl, getKey: () => service.keys.admin });
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage().heapUsed;
    const all = await api.engagements.listAll();
    gc?.();
    const after = process.memoryUsage().heapUsed;
    console.log(
      JSON.stringify({
        kind: 'memory',
        items: all.items.length,
        heapBeforeMb: before / 2 ** 20,
        heapAfterMb: after / 2 ** 20,
        gcExposed: Boolean(gc),
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
