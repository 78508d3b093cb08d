// The MCP server as an agent starts it: the built dist/mcp-server.mjs (or a command that starts
// it: the packed package's bin, a copied configuration's) over stdio, driven by the official
// SDK's client, with only the environment it is given. Every message both ways and stderr are
// kept (what must never hold the key). The tool list is read at once, so the SDK's client checks
// each answer's structuredContent against its tool's outputSchema (ajv). Or run once as a
// command (`--help`), its exit code and output kept.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';

// Bundled into each test file of out/test/unit: `__dirname` is that folder.
export const ROOT = path.resolve(__dirname, '..', '..', '..');
/** The server as the build writes it. */
export const SERVER = path.join(ROOT, 'dist', 'mcp-server.mjs');

export interface Session {
  client: Client;
  /** Every JSON-RPC message both ways, and stderr: what must never hold the key. */
  transcript(): string;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Starts the server with only `env` (and PATH) and `args` after it, and connects the SDK's
 * client; `launch` is how it is started (default: this Node and the built server).
 */
export async function connect(
  env: Record<string, string>,
  args: string[] = [],
  launch: { command: string; args: string[] } = { command: process.execPath, args: [SERVER] },
): Promise<Session> {
  const transport = new StdioClientTransport({
    command: launch.command,
    args: [...launch.args, ...args],
    // Only what the server is given: not this process's environment.
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  const messages: string[] = [];
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(transport);
  // Wrapped after connect (the client sets its handler then): every message in and out is kept.
  const received = transport.onmessage;
  transport.onmessage = (message) => {
    messages.push(JSON.stringify(message));
    received?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    messages.push(JSON.stringify(message));
    return send(message);
  };
  // The client keeps each tool's outputSchema and validates every structuredContent against it.
  await client.listTools();
  return {
    client,
    transcript: () => `${messages.join('\n')}\n${stderr}`,
    stderr: () => stderr,
    close: () => client.close(),
  };
}

type Content = Array<{ type: string; text?: string }>;

export interface Answer {
  text: string;
  isError: boolean;
  structured?: Record<string, unknown>;
}

/** Calls a tool; the SDK's client has checked its structuredContent against the tool's outputSchema. */
export async function call(
  session: Session,
  name: string,
  args: Record<string, unknown> = {},
  options?: RequestOptions,
): Promise<Answer> {
  const result = await session.client.callTool({ name, arguments: args }, undefined, options);
  const text = (result.content as Content).map((c) => c.text ?? '').join('\n');
  return {
    text,
    isError: result.isError === true,
    structured: result.structuredContent as Record<string, unknown> | undefined,
  };
}

/** The JSON between the service-data markers of an answer. */
export function data(text: string): unknown {
  const match = /<service-data>\n([\s\S]*?)\n<\/service-data>/.exec(text);
  assert.ok(match, `an answer with data: ${text}`);
  return JSON.parse(match[1]);
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
