// Runs the reference service from the command line (npm run service, npm start, benchmarks):
//   node out/test/service/cli.js [--port N] [--host ADDRESS] [--https [CERT]] [--seed N] [--latency MS]
//                                [--engagements N] [reading options]
// Prints the base URL, the demo keys and one machine-readable line `READY {"baseUrl",…,"keys"}`
// (with --https also "ca": the file of the private CA to trust).
import type { CertificateName, TestCertificates } from '../../scripts/vscode/tls.mjs';
import { CERTIFICATES, CERTIFICATE_NAMES, makeCertificates } from '../../scripts/vscode/tls.mjs';
import { FRAMEWORK_ERRORS } from './errorFormats';
import type { Reading, WriteAnswer, ErrorBodies, PageForm } from './readings';
import { READING_NAMES, readingByName } from './readings';
import type { RunningService, ServiceOptions } from './server';
import { startService } from './server';

const USAGE = `Usage: npm run service -- [options]

Options:
  --port N             listen on this port (default: any free port)
  --host ADDRESS       listen on this loopback address (default 127.0.0.1; VS Code
                       never sends 127.0.0.1 through a proxy, 127.0.0.2 it does)
  --https [CERT]       HTTPS with certificates made now by openssl (removed on exit): a
                       private CA, printed to trust, and the server certificate CERT:
${CERTIFICATE_NAMES.map((name) => `                         ${kebab(name).padEnd(15)}${CERTIFICATES[name]}`).join('\n')}
                       (default good)
  --seed N             seed of the demo data (default 42)
  --latency MS         delay added to every answer
  --engagements N      number of seeded engagements (default 60)

How the service reads what the contract leaves open (default: the reference reading):
  --reading NAME       a named reading: ${READING_NAMES.join(', ')}
  --page-size-cap N    answer at most N items per page, whatever pageSize asks
  --ignore-page-size   ignore pageSize: pages of 25
  --ignore-page        ignore page: always answer the first page
  --no-paging          answer every item in one page
  --wrap               single reads, write answers, summary and by-key inside {"data": …}
  --writes MODE        body (201/200 + engagement), location (201 + Location, 204),
                       accepted (202, no body), silent (201/200, no body, no Location),
                       idOnly (201/200 + {"id"}), partial (201/200 + id, name, status),
                       acceptedBody (202 + {"status":"pending","id"}), acceptedSilent (202, nothing)
  --accepted-delay MS  apply accepted (202) writes MS later: a create appears, an update's
                       fields change only then
  --pages FORM         pages of the list and the usage records as envelope ({data, page,
                       pageSize, totalCount}), items ({items, total}), results ({count, next,
                       previous, results}) or meta ({data, links, meta: {current_page, per_page, total}})
  --errors FORMAT      error bodies as json, text, html, or as a framework writes them:
                       ${FRAMEWORK_ERRORS.join(', ')}
  --help               this text`;

/** `wrongHost` → `wrong-host`, as the flag takes it. */
function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

const WRITE_MODES: readonly WriteAnswer[] = [
  'body',
  'location',
  'accepted',
  'silent',
  'idOnly',
  'partial',
  'acceptedBody',
  'acceptedSilent',
];
const PAGE_FORMS: readonly PageForm[] = ['envelope', 'items', 'results', 'meta'];
const ERROR_FORMATS: readonly ErrorBodies[] = ['json', 'text', 'html', ...FRAMEWORK_ERRORS];

/** The reading flags that take no value: each switches one reading on. */
const SWITCHES: Record<string, 'ignorePageSize' | 'ignorePage' | 'noPaging' | 'wrapSingle'> = {
  '--ignore-page-size': 'ignorePageSize',
  '--ignore-page': 'ignorePage',
  '--no-paging': 'noPaging',
  '--wrap': 'wrapSingle',
};

function oneOf<T extends string>(flag: string, value: string | undefined, choices: readonly T[]): T {
  if (!choices.includes(value as T)) throw new Error(`${flag} takes ${choices.join(', ')}`);
  return value as T;
}

/** The reading flags on top of `--reading` (which may come anywhere). */
function readingFlag(flag: string, value: () => string | undefined, reading: Reading): boolean {
  if (Object.hasOwn(SWITCHES, flag)) {
    reading[SWITCHES[flag]] = true;
    return true;
  }
  switch (flag) {
    case '--reading':
      Object.assign(reading, readingByName(value() ?? ''));
      return true;
    case '--page-size-cap': {
      const raw = value();
      const cap = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : 0;
      if (cap < 1) throw new Error(`--page-size-cap needs a whole number of at least 1, got ${raw ?? 'nothing'}`);
      reading.pageSizeCap = cap;
      return true;
    }
    case '--writes':
      reading.writes = oneOf(flag, value(), WRITE_MODES);
      return true;
    case '--accepted-delay': {
      const raw = value();
      if (raw === undefined || !/^\d+$/.test(raw))
        throw new Error(`--accepted-delay needs a whole number of milliseconds, got ${raw ?? 'nothing'}`);
      reading.acceptedDelayMs = Number(raw);
      return true;
    }
    case '--pages':
      reading.pageForm = oneOf(flag, value(), PAGE_FORMS);
      return true;
    case '--errors':
      reading.errorBodies = oneOf(flag, value(), ERROR_FORMATS);
      return true;
    default:
      return false;
  }
}

