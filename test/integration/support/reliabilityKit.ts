// What the Reliability suites share: a watch on unhandled rejections and uncaught exceptions
// in the extension host, the figures they add up (printed once at the end of the run), and a
// search for API keys in every place the extension writes to or shows.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { EngagementsExports } from '../../../src/testing/engagements';
import type { DashboardProbe, UsageExports } from '../../../src/testing/usage';
import type { FaultRule } from '../../service/server';
import { type TestContext, runCommand, setSetting, setup, teardown } from './helpers';

export interface Figures {
  /** Fault scenarios tried (a fault kind against one endpoint as one feature calls it). */
  faultsTried: number;
  /** Hostile or odd inputs tried, from the service and from the user. */
  inputsTried: number;
  /** Failed GETs and how many requests they took (bounded retries). */
  getsFailed: number;
  getRequests: number;
  /** POST/PATCH that failed, and how many of them the extension sent again by itself. */
  writesFailed: number;
  writeRepeats: number;
  /** Places searched for keys, and keys found there. */
  placesSearched: number;
  keysFound: number;
  unhandledErrors: number;
  /** Measured figures of the load suite, printed as they are. */
  measured: Record<string, string>;
}

/** One tally for the whole run (the suite is one bundle, so this module is loaded once). */
let tally: Figures | undefined;
let reportRegistered = false;

export function figures(): Figures {
  tally ??= {
    faultsTried: 0,
    inputsTried: 0,
    getsFailed: 0,
    getRequests: 0,
    writesFailed: 0,
    writeRepeats: 0,
    placesSearched: 0,
    keysFound: 0,
    unhandledErrors: 0,
    measured: {},
  };
  return tally;
}

/** Prints the figures after the last test of the run (a root hook, registered once at load). */
function registerReport(): void {
  if (reportRegistered) return;
  reportRegistered = true;
  after(() => {
    const f = figures();
    if (f.faultsTried + f.inputsTried + f.placesSearched === 0) return;
    const lines = [
      'Reliability figures',
      `  faults tried: ${f.faultsTried}`,
      `  inputs tried: ${f.inputsTried}`,
      `  failed GETs: ${f.getsFailed}, requests they took: ${f.getRequests} (at most 3 each)`,
      `  failed POST/PATCH: ${f.writesFailed}, sent again by the extension: ${f.writeRepeats}`,
      `  places searched for keys: ${f.placesSearched}, keys found outside SecretStorage: ${f.keysFound}`,
      `  unhandled errors in the extension host: ${f.unhandledErrors}`,
      ...Object.entries(f.measured).map(([name, value]) => `  ${name}: ${value}`),
    ];
    console.log(lines.join('\n'));
  });
}

registerReport();

/**
 * Hooks of a Reliability suite: listens for unhandled rejections and uncaught exceptions in
 * the extension host while it runs, and fails the test during which one happened. (Mocha
 * also fails the running test on an uncaught exception; rejections it only passes on.)
 */
export function watchUnhandled(): { errors: string[] } {
  const seen = { errors: [] as string[] };
  // Mocha re-emits an unhandled rejection once it has looked at it: each reason counts once.
  const reasons = new WeakSet<object>();
  const onRejection = (reason: unknown) => {
    if (typeof reason === 'object' && reason !== null) {
      if (reasons.has(reason)) return;
      reasons.add(reason);
    }
    seen.errors.push(`unhandled rejection: ${describe(reason)}`);
  };
  const onException = (error: unknown) => seen.errors.push(`uncaught exception: ${describe(error)}`);
  let checked = 0;
  before(() => {
    process.on('unhandledRejection', onRejection);
    process.on('uncaughtException', onException);
  });
  afterEach(async () => {
    // Node reports a rejection left unhandled once the microtask queue has drained, before the
    // event loop's next phase: an immediate callback comes after every report due so far.
    await new Promise((resolve) => setImmediate(resolve));
    const fresh = seen.errors.slice(checked);
    checked = seen.errors.length;
    figures().unhandledErrors += fresh.length;
    assert.deepEqual(fresh, [], 'no unhandled rejection or exception in the extension host');
  });
  after(() => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  });
  return seen;
}

export interface ReliabilitySuite {
  /** Filled in before the suite's tests (see `suiteContext`). */
  readonly ctx: TestContext;
  /** What the watch on unhandled errors has seen so far. */
  readonly seen: { errors: string[] };
  eng: () => EngagementsExports;
  usage: () => UsageExports;
  /** Adds hostile or odd inputs tried to the figures. */
  inputs: (count: number) => void;
}

/**
 * Registers the hooks every Reliability suite has: the watch on unhandled errors; before the
 * tests, the reference service and the extension, then `settings` set (an undefined value is
 * one only a test sets); after them, `cleanUp` (what the suite's tests leave that must go
 * before the environments do), the settings removed and `teardown`.
 */
