// Shared helpers of the integration suite (runs inside the VS Code extension host).
// The scripted Ui answers the very flows a person sees: it is installed through the
// extension's exports (`useUi`), the extension's own seam, not a separate code path.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Commands } from '../../../src/shared/constants';
import type { ExtensionExports } from '../../../src/testing/exports';
import type { BACK as ExtensionBack, InputStep, MessageLevel, MessageOptions, PickStep, Ui } from '../../../src/ui/ui';
import { startService, type RecordedRequest, type RunningService } from '../../service/server';
import { poll } from '../../poll';

// Integration tests import only types from src: they test the running extension, not a copy
// of its code bundled into the test. What they need of its values comes from the manifest or
// the registry the extension uses.
const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  publisher: string;
  name: string;
};
/** A command of the extension by its name in `Commands` (so tsc knows every one the tests run). */
export type CommandName = keyof typeof Commands;

/** The full id of one of the extension's commands. */
export function commandId(name: CommandName): string {
  return `engagementUsage.${name}`;
}

/** Runs one of the extension's commands, as the Command Palette or a menu would. */
export function runCommand<T = unknown>(name: CommandName, ...args: unknown[]): Thenable<T> {
  return vscode.commands.executeCommand<T>(commandId(name), ...args);
}

/** The extension's id, from package.json. */
export const EXTENSION_ID = `${manifest.publisher}.${manifest.name}`;
/** The extension's "Back" answer: a symbol of the global registry, so this is the very one it checks for. */
export const BACK: typeof ExtensionBack = Symbol.for('engagementUsage.back') as typeof ExtensionBack;

export interface RecordedPrompt {
  kind: 'input' | 'pick' | 'pickMany';
  title: string;
  /** An input box's prompt (the sentence under it). */
  prompt?: string;
  step?: number;
  totalSteps?: number;
  value?: string;
  password?: boolean;
  initialError?: string;
  items?: string[];
  /** Messages the step's validation gave to rejected answers. */
  rejected: string[];
  answer?: unknown;
}

export interface RecordedMessage {
  level: MessageLevel;
  text: string;
  modal: boolean;
  detail?: string;
  actions: string[];
  chosen?: string;
}

/** A scripted answer: gets the prompt as recorded and the step as the flow gave it. */
export type Answer = (prompt: RecordedPrompt, step: InputStep | PickStep<unknown>) => unknown;
type MessageAnswer = (message: RecordedMessage) => string | undefined;

/** What a test says of a notification it expects: words of its text, and what to click (nothing: dismiss). */
export interface ExpectedMessage {
  text: string | RegExp;
  level?: MessageLevel;
  action?: string;
  /** Every message that matches, at least one (e.g. alerts whose number depends on the date). */
  repeat?: boolean;
  /** A message met it (for `repeat`). */
  met?: boolean;
}

/**
 * Notifications no test said to expect (no queued answer, no standing answer, no `expectMessage`),
 * each with the test or hook that was running when it came. A person would have seen each: the
 * test running fails with them (see `failOnSurprises` below), as an unexpected prompt fails it.
 */
const surprises: Array<{ message: RecordedMessage; during: string }> = [];
/**
 * Checks in scripted answers (functions given to `answer` and `onMessages`) that threw: the
 * extension would catch the error in its flow (and show it as a notification of its own), so
 * each fails the test running, whatever the flow did with it.
 */
const failedChecks: Array<{ error: unknown; during: string }> = [];

/** Runs a scripted answer; a check in it that throws is recorded for the test, and thrown on. */
function scripted<T>(answer: () => T): T {
  try {
    return answer();
  } catch (error) {
    failedChecks.push({ error, during: running });
    throw error;
  }
}
/** The test running now, or what ran last (for where a surprise came from). */
let running = 'before the first test';

/** Answers prompts from queues; records every prompt and message. Unexpected prompts and notifications fail loudly. */
export class ScriptedUi implements Ui {
  readonly prompts: RecordedPrompt[] = [];
  readonly messages: RecordedMessage[] = [];
  private readonly answers: Answer[] = [];
  private readonly messageAnswers: MessageAnswer[] = [];
  /** The queued message answers that check the message (functions), not just click. */
  private readonly checkingAnswers = new Set<MessageAnswer>();
  /** Answers that only a message they match takes (others go on to the queue). */
  private readonly standingAnswers: Array<{ matches: (m: RecordedMessage) => boolean; action: string }> = [];
  private readonly saveAnswers: Array<vscode.Uri | undefined> = [];
  private readonly messageWaiters: Array<() => void> = [];
  /** Notifications the test said would come, not yet come. */
  private readonly expected: ExpectedMessage[] = [];

