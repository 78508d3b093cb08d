// What the HTTPS and proxy suites share (inside the extension host): the run's certificates
// (made by the runner before code-server started, which trusts their CA through
// NODE_EXTRA_CA_CERTS), VS Code's `http.*` settings changed at run time as a user changes
// them, a wire tap in front of the proxy (everything the proxy can read passes it), and the
// record of each failure as the extension got it, printed for the report.
import assert from 'node:assert/strict';
import net from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import { type CertificateName, makeCertificates, type TestCertificates } from '../../../scripts/vscode/tls.mjs';
import { type RunningService, type ServiceOptions, startService } from '../../service/server';
import {
  type RecordedMessage,
  type TestContext,
  clearEnvironments,
  createAnswers,
  defineEnvironment,
  runCommand,
  waitFor,
} from './helpers';

/** The certificates the runner made for this run (EUS_TLS_DIR), whose CA code-server's environment trusts. */
export function runCertificates(): TestCertificates {
  const dir = process.env.EUS_TLS_DIR;
  assert.ok(
    dir,
    'EUS_TLS_DIR is not set: run the suite with scripts/run-integration.mjs, which makes the certificates',
  );
  assert.equal(
    process.env.NODE_EXTRA_CA_CERTS,
    makeCertificates(dir).ca.certFile,
    'the runner trusts the private CA through NODE_EXTRA_CA_CERTS',
  );
  return makeCertificates(dir);
}

/** The reference service over HTTPS with one of the run's certificates. */
export function startHttpsService(
  name: CertificateName,
  options: Omit<ServiceOptions, 'tls'> = {},
): Promise<RunningService> {
  const { key, cert } = runCertificates().served[name];
  return startService({ port: 0, ...options, tls: { key, cert } });
}

/**
 * Sets one of VS Code's `http.*` settings in the user's settings (undefined removes it) and
 * waits until the extension host reads the new value: VS Code's fetch reads them at each request.
 */
export async function setHttp(name: string, value: unknown): Promise<void> {
  const http = () => vscode.workspace.getConfiguration('http');
  await http().update(name, value, vscode.ConfigurationTarget.Global);
  await waitFor(
    () => isDeepStrictEqual(http().inspect(name)?.globalValue, value),
    `http.${name} to read ${JSON.stringify(value)}`,
  );
}

/** A TCP relay on loopback in front of `port` that keeps every byte sent to it (the client's side). */
export interface WireTap {
  port: number;
  url: string;
  /** What clients sent through it so far, as latin1 text (bytes as they were). */
  sent(): string;
  close(): Promise<void>;
}

export async function startWireTap(port: number): Promise<WireTap> {
  const chunks: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ port, host: '127.0.0.1' });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const tapPort = (server.address() as net.AddressInfo).port;
  return {
    port: tapPort,
    url: `http://127.0.0.1:${tapPort}`,
    sent: () => Buffer.concat(chunks).toString('latin1'),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A key in the forms it could travel in the clear: as typed, its secret part, and Basic/base64. */
export function clearForms(key: string): string[] {
  const secret = key.slice(key.indexOf('.') + 1);
  return [key, secret, Buffer.from(key).toString('base64'), Buffer.from(secret).toString('base64')];
}

interface ErrorLike {
  name?: unknown;
  kind?: unknown;
  message?: unknown;
  detail?: unknown;
  writeOutcome?: unknown;
  cause?: { name?: unknown; code?: unknown; message?: unknown };
}

/** One failure as the extension got it: the ApiError's kind, detail and cause, and what the user read. */
export interface FailureRecord {
  case: string;
  vscode: string;
  kind?: unknown;
  detail?: unknown;
  cause?: { name?: unknown; code?: unknown; message?: unknown };
  writeOutcome?: unknown;
  message?: unknown;
  /** The sentences the user was shown (messages of the flow), in order. */
  shown: string[];
}

/** Prints one failure for the report (`[network] {…}` lines in the run's output) and returns it. */
export function recordFailure(label: string, error: unknown, shown: string[] = []): FailureRecord {
  const e = (error ?? {}) as ErrorLike;
  const record: FailureRecord = {
    case: label,
    vscode: vscode.version,
    kind: e.kind,
    detail: e.detail,
    cause: e.cause && { name: e.cause.name, code: e.cause.code, message: e.cause.message },
    writeOutcome: e.writeOutcome,
    message: e.message,
    shown,
  };
  console.log(`[network] ${JSON.stringify(record)}`);
  return record;
}

/**
 * Adds an environment as a person does (label, URL, key). With `giveUp`, a key check that
 * could not reach the service is dismissed and the key step it returns to is closed (Escape):
 * nothing is saved. Returns the messages the flow showed.
 */
export async function addEnvironment(
  ctx: TestContext,
  label: string,
  baseUrl: string,
  giveUp = false,
): Promise<RecordedMessage[]> {
  const before = ctx.ui.messages.length;
  ctx.ui.answer(label, baseUrl, ctx.service.keys.admin, ...(giveUp ? [undefined] : []));
  await runCommand('addEnvironment');
  assert.equal(ctx.ui.pending, 0, 'the flow asked for every answer given');
  return ctx.ui.messages.slice(before);
}

const saveAnyway = (m: RecordedMessage) => m.modal && m.actions.includes('Save Anyway');

/**
 * The failure an environment at `baseUrl` meets after the user saved it anyway: the key
 * entered as a user does (Replace API Key; its check fails, "Save Anyway"), then a read of
 * the engagements by the extension's own client and a create through Create Engagement.
 * Leaves the environment removed.
 */
export async function failureAt(
  ctx: TestContext,
  label: string,
  baseUrl: string,
): Promise<{ read: unknown; created: RecordedMessage[] }> {
  const env = await defineEnvironment(ctx, { label, baseUrl });
  ctx.ui.answer(ctx.service.keys.admin);
  ctx.ui.answerWhen(saveAnyway, 'Save Anyway');
  await runCommand('replaceKey', env.id);
  ctx.ui.dropStanding(saveAnyway);
  assert.equal(await ctx.exports.environments!.keyLocation(env.id), 'secretStorage', 'saved anyway');
  const read = await ctx.exports
    .environments!.api()!
    .engagements.list()
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  const before = ctx.ui.messages.length;
  ctx.ui.answer(...createAnswers('Never sent'));
  await runCommand('createEngagement');
  const created = ctx.ui.messages.slice(before);
  await clearEnvironments(ctx.exports, ctx.ui);
  return { read, created };
}
