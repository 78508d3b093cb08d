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
import { allReady, openDashboard, settled } from './dashboard';
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
  /** How src/api read the failure (ApiError.connection), where it does. */
  connection?: unknown;
  cause?: { name?: unknown; code?: unknown; message?: unknown };
}

/** One link of an error's cause chain. */
export interface CauseLink {
  type: string;
  name?: unknown;
  code?: unknown;
  message?: unknown;
  /** Where a socket error happened (the service's address, or a proxy's). */
  address?: unknown;
  port?: unknown;
}

/** The chain of causes (at most 5 deep) of what VS Code's own fetch throws for `url` (sent without a key). */
export async function fetchFailure(url: string): Promise<CauseLink[] | 'answered'> {
  try {
    await fetch(url, { redirect: 'manual' });
    return 'answered';
  } catch (error) {
    const chain: CauseLink[] = [];
    let link: unknown = error;
    for (let depth = 0; depth < 5 && link; depth++) {
      const e = link as CauseLink & { constructor?: { name?: string }; cause?: unknown };
      chain.push({
        type: e.constructor?.name ?? typeof link,
        name: e.name,
        code: e.code,
        message: e.message,
        ...(e.address === undefined ? {} : { address: e.address, port: e.port }),
      });
      link = e.cause;
    }
    return chain;
  }
}

/** One failure as the extension got it: the ApiError's kind, detail and cause, and what the user read. */
export interface FailureRecord {
  case: string;
  vscode: string;
  kind?: unknown;
  detail?: unknown;
  cause?: { name?: unknown; code?: unknown; message?: unknown };
  writeOutcome?: unknown;
  connection?: unknown;
  message?: unknown;
  /** The sentences the user was shown (messages of the flow), in order. */
  shown: string[];
  /** What VS Code's fetch itself threw, cause by cause (the ApiError keeps only the first code). */
  fetch?: CauseLink[] | 'answered';
}