  constructor() {
    uis.add(this);
  }

  /**
   * Declares a notification this test expects: the next message whose text matches `text`
   * (words it contains, or a pattern), of `level` when given, whatever else comes first. It is
   * answered with `action` (undefined: dismissed). With `repeat`, every message that matches
   * until the test ends (at least one). A declared message that never comes fails the test, as
   * a message no test declared does.
   */
  expectMessage(
    text: string | RegExp,
    options: { level?: MessageLevel; action?: string; repeat?: boolean } = {},
  ): this {
    this.expected.push({ text, ...options });
    return this;
  }

  /** Takes the expectations no message met (and forgets them). */
  dropExpected(): ExpectedMessage[] {
    return this.expected.splice(0).filter((e) => !e.met);
  }

  /** Queue answers for the next prompts (inputs and picks, in order). */
  answer(...answers: Array<Answer | string | typeof ExtensionBack | undefined>): this {
    for (const a of answers) this.answers.push(typeof a === 'function' ? a : () => a);
    return this;
  }

  /** Drops the prompt answers no prompt took (a failed test's), so they cannot answer the next test's prompts. */
  dropAnswers(): void {
    this.answers.length = 0;
  }

  /** Queue answers for the next messages: the action label to click, or undefined to dismiss. */
  onMessages(...answers: Array<MessageAnswer | string | undefined>): this {
    for (const a of answers) {
      if (typeof a === 'function') this.checkingAnswers.add(a);
      this.messageAnswers.push(typeof a === 'function' ? a : () => a);
    }
    return this;
  }

  /**
   * Drops the message answers no message took, and says how many of them were functions: a
   * function's assertions never ran, so the test that queued it proved less than it says.
   */
  dropMessageAnswers(): number {
    const unused = this.messageAnswers.splice(0).filter((a) => this.checkingAnswers.has(a)).length;
    this.checkingAnswers.clear();
    return unused;
  }

  /** Drops the files queued for save dialogs that none took. */
  dropSaveAnswers(): void {
    this.saveAnswers.length = 0;
  }

  /**
   * Answers the next message that `matches` with `action`, whatever else is shown first: a
   * notification left over from an earlier step cannot take this answer.
   */
  answerWhen(matches: (message: RecordedMessage) => boolean, action: string): this {
    this.standingAnswers.push({ matches, action });
    return this;
  }

  /** Takes back a standing answer no message took. */
  dropStanding(matches: (message: RecordedMessage) => boolean): void {
    const i = this.standingAnswers.findIndex((a) => a.matches === matches);
    if (i >= 0) this.standingAnswers.splice(i, 1);
  }

  onSave(...uris: Array<vscode.Uri | undefined>): this {
    this.saveAnswers.push(...uris);
    return this;
  }

  get pending(): number {
    return this.answers.length;
  }

  input(step: InputStep): Promise<string | typeof ExtensionBack | undefined> {
    const prompt: RecordedPrompt = {
      kind: 'input',
      title: step.title,
      prompt: step.prompt,
      step: step.step,
      totalSteps: step.totalSteps,
      value: step.value,
      password: step.password,
      initialError: step.initialError,
      rejected: [],
    };
    this.prompts.push(prompt);
    for (;;) {
      const next = this.answers.shift();
      if (!next)
        return Promise.reject(new Error(`No scripted answer for the input "${step.title}" (step ${step.step ?? '-'})`));
      const value = scripted(() => next(prompt, step)) as string | typeof ExtensionBack | undefined;
      if (typeof value === 'string') {
        const problem = step.validate?.(value);
        if (problem) {
          // A person sees the message and types again: the next answer is used.
          prompt.rejected.push(problem);
          continue;
        }
      }
      prompt.answer = value;
      return Promise.resolve(value);
    }
  }

  pick<T>(step: PickStep<T>): Promise<T | typeof ExtensionBack | undefined> {
    const prompt: RecordedPrompt = {
      kind: 'pick',
      title: step.title,
      step: step.step,
      totalSteps: step.totalSteps,
      items: step.items.map((i) => i.label),
      rejected: [],
    };
    return this.answerPick<T | typeof ExtensionBack | undefined>(prompt, step);
  }

