// The MCP server: the agent tools (src/tools) for any MCP client, over stdio, in plain Node 20+.
// It serves one environment: its base URL and API key come from environment variables, never
// from an argument, and the key is never written anywhere (not to stdout, not to stderr, not
// in an answer: every text goes through the client's redaction and ours). It is read-only
// unless started with `--allow-writes`; each tool declares MCP's annotations so a client asks
// before a write, and an update must say the `updatedAt` each engagement was read with.
//
// Shipped in the package as dist/mcp-server.mjs (and as the npm package of packages/mcp-server);
// VS Code starts it for each environment of the user's own (src/chat/mcp.ts); anyone can start
// it from a terminal (flags and variables: src/mcp/cli.ts, `--help`):
//   EUS_BASE_URL=https://api.example.com/v1 EUS_API_KEY=… node dist/mcp-server.mjs [--allow-writes]
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { userAgent } from '../api/client';
import { logText } from '../api/errors';
import { describeError } from '../api/errorText';
import { redact } from '../api/redact';
import { ServiceApi } from '../api/service';
import { readTrend } from '../api/usage';
import { l10n } from '../core/l10n';
import {
  FRESH_MS,
  INPUT_SCHEMAS,
  MCP_TOOLS,
  OUTPUTS,
  TOOL_NAMES,
  type ToolName,
  WRITE_TOOLS,
} from '../tools/definitions';
import { type Target, type ToolContext, type ToolHost, ToolRefusal, WholeSets } from '../tools/host';
import type { ToolResult } from '../tools/result';
import { runTool } from '../tools/run';
import { ENV, readCommand, type Setup, startedAsScript } from './cli';
import { networkFetch, planNetwork } from './network';
import { registerPrompts } from './prompts';
import { registerResources } from './resources';

/** The version of the package, set by the build (esbuild `define`). */
declare const SERVER_VERSION: string;
const VERSION = typeof SERVER_VERSION === 'string' ? SERVER_VERSION : '0.0.0-dev';

export interface ServerOptions {
  /** What the command line and the environment variables asked for (src/mcp/cli.ts). */
  setup: Setup;
  /** Where diagnostics go (stderr): never the key. */
  warn: (line: string) => void;
  /** How the service is reached (src/mcp/network.ts); Node's fetch when absent. */
  fetch?: typeof globalThis.fetch;
}

/** The tools' host over MCP: the one environment the server serves. */
export function mcpHost(
  setup: Extract<Setup, { ok: true }>,
  warn: (line: string) => void,
  fetch?: typeof globalThis.fetch,
): ToolHost {
  const { env, key } = setup;
  const api = new ServiceApi({
    baseUrl: env.baseUrl,
    fetch,
    getKey: () => key,
    timeoutMs: setup.timeoutMs,
    userAgent: userAgent('eus-tools.engagement-usage', VERSION, 'MCP server'),
  });
  const target: Target = { env, api, active: true };
  const wholeSets = new WholeSets(() => FRESH_MS);
  return {
    place: 'agent',
    replaceKey: l10n.t('in the MCP server’s configuration ({0})', ENV.key),
    resolve(named) {
      const asked = typeof named === 'string' ? named.trim() : '';
      if (asked && asked.toLowerCase() !== env.label.toLowerCase())
        return Promise.reject(
          new ToolRefusal(
            l10n.t('This server serves one environment, “{0}”; omit “environment” or name it.', env.label),
          ),
        );
      return Promise.resolve(target);
    },
    labelOf: () => env.label,
    wholeSet: (t, context) => wholeSets.read(t, context),
    records: (t, period, context) => wholeSets.records(t, period, context),
    known: (t, id) => wholeSets.get(t, id),
    written: (t, engagement, created) => wholeSets.written(t, engagement, created),
    accepted: () => undefined,
    readTrend: (t, current, signal) =>
      readTrend(
        (p) => t.api.usage.summary(p, { signal }),
        undefined,
        current,
        (e) => describeError(e, env.label, 'agent'),
      ),
    link: () => undefined,
    logFailure: (tool, error) =>
      warn(redact(`${tool} failed: ${error instanceof Error ? logText(error) : String(error)}`, key)),
  };
}