/** Prints one failure for the report (`[network] {…}` lines in the run's output) and returns it. */
export function recordFailure(
  label: string,
  error: unknown,
  shown: string[] = [],
  fetchChain?: CauseLink[] | 'answered',
): FailureRecord {
  const e = (error ?? {}) as ErrorLike;
  const record: FailureRecord = {
    case: label,
    vscode: vscode.version,
    kind: e.kind,
    detail: e.detail,
    cause: e.cause && { name: e.cause.name, code: e.cause.code, message: e.cause.message },
    writeOutcome: e.writeOutcome,
    connection: e.connection,
    message: e.message,
    shown,
    fetch: fetchChain,
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
  if (giveUp) ctx.ui.expectMessage('Could not reach the service to check the key: ', { level: 'warning' });
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
): Promise<{ read: unknown; created: RecordedMessage[]; fetch: CauseLink[] | 'answered' }> {
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
  ctx.ui.expectMessage('Could not create “Never sent”. ', { level: 'error' });
  await runCommand('createEngagement');
  const created = ctx.ui.messages.slice(before);
  await clearEnvironments(ctx.exports, ctx.ui);
  return { read, created, fetch: await fetchFailure(`${baseUrl}/engagements`) };
}

/**
 * Adds the environment `label` at `baseUrl`, whose connection fails before anything leaves the
 * machine, as a person does: the key check warns, with Retry and Save Anyway (dismissed:
 * nothing is saved); saved anyway (`failureAt`), a read fails with kind `network`, and the key
 * check and the create say so in `said` (`assertToldNotSent`). Prints the failure as `failure`.
 */
export async function addWhereNothingIsSent(
  ctx: TestContext,
  label: string,
  baseUrl: string,
  failure: string,
  said: RegExp,
): Promise<void> {
  const shown = await addEnvironment(ctx, label, baseUrl, true);
  const warning = shown.find((m) => m.modal);
  assert.ok(warning, `a warning about the key check; shown: ${shown.map((m) => m.text).join(' | ')}`);
  assert.deepEqual(warning.actions, ['Retry', 'Save Anyway']);
  assert.equal(ctx.exports.environments!.list().length, 0, 'dismissed: nothing was saved');
  const { read, created, fetch: chain } = await failureAt(ctx, label, baseUrl);
  recordFailure(
    failure,
    read,
    [...shown, ...created].map((m) => m.text),
    chain,
  );
  assert.equal((read as { kind?: string }).kind, 'network');
  assertToldNotSent(shown, created, said);
}

/**
 * The first steps of a user against `ctx.service`, each checked: Add Environment (the key
 * check passes without a warning), the Engagements view lists the first page, Create
 * Engagement creates one that the tree then shows, the usage dashboard shows every section.
 * Every request carried the key.
 */
export async function walkThrough(ctx: TestContext, label: string): Promise<void> {
  const { service } = ctx;
  const shown = await addEnvironment(ctx, label, service.baseUrl);
  assert.deepEqual(
    shown.map((m) => m.text),
    [],
    'the key was accepted without a warning',
  );
  const envs = ctx.exports.environments!;
  assert.equal(envs.active()?.baseUrl, service.baseUrl);
  assert.equal(await envs.keyLocation(envs.active()!.id), 'secretStorage');
  assert.ok(
    service.requests.some((r) => r.keyId === 'key_admin'),
    'the key check reached the service',
  );

  await vscode.commands.executeCommand('engagementUsage.engagements.focus');
  const eng = ctx.exports.engagements!;
  const items = async () => (await eng.tree()).filter((i) => i.kind === 'engagement');
  const listed = await waitFor(async () => ((await items()).length ? items() : undefined), 'the tree');
  assert.equal(listed.length, 25);

  const name = `${label}: made`;
  ctx.ui.answer(...createAnswers(name));
  await runCommand('createEngagement');
  const made = service.store.engagements.find((e) => e.name === name);
  assert.ok(made, 'the service has it');
  await waitFor(async () => (await items()).some((i) => i.id === made.id), 'the new engagement in the tree');

  const probe = await openDashboard(ctx);
  const state = await settled(probe, 'every dashboard section', allReady);
  assert.equal(state.summary.status, 'ready');
  assert.ok(
    service.requests.every((r) => r.keyId === 'key_admin'),
    'every request carried the key',
  );
  // Leave the view hidden: other suites count the requests a visible view makes.
  await vscode.commands.executeCommand('workbench.view.explorer');
}

/** What `n` reads one after another cost at the service: requests, new TCP connections, TLS handshakes. */
export interface ReadCost {
  reads: number;
  requests: number;
  tcp: number;
  tls: number;
}

/** `n` reads of one page by the extension's client, one after another, counted at the service. */
export async function sequentialReads(ctx: TestContext, n: number): Promise<ReadCost> {
  const { service } = ctx;
  const before = { requests: service.requests.length, tcp: service.connections.tcp, tls: service.connections.tls };
  for (let i = 0; i < n; i++) await ctx.exports.environments!.api()!.engagements.list({ pageSize: 1 });
  return {
    reads: n,
    // Only these reads' own requests: the view or the status bar may read meanwhile.
    requests: service.requests
      .slice(before.requests)
      .filter((r) => r.method === 'GET' && r.path === '/v1/engagements' && r.query.pageSize === '1').length,
    tcp: service.connections.tcp - before.tcp,
    tls: service.connections.tls - before.tls,
  };
}

/** Prints how many connections and handshakes the whole test and its sequential reads took (`[network]`). */
export function recordConnections(label: string, service: RunningService, reads: ReadCost, extra = {}): void {
  console.log(
    `[network] ${JSON.stringify({
      case: label,
      vscode: vscode.version,
      requests: service.requests.length,
      tcpConnections: service.connections.tcp,
      tlsHandshakes: service.connections.tls,
      sequentialReads: reads,
      ...extra,
    })}`,
  );
}

/**
 * What a person reads when the connection failed before anything left the machine: the key
 * check's warning and the failed create each say what is wrong in words (`said`, with the
 * code in brackets); the create says plainly that nothing was changed and offers Retry, never
 * "may have made the change" nor Refresh.
 */
export function assertToldNotSent(shown: RecordedMessage[], created: RecordedMessage[], said: RegExp): void {
  const check = shown.find((m) => m.modal);
  assert.ok(check, `the key check warned; shown: ${shown.map((m) => m.text).join(' | ')}`);
  assert.match(check.text, said, 'the key check says what is wrong');
  const failed = created.find((m) => m.level === 'error');
  assert.ok(failed, `the create said it failed; shown: ${created.map((m) => m.text).join(' | ')}`);
  assert.match(failed.text, said, 'the create says what is wrong');
  assert.match(failed.text, /Nothing was sent, so nothing was changed\.$/);
  assert.doesNotMatch(failed.text, /may have made the change/);
  assert.ok(failed.actions.includes('Retry'), `Retry is offered: ${failed.actions.join(', ')}`);
  assert.ok(!failed.actions.includes('Refresh'), 'no "refresh to check": nothing can have changed');
}
