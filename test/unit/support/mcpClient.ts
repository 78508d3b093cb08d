// The MCP server as an agent starts it: the built dist/mcp-server.mjs over stdio, driven by the
// official SDK's client, with the base URL and key in its environment. Every message both ways
// and stderr are kept (what must never hold the key). The tool list is read at once, so the
// SDK's client checks each answer's structuredContent against its tool's outputSchema (ajv).
import assert from 'node:assert/strict';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';

const ROOT = path.resolve(__dirname, '..', '..', '..');
export const SERVER = path.join(ROOT, 'dist', 'mcp-server.mjs');

export interface Session {
  client: Client;
  /** Every JSON-RPC message both ways, and stderr: what must never hold the key. */
  transcript(): string;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

export async function connect(env: Record<string, string>, args: string[] = []): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, ...args],
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
