// Runs the reference service from the command line (npm run service, npm start, benchmarks):
//   node out/test/service/cli.js [--port N] [--seed N] [--latency MS] [--engagements N]
// Prints the base URL, the demo keys and one machine-readable line `READY {"baseUrl",…,"keys"}`.
import type { RunningService, ServiceOptions } from './server';
import { startService } from './server';

const USAGE = 'Usage: cli.js [--port N] [--seed N] [--latency MS] [--engagements N]';

const FLAGS: Record<string, keyof Pick<ServiceOptions, 'port' | 'seed' | 'latencyMs' | 'engagementCount'>> = {
  '--port': 'port',
  '--seed': 'seed',
  '--latency': 'latencyMs',
  '--engagements': 'engagementCount',
};

function parseArgs(argv: readonly string[]): ServiceOptions {
  const options: ServiceOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const option = Object.hasOwn(FLAGS, flag) ? FLAGS[flag] : undefined;
    if (!option) throw new Error(`Unknown argument: ${arg}`);
    const raw = inline ?? argv[++i];
    const value = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : NaN;
    const max = option === 'port' ? 65535 : Number.MAX_SAFE_INTEGER;
    if (!Number.isSafeInteger(value) || value > max) throw new Error(`${flag} needs a non-negative integer, got ${raw ?? 'nothing'}`);
    options[option] = value;
  }
  return options;
}

async function main(): Promise<void> {
  let options: ServiceOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  let service: RunningService;
  try {
    service = await startService(options);
  } catch (error) {
    process.stderr.write(`Could not start the reference service: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const lines = [`Reference service listening at ${service.baseUrl}`, 'Demo keys:'];
  for (const [role, key] of Object.entries(service.keys)) lines.push(`${role}: ${key}`);
  lines.push(`READY ${JSON.stringify({ baseUrl: service.baseUrl, keys: service.keys })}`);
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(0), 2000);
    force.unref();
    service.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