  pickMany<T>(step: Omit<PickStep<T>, 'freeEntry'>): Promise<T[] | undefined> {
    const prompt: RecordedPrompt = {
      kind: 'pickMany',
      title: step.title,
      items: step.items.map((i) => i.label),
      rejected: [],
    };
    return this.answerPick<T[] | undefined>(prompt, step);
  }

  /** Records a pick and answers it with the next scripted answer. */
  private answerPick<V>(prompt: RecordedPrompt, step: PickStep<unknown>): Promise<V> {
    this.prompts.push(prompt);
    const next = this.answers.shift();
    if (!next) return Promise.reject(new Error(`No scripted answer for the pick "${step.title}"`));
    const value = scripted(() => next(prompt, step));
    prompt.answer = value;
    return Promise.resolve(value as V);
  }

  message(
    level: MessageLevel,
    text: string,
    options: MessageOptions,
    ...actions: string[]
  ): Promise<string | undefined> {
    const message: RecordedMessage = { level, text, modal: options.modal ?? false, detail: options.detail, actions };
    this.messages.push(message);
    const standing = this.standingAnswers.findIndex((a) => a.matches(message));
    const expected = this.expected.findIndex((e) => expectedMatches(e, message));
    if (standing >= 0) message.chosen = this.standingAnswers.splice(standing, 1)[0].action;
    else if (expected >= 0) {
      const met = this.expected[expected];
      if (met.repeat) met.met = true;
      else this.expected.splice(expected, 1);
      message.chosen = met.action;
    } else if (this.messageAnswers.length > 0) {
      const answer = this.messageAnswers.shift()!;
      try {
        message.chosen = scripted(() => answer(message));
      } catch {
        // Recorded for the test; the message is dismissed, as it would be unanswered.
      }
    } else surprises.push({ message, during: running });
    for (const wake of this.messageWaiters.splice(0)) wake();
    return Promise.resolve(message.chosen);
  }

  saveFile(): Promise<vscode.Uri | undefined> {
    return Promise.resolve(this.saveAnswers.shift());
  }
}

function expectedMatches(expected: ExpectedMessage, message: RecordedMessage): boolean {
  if (expected.level && expected.level !== message.level) return false;
  return typeof expected.text === 'string' ? message.text.includes(expected.text) : expected.text.test(message.text);
}

/** Every scripted Ui made in this run (one per suite context), for the checks below. */
const uis = new Set<ScriptedUi>();

function describeMessage(m: RecordedMessage): string {
  return `${m.modal ? 'modal ' : ''}${m.level} “${m.text}”${m.actions.length ? ` [${m.actions.join(', ')}]` : ''}`;
}

/** The surprises so far and the expectations no message met, as one error (and forgets them), or nothing. */
function takeSurprises(): Error | undefined {
  const came = surprises.splice(0).map((s) => `${describeMessage(s.message)} (during ${s.during})`);
  const missing = [...uis].flatMap((ui) => ui.dropExpected()).map((e) => `“${String(e.text)}”`);
  const failed = failedChecks
    .splice(0)
    .map((f) => `${f.error instanceof Error ? f.error.message : String(f.error)} (during ${f.during})`);
  if (!came.length && !missing.length && !failed.length) return undefined;
  return new Error(
    [
      failed.length ? `check(s) in scripted answers failed: ${failed.join('; ')}` : '',
      came.length ? `notification(s) no test expected: ${came.join('; ')}` : '',
      missing.length ? `notification(s) expected that never came: ${missing.join('; ')}` : '',
    ]
      .filter(Boolean)
      .join('. '),
  );
}

/**
 * Fails each test on the notifications it was not told to expect, as the Ui fails it on a
 * prompt: the test itself fails when its body ends, naming them (a notification its clean-up
 * hooks, a later hook or an earlier test left fails the next test, naming where it came from;
 * one left after the last test fails the root after hook). A test that failed anyway carries
 * them in its error. Registered once, at the root of the suite, before any test runs (every
 * test file imports this module); no root after-each hook throws, which would stop the run.
 */
function failOnSurprises(root: Mocha.Suite): void {
  const wrap = (suite: Mocha.Suite): void => {
    for (const test of suite.tests) {
      const body = test.fn;
      // A test with a `done` callback keeps its body: the next test reports what it left.
      if (!body || body.length > 0) continue;
      test.fn = async function (this: Mocha.Context) {
        try {
          await (body as (this: Mocha.Context) => unknown).call(this);
        } catch (error) {
          const also = takeSurprises();
          if (also && error instanceof Error) error.message += `\n(and: ${also.message})`;
          throw error;
        }
        const error = takeSurprises();
        if (error) throw error;
      };
    }
    suite.suites.forEach(wrap);
  };
  wrap(root);
}