/** The MCP server over the given options; connect it to a transport to serve. */
export function createServer(options: ServerOptions): Server {
  const { setup } = options;
  const warn = (line: string) => options.warn(setup.ok ? redact(line, setup.key) : redact(line));
  if (!setup.ok) warn(setup.problem);
  const host = setup.ok ? mcpHost(setup, warn, options.fetch) : undefined;
  const listed = TOOL_NAMES.filter((name) => setup.writes || !WRITE_TOOLS.includes(name));
  const server = new Server(
    { name: 'engagement-usage', title: 'Engagement & Usage', version: VERSION },
    {
      capabilities: { tools: {} },
      instructions: setup.ok
        ? `Engagements and API usage of the Engagement and Usage Service at ${setup.env.label}${setup.env.production ? ' (production)' : ''}; ${setup.writes ? 'creating and changing engagements is allowed' : 'read-only'}.`
        : `Not configured: ${setup.problem}`,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: listed.map((name) => ({
      name,
      title: MCP_TOOLS[name].title,
      description: MCP_TOOLS[name].description,
      inputSchema: INPUT_SCHEMAS[name] as { type: 'object' },
      outputSchema: OUTPUTS[name].schema as { type: 'object' },
      annotations: { title: MCP_TOOLS[name].title, ...MCP_TOOLS[name].annotations },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name as ToolName;
    const context: ToolContext = {
      signal: extra.signal,
      progress: progressTo(request.params._meta?.progressToken, extra),
    };
    const result = await call(name, request.params.arguments ?? {}, context);
    // Redacted once more at the edge: nothing the server sends holds the key.
    const hide = (text: string) => (setup.ok ? redact(text, setup.key) : redact(text));
    return {
      content: [{ type: 'text' as const, text: hide(result.text) }],
      ...(result.structured ? { structuredContent: hidden(result.structured, hide) as Record<string, unknown> } : {}),
      isError: result.isError,
    };
  });

  async function call(name: ToolName, input: Record<string, unknown>, context: ToolContext): Promise<ToolResult> {
    if (!TOOL_NAMES.includes(name)) return refused(l10n.t('There is no tool “{0}”.', String(name).slice(0, 100)));
    if (!setup.ok || !host)
      return refused(l10n.t('The MCP server is not configured: {0}', setup.ok ? '' : setup.problem));
    if (WRITE_TOOLS.includes(name) && !setup.writes)
      return refused(
        l10n.t(
          'This MCP server is read-only: nothing was sent. The user can start it with --allow-writes to create and change engagements.',
        ),
      );
    // Over MCP every change is based on the version its agent read: none is written over blindly.
    return runTool(host, name, input, { ...context, versionsRequired: true });
  }
  // Beside the tools, for a configured server: resources and prompts (their own files).
  if (setup.ok && host) {
    registerResources(server, host, setup.key);
    registerPrompts(server, host, setup.key);
  }
  return server;
}

/** Progress notifications of a call, when its client sent a progress token (else none). */
function progressTo(
  token: string | number | undefined,
  extra: { sendNotification: (notification: ServerNotification) => Promise<void> },
): ToolContext['progress'] {
  if (token === undefined) return undefined;
  return (done, total, message) =>
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: done, total, message },
      })
      .catch(() => undefined);
}

/** Every string of a structured answer (keys too) through `hide`. */
function hidden(value: unknown, hide: (text: string) => string): unknown {
  if (typeof value === 'string') return hide(value);
  if (Array.isArray(value)) return value.map((v) => hidden(v, hide));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [hide(k), hidden(v, hide)]));
  return value;
}

function refused(text: string): ToolResult {
  return { text, isError: true };
}

/** Serves over stdio until the client closes it; `--help`, `--version` and an unknown flag answer and exit. */
export async function main(): Promise<void> {
  const command = readCommand(process.argv.slice(2), process.env);
  if (command.kind !== 'serve') {
    if (command.kind === 'refused') process.exitCode = 2;
    const text = command.kind === 'version' ? VERSION : command.text;
    (command.kind === 'refused' ? process.stderr : process.stdout).write(`${text.trimEnd()}\n`);
    return;
  }
  const warn = (line: string) => process.stderr.write(`${line}\n`);
  const { setup } = command;
  let fetch: typeof globalThis.fetch | undefined;
  if (setup.ok) {
    const plan = planNetwork(setup.env.baseUrl, process.env);
    plan.notes.forEach(warn);
    fetch = await networkFetch(plan);
  }
  const server = createServer({ setup, warn, fetch });
  // The key stays in this process's memory only: no child process or later read of the environment gets it.
  delete process.env[ENV.key];
  await server.connect(new StdioServerTransport());
}

// Run when started as a script (the bundle, or the npm package's bin linking to it); not when a test imports it.
if (typeof process !== 'undefined' && startedAsScript(process.argv[1])) {
  main().catch((error: unknown) => {
    process.stderr.write(`${redact(error instanceof Error ? error.message : String(error))}\n`);
    process.exit(1);
  });
}