const FLAGS: Record<string, keyof Pick<ServiceOptions, 'port' | 'seed' | 'latencyMs' | 'engagementCount'>> = {
  '--port': 'port',
  '--seed': 'seed',
  '--latency': 'latencyMs',
  '--engagements': 'engagementCount',
};

interface CliOptions extends ServiceOptions {
  /** --https: which certificate the service presents. */
  https?: CertificateName;
}

/** The certificate named after --https (`wrong-host` or `wrongHost`), or undefined when the next argument is no name. */
function certificateName(value: string | undefined): CertificateName | undefined {
  return CERTIFICATE_NAMES.find((name) => value === name || value === kebab(name));
}

/** Loopback only: the service is for tests and demos on this machine. */
function loopbackHost(value: string | undefined): string {
  if (value === 'localhost' || value === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(value ?? '')) return value!;
  throw new Error(`--host takes a loopback address (127.x.x.x, ::1 or localhost), got ${value ?? 'nothing'}`);
}

function parseArgs(argv: readonly string[]): CliOptions | 'help' {
  const options: CliOptions = {};
  const reading: Reading = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') return 'help';
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (readingFlag(flag, () => inline ?? argv[++i], reading)) continue;
    if (flag === '--https') {
      const named = certificateName(inline ?? argv[i + 1]);
      if (inline !== undefined && !named)
        throw new Error(`--https takes ${CERTIFICATE_NAMES.map(kebab).join(', ')}, got ${inline}`);
      if (named && inline === undefined) i++;
      options.https = named ?? 'good';
      continue;
    }
    if (flag === '--host') {
      options.host = loopbackHost(inline ?? argv[++i]);
      continue;
    }
    const option = Object.hasOwn(FLAGS, flag) ? FLAGS[flag] : undefined;
    if (!option) throw new Error(`Unknown argument: ${arg}`);
    const raw = inline ?? argv[++i];
    const value = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : NaN;
    const max = option === 'port' ? 65535 : Number.MAX_SAFE_INTEGER;
    if (!Number.isSafeInteger(value) || value > max)
      throw new Error(`${flag} needs a non-negative integer, got ${raw ?? 'nothing'}`);
    options[option] = value;
  }
  if (Object.keys(reading).length) options.reading = reading;
  return options;
}

/** What the service presents with --https, from certificates made for this process (removed when it exits). */
function httpsOptions(name: CertificateName): { tls: ServiceOptions['tls']; certificates: TestCertificates } {
  const certificates = makeCertificates();
  const served = certificates.served[name];
  return { tls: { key: served.key, cert: served.cert }, certificates };
}

async function main(): Promise<void> {
  let parsed: CliOptions | 'help';
  try {
    parsed = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (parsed === 'help') {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const { https: certificate, ...options } = parsed;
  let service: RunningService;
  let ca: string | undefined;
  try {
    const secure = certificate ? httpsOptions(certificate) : undefined;
    ca = secure?.certificates.ca.certFile;
    service = await startService({ ...options, ...(secure ? { tls: secure.tls } : {}) });
  } catch (error) {
    process.stderr.write(`Could not start the reference service: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const lines = [`Reference service listening at ${service.baseUrl}`];
  if (certificate && ca) {
    lines.push(
      `HTTPS, certificate "${kebab(certificate)}": ${CERTIFICATES[certificate]}`,
      `Trust this CA to reach it (it is deleted when the service stops): ${ca}`,
      '  VS Code: NODE_EXTRA_CA_CERTS=<that file> in its environment and "http.systemCertificates": false,',
      '  or the CA in the system store (see CONTRIBUTING.md, "HTTPS and proxies"); curl: --cacert <that file>',
    );
  }
  if (options.reading) lines.push(`Reading: ${JSON.stringify(options.reading)}`);
  lines.push('Demo keys:');
  for (const [role, key] of Object.entries(service.keys)) lines.push(`${role}: ${key}`);
  lines.push(`READY ${JSON.stringify({ baseUrl: service.baseUrl, keys: service.keys, ...(ca ? { ca } : {}) })}`);
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