export function reliabilitySuite(
  settings: Record<string, unknown> = {},
  cleanUp?: (ctx: TestContext) => Promise<void>,
): ReliabilitySuite {
  const seen = watchUnhandled();
  const ctx = {} as TestContext;
  before(async () => {
    Object.assign(ctx, await setup());
    for (const [name, value] of Object.entries(settings)) if (value !== undefined) await setSetting(name, value);
  });
  after(async () => {
    if (!ctx.service) return;
    await cleanUp?.(ctx);
    for (const name of Object.keys(settings)) await setSetting(name, undefined);
    await teardown(ctx);
  });
  return {
    ctx,
    seen,
    eng: () => ctx.exports.engagements!,
    usage: () => ctx.exports.usage!,
    inputs: (count) => {
      figures().inputsTried += count;
    },
  };
}

function describe(value: unknown): string {
  return value instanceof Error ? `${value.name}: ${value.message}` : String(value);
}

/** Refreshes the Engagements tree once against a 400 that answers with `answer` (a body, or raw text as sent). */
export async function refreshRefusedWith(ctx: TestContext, answer: Pick<FaultRule, 'body' | 'rawBody'>): Promise<void> {
  ctx.service.faults.add({ method: 'GET', path: '/engagements', kind: 'status', status: 400, ...answer, times: 1 });
  await runCommand('refreshEngagements');
}

/** The full key and its secret part (after the key id), for searching. */
export function secretsOf(...keys: string[]): string[] {
  return keys.flatMap((key) => [key, key.slice(key.indexOf('.') + 1)]).filter((s) => s.length >= 6);
}

/** Every text file under a folder (bounded), for the log search. */
function filesUnder(dir: string, depth = 4): string[] {
  if (depth < 0 || !fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full, depth - 1) : entry.isFile() ? [full] : [];
  });
}

/** The places a key must never be, as text, by name. */
export async function keyFreeZones(
  ctx: TestContext,
  dashboards: DashboardProbe[] = [],
): Promise<Record<string, string>> {
  const config = vscode.workspace.getConfiguration();
  const zones: Record<string, string> = {};
  const section = vscode.workspace.getConfiguration('engagementUsage');
  const names = Object.keys(section).filter(
    (k) => typeof (section as unknown as Record<string, unknown>)[k] !== 'function',
  );
  zones['settings (every scope)'] = JSON.stringify([
    config.inspect('engagementUsage'),
    ...names.map((n) => section.inspect(n)),
  ]);
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const file = path.join(folder.uri.fsPath, '.vscode', 'settings.json');
    if (fs.existsSync(file)) zones[`workspace settings file ${file}`] = fs.readFileSync(file, 'utf8');
  }
  zones.mementos = JSON.stringify(ctx.exports.environments?.mementos() ?? {});
  // The extension's log channel writes to a file under its logUri; the folder above it holds
  // the extension host's own log too.
  const logDir = path.dirname(ctx.exports.environments!.logUri().fsPath);
  const logs = filesUnder(logDir).filter((f) => f.endsWith('.log'));
  assert.ok(
    logs.some((f) => f.includes('eus-tools.engagement-usage')),
    `the extension's log file is among ${logs.join(', ')}`,
  );
  for (const file of logs) zones[`log ${path.relative(logDir, file)}`] = fs.readFileSync(file, 'utf8');
  zones['messages shown'] = JSON.stringify(ctx.ui.messages);
  // What the user typed into a password box is the key itself: everything else of the prompts.
  zones['input boxes and picks'] = JSON.stringify(
    ctx.ui.prompts.map(({ answer, ...rest }) => (rest.password ? rest : { ...rest, answer })),
  );
  const eng = ctx.exports.engagements;
  if (eng)
    zones['engagements view'] = JSON.stringify({
      items: await eng.tree().catch(() => []),
      message: eng.message(),
      description: eng.description(),
      notices: eng.notices(),
    });
  zones['status bar'] = JSON.stringify({
    environment: ctx.exports.environments?.statusBarText(),
    usage: ctx.exports.usage?.statusBar(),
  });
  for (const probe of dashboards) {
    zones[`dashboard ${probe.title} html`] = probe.html();
    zones[`dashboard ${probe.title} messages and state`] = JSON.stringify({
      posted: probe.messages(),
      state: probe.state(),
      errors: probe.webviewErrors(),
    });
  }
  return zones;
}

/** A text with JSON escapes (`\uXXXX`, `\/`) and percent-encoding undone, so an escaped key is found too. */
export function decoded(text: string): string {
  let out = text;
  // Bounded: escapes of escapes are undone a few levels deep (JSON inside JSON).
  for (let i = 0; i < 3; i++) {
    const next = out
      .replace(/\\+u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\+\//g, '/')
      .replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === out) break;
    out = next;
  }
  return out;
}

/** The places holding a secret, as written or escaped (the finding names the place and the secret's first characters only). */
export function findSecrets(zones: Record<string, string>, secrets: string[]): string[] {
  const found: string[] = [];
  for (const [zone, text] of Object.entries(zones)) {
    const plain = decoded(text);
    for (const secret of secrets)
      if (text.includes(secret) || plain.includes(secret)) found.push(`${zone} holds ${secret.slice(0, 4)}…`);
  }
  return found;
}

/** Searches the places and adds to the figures. Returns the findings. */
export function searchForKeys(zones: Record<string, string>, secrets: string[]): string[] {
  const found = findSecrets(zones, secrets);
  const f = figures();
  f.placesSearched += Object.keys(zones).length;
  f.keysFound += found.length;
  return found;
}
