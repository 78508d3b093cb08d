// How the MCP server is started: its flags and environment variables, read into what it does
// (print its usage or version, refuse an unknown flag, or serve one environment). The base URL
// and the key come from environment variables, never from an argument: arguments show in
// process lists and in the client's configuration, so what an unknown argument held is never
// repeated. A path the server reads itself may start with `~` (the user's home folder), as
// client configurations are written by hand.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseBaseUrl } from '../core/validation';
import type { ToolEnvironment } from '../tools/host';

/** The environment variables the server reads. */
export const ENV = {
  baseUrl: 'EUS_BASE_URL',
  key: 'EUS_API_KEY',
  label: 'EUS_ENVIRONMENT',
  production: 'EUS_PRODUCTION',
  timeoutSeconds: 'EUS_TIMEOUT_SECONDS',
  /** `0` leaves the system's certificate store out (VS Code passes its `http.systemCertificates`). */
  systemCa: 'EUS_SYSTEM_CA',
} as const;

/** The flags the server takes. */
const FLAGS = { allowWrites: '--allow-writes', help: '--help', version: '--version' } as const;
const SHORT: Record<string, string> = { '-h': FLAGS.help, '-v': FLAGS.version };

/** How the server was started: the environment it serves, or why it cannot serve one. */
export type Setup =
  | { ok: true; env: ToolEnvironment; key: string; writes: boolean; timeoutMs: number }
  | { ok: false; problem: string; writes: boolean };

/** What the command line asks for. */
export type Command =
  | { kind: 'help'; text: string }
  | { kind: 'version' }
  /** An argument the server does not take: said on stderr, exit code 2. */
  | { kind: 'refused'; text: string }
  | { kind: 'serve'; setup: Setup };

const USAGE = `Usage: ${ENV.baseUrl}=https://api.example.com/v1 ${ENV.key}=… engagement-usage-mcp [${FLAGS.allowWrites}]`;

/** `--help`: what the server reads, for someone writing a client's configuration by hand. */
const HELP = `Engagement & Usage MCP server: the engagements and API usage of one environment of the
Engagement and Usage Service, for any MCP client, over stdio.

${USAGE}

Flags:
  ${FLAGS.allowWrites}   offer the tools that create and change engagements (read-only without it)
  ${FLAGS.help}, -h      print this text
  ${FLAGS.version}, -v   print the version

Environment variables:
  ${ENV.baseUrl}          the service's base URL, e.g. https://api.example.com/v1 (required;
                        https, or http on this machine only)
  ${ENV.key}           the API key (required); never pass it as an argument
  ${ENV.label}       the environment's name in answers (default: the base URL's host)
  ${ENV.production}        1 marks a production environment in every answer
  ${ENV.timeoutSeconds}   seconds to wait for each answer (default 30)
  HTTPS_PROXY, HTTP_PROXY   the proxy to reach the service through (http://user:password@host:port)
  NO_PROXY              hosts reached without the proxy (comma-separated; *.example.com, .example.com)
  NODE_EXTRA_CA_CERTS   a PEM file of extra certificate authorities to trust (a private CA, or the
                        authority of a proxy that inspects HTTPS); ~ is the home folder
  ${ENV.systemCa}         0 leaves out the system's certificate store, which is used where
                        Node can read it (Node 22.15 and later)
`;

/** A short name for an argument in a message: a flag's name only, never a value. */
function named(arg: string): string {
  const flag = /^(--?[A-Za-z][A-Za-z0-9-]{0,30})(=|$)/.exec(arg);
  return flag ? `“${flag[1]}”` : 'an argument';
}

/** Reads the arguments (process.argv.slice(2)) and the environment variables. */
export function readCommand(args: readonly string[], env: Record<string, string | undefined>): Command {
  const flags = args.map((a) => SHORT[a] ?? a);
  const unknown = flags.filter((a) => !Object.values<string>(FLAGS).includes(a));
  if (unknown.length)
    return {
      kind: 'refused',
      text: `The server does not take ${named(unknown[0])}. It takes ${FLAGS.allowWrites}, ${FLAGS.help} and ${FLAGS.version}; the base URL and the key are read from ${ENV.baseUrl} and ${ENV.key}.\n${USAGE}`,
    };
  if (flags.includes(FLAGS.help)) return { kind: 'help', text: HELP };
  if (flags.includes(FLAGS.version)) return { kind: 'version' };
  return { kind: 'serve', setup: readSetup(env, flags.includes(FLAGS.allowWrites)) };
}

function readSetup(env: Record<string, string | undefined>, writes: boolean): Setup {
  const url = parseBaseUrl(env[ENV.baseUrl] ?? '');
  if (!url.ok) return { ok: false, writes, problem: `${ENV.baseUrl}: ${url.message}` };
  const key = env[ENV.key]?.trim() ?? '';
  if (!key) return { ok: false, writes, problem: `No API key: set ${ENV.key}. ${USAGE}` };
  const label = env[ENV.label]?.trim() || new URL(url.url).host;
  const timeout = Number(env[ENV.timeoutSeconds] ?? 30);
  return {
    ok: true,
    key,
    writes,
    timeoutMs: Math.max(1, Number.isFinite(timeout) ? timeout : 30) * 1000,
    env: { id: 'mcp', label, baseUrl: url.url, production: /^(1|true|yes)$/i.test(env[ENV.production] ?? '') },
  };
}

/** `~` or `~/…` at the start of a path: the user's home folder (a shell would expand it, a client's configuration does not). */
export function expandHome(file: string, home = os.homedir()): string {
  if (file === '~') return home;
  if (file.startsWith('~/') || file.startsWith(`~${path.sep}`)) return path.join(home, file.slice(2));
  return file;
}

/** Whether the script Node was started with is the server: directly, or through a link to it (npm's `bin`). */
export function startedAsScript(script: string | undefined): boolean {
  if (!script) return false;
  let real = script;
  try {
    real = fs.realpathSync(script);
  } catch {
    // Not a file this process can see: the name as given.
  }
  return /mcp-server\.m?js$/.test(real);
}