before(function () {
  if (this.test?.parent) failOnSurprises(this.test.parent);
});
beforeEach(function () {
  running = `“${this.currentTest?.fullTitle() ?? '?'}” (or its clean-up)`;
});
afterEach(function () {
  running = `the hooks after “${this.currentTest?.fullTitle() ?? '?'}”`;
});
after(() => {
  const error = takeSurprises();
  if (error) throw error;
});

/** Picks the item whose label contains `text` (labels may carry a `$(icon)` prefix). */
export function pickByLabel(text: string): Answer {
  return (_prompt, step) => {
    assert.ok('items' in step, `expected a pick, got the input "${step.title}"`);
    const item = step.items.find((i) => i.label.includes(text));
    assert.ok(item, `no item "${text}" in ${step.items.map((i) => i.label).join(', ')}`);
    return item.value;
  };
}

/** Answers a free-entry pick with `text`, as if typed into its box (nothing when the step takes no free entry). */
export function typeIntoPick(text: string): Answer {
  return (_prompt, step) => ('freeEntry' in step && step.freeEntry ? step.freeEntry.value(text) : undefined);
}

/** Picks the first item (nothing when the step is an input). */
export const firstItem: Answer = (_prompt, step) => ('items' in step ? step.items[0].value : undefined);

/**
 * The answers of Create Engagement up to its last step: the name, the type typed as
 * "onboarding", the description, and the first item of the confirmation.
 */
export function createAnswers(name: string, description = ''): Array<Answer | string> {
  return [name, typeIntoPick('onboarding'), description, firstItem];
}

/** Polls until `check` returns a truthy value; fails with `what` after `timeoutMs`. */
export function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 30_000): Promise<NonNullable<T>> {
  return poll(check, what, timeoutMs);
}

let markers = 0;

/**
 * The requests `service` logged before a request the test sends it now: for asserting that the
 * extension sent nothing without waiting a fixed time. The service logs each request as it
 * arrives, on one loopback, so what the extension sent before the marker is in the log ahead of
 * it. The marker (`GET /__marker/N`, no key) stays in the log; callers read what is before it.
 */
export async function requestsBeforeMarker(service: RunningService, what: string): Promise<RecordedRequest[]> {
  const marker = `/__marker/${++markers}`;
  try {
    const answer = await fetch(`${service.url}${marker}`, { signal: AbortSignal.timeout(10_000) });
    await answer.arrayBuffer();
  } catch (error) {
    throw new Error(`The marker request after ${what} got no answer: ${String(error)}`, { cause: error });
  }
  const at = service.requests.findIndex((r) => r.path === marker);
  assert.ok(at >= 0, `the service logged the marker request after ${what}`);
  return service.requests.slice(0, at);
}

