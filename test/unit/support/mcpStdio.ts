// The built MCP server run as a client runs it: `node <script>` with only the environment it is
// given, over stdio with the MCP SDK's client; or run once as a command (`--help`), its exit
// code and output kept.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

// Bundled into each test file of out/test/unit: `__dirname` is that folder.
export const ROOT = path.resolve(__dirname, '..', '..', '..');
/** The server as the build writes it. */
export const BUILT_SERVER = path.join(ROOT, 'dist', 'mcp-server.mjs');

export interface StdioSession {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** Starts `command args` (default: node and the built server) with only `env` (and PATH) and connects the SDK's client. */
export async function connectStdio(
  env: Record<string, string>,
  options: { args?: string[]; command?: string } = {},
): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: options.command ?? process.execPath,
    args: options.args ?? [BUILT_SERVER],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** The text of a tool's answer and whether it is an error. */
export async function callText(
  session: StdioSession,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean }> {
  const result = await session.client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
  return { text, isError: result.isError === true };
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command args` to its end (at most `timeoutMs`), stdin closed, with only `env` (and PATH). */
export function runToEnd(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${path.basename(command)} ${args.join(' ')} did not end in ${options.timeoutMs ?? 10_000} ms`));
    }, options.timeoutMs ?? 10_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