export async function activate(): Promise<ExtensionExports> {
  const ext = vscode.extensions.getExtension<ExtensionExports>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is installed`);
  return ext.isActive ? ext.exports : ext.activate();
}

export interface TestContext {
  exports: ExtensionExports;
  service: RunningService;
  ui: ScriptedUi;
}

/** Starts the reference service and the extension, with no environment configured. */
export async function setup(): Promise<TestContext> {
  const service = await startService({ port: 0 });
  const exports = await activate();
  const ui = new ScriptedUi();
  exports.useUi(ui);
  await clearEnvironments(exports, ui);
  return { exports, service, ui };
}

/**
 * Registers the hooks that give a `describe` its context: before its tests, the reference
 * service and the extension (`setup`); after them, `teardown`. The object returned is filled
 * in by the before hook, so the suite's tests and its own later hooks use it as it is.
 * With `afresh`, every test starts afresh: before it, the service's data as seeded and no
 * prompt or message recorded; after it, every dashboard closed, `settings` removed and every
 * environment removed.
 */
export function suiteContext(options: { afresh?: boolean; settings?: string[] } = {}): TestContext {
  const ctx = {} as TestContext;
  before(async () => {
    Object.assign(ctx, await setup());
  });
  after(() => teardown(ctx.service ? ctx : undefined));
  if (options.afresh) {
    beforeEach(() => {
      ctx.service.reset();
      ctx.ui.prompts.length = 0;
      ctx.ui.messages.length = 0;
    });
    afterEach(async function () {
      const checkMessageAnswers = dropLeftoverAnswers(ctx, this.currentTest);
      for (const dashboard of ctx.exports.usage?.dashboards() ?? []) dashboard.close();
      for (const name of options.settings ?? []) await setSetting(name, undefined);
      await clearEnvironments(ctx.exports, ctx.ui);
      checkMessageAnswers();
    });
  }
  return ctx;
}

/**
 * Drops the message and save answers a test queued and nothing took, so they cannot answer the
 * next test's, and returns what says so: a passing test whose message checks (functions
 * given to `onMessages`) never ran passed without proving them, and the returned check fails it.
 */
export function dropLeftoverAnswers(ctx: TestContext, test: Mocha.Test | undefined): () => void {
  ctx.ui.dropSaveAnswers();
  const unchecked = ctx.ui.dropMessageAnswers();
  return () => {
    if (unchecked > 0 && test?.state === 'passed')
      throw new Error(
        `“${test.title}”: ${unchecked} message check(s) queued with onMessages never ran (the message did not come)`,
      );
  };
}

/** A fresh folder for a `describe`'s files: made before its tests, removed with its contents after them. */
export function tempFolder(prefix: string): string {
  const folder = path.join(os.tmpdir(), `${prefix}${randomUUID()}`);
  before(() => fs.mkdirSync(folder, { recursive: true }));
  after(() => fs.rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/** Closes every usage dashboard, removes every environment, and stops the reference service. */
export async function teardown(ctx: TestContext | undefined): Promise<void> {
  if (!ctx) return;
  for (const dashboard of ctx.exports.usage?.dashboards() ?? []) dashboard.close();
  await clearEnvironments(ctx.exports, ctx.ui);
  ctx.exports.useUi(undefined);
  await ctx.service.close();
}

/** Sets one of the extension's settings in the user's settings; undefined removes it. */
export async function setSetting(name: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('engagementUsage').update(name, value, vscode.ConfigurationTarget.Global);
}

/**
 * Removes every environment (and its key) the way a user would, and empties the setting. The
 * confirmation is answered by a standing answer (a late notification of an earlier test cannot
 * take it), once per environment; one left after that fails the test with the messages.
 */
export async function clearEnvironments(exports: ExtensionExports, ui: ScriptedUi): Promise<void> {
  const config = vscode.workspace.getConfiguration('engagementUsage');
  if ((config.inspect('environments')?.globalValue as unknown[] | undefined)?.length)
    await config.update('environments', undefined, vscode.ConfigurationTarget.Global);
  for (const env of exports.environments?.list() ?? []) {
    const confirm = (m: RecordedMessage) => m.modal && m.actions.includes('Remove') && m.text.includes(env.label);
    ui.answerWhen(confirm, 'Remove');
    await runCommand('removeEnvironment', env.id);
    ui.dropStanding(confirm);
  }
  const left = exports.environments?.list() ?? [];
  assert.deepEqual(
    left.map((e) => `${e.label} (${e.source})`),
    [],
    `no environment is left; last messages: ${ui.messages
      .slice(-5)
      .map((m) => m.text)
      .join(' | ')}`,
  );
}

type ListedEnvironment = ReturnType<NonNullable<ExtensionExports['environments']>['list']>[number];

/**
 * Defines one environment in the environments setting of a scope (the user's settings unless
 * told) and waits until the extension lists it (or the one `listed` finds); resolves to it.
 */
export async function defineEnvironment(
  ctx: TestContext,
  environment: { label: string; baseUrl: string },
  target = vscode.ConfigurationTarget.Global,
  listed = (e: ListedEnvironment) => e.label === environment.label,
): Promise<ListedEnvironment> {
  await vscode.workspace.getConfiguration('engagementUsage').update('environments', [environment], target);
  const scope = target === vscode.ConfigurationTarget.Global ? 'settings' : 'the workspace settings';
  return waitFor(() => ctx.exports.environments?.list().find(listed), `environment ${environment.label} from ${scope}`);
}

/**
 * Configures an environment as a team would share it (the setting) and enters its key the
 * way a user does (the Replace API Key command, answering its input). Resolves to its id.
 */
export async function useEnvironment(ctx: TestContext, key: string, label = 'Test'): Promise<string> {
  const env = await defineEnvironment(ctx, { label, baseUrl: ctx.service.baseUrl });
  ctx.ui.answer(key);
  await runCommand('replaceKey', env.id);
  assert.equal(await ctx.exports.environments?.keyLocation(env.id), 'secretStorage');
  return env.id;
}
