// The integration suite's entry, loaded by VS Code as `extensionTestsPath` (desktop VS Code
// through @vscode/test-electron, or code-server's extension host). Runs mocha over the
// bundled test files (suite.js beside this file; activation first: it checks the extension
// is not active yet), and reports to the launcher through files named by environment variables:
//   EUS_TEST_OUTPUT   spec-style output, appended as it happens (the launcher streams it)
//   EUS_TEST_RESULTS  JSON written at the end: stats, passes, failures
//   EUS_TEST_GREP     only tests whose full title matches this pattern
//   EUS_TEST_RESTRICTED  run only the *.restricted.test.js files (VS Code in Restricted Mode,
//                     see run-integration.mjs --restricted); without it they are left out
// code-server's extension host inherits code-server's environment; test-electron passes
// `extensionTestsEnv`. Without the variables, output goes to the console only.
// esbuild bundles every test file into suite.js (activation first) and the Restricted Mode
// files into restricted.js; mocha loads the one asked for.
import fs from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';
import { keepNewestOnly } from './support/versions';

export interface TestRecord {
  title: string;
  fullTitle: string;
  file?: string;
  durationMs?: number;
  message?: string;
  stack?: string;
}

/** One test file's share of the run: its top-level describes, hooks included. */
export interface FileTime {
  file: string;
  tests: number;
  durationMs: number;
}

export interface SuiteResults {
  stats: { tests: number; passes: number; failures: number; pending: number; durationMs: number };
  passes: TestRecord[];
  failures: TestRecord[];
  /** Each test file's time, slowest first (the launcher prints them: where a run's time goes). */
  files: FileTime[];
  /** Mocha's spec output and whatever tests printed with console.log. */
  output: string;
  grep?: string;
}

/** The suite's one bundle beside this file (every test file, activation first), or the Restricted Mode one. */
function suiteBundle(dir: string, restricted: boolean): string {
  return path.join(dir, restricted ? 'restricted.js' : 'suite.js');
}

/** The test file of each top-level describe: the bundle names each file before loading it (esbuild.mjs). */
const files = new WeakMap<Mocha.Suite, string>();

function fileOf(runnable: Mocha.Runnable | Mocha.Suite): string {
  let suite: Mocha.Suite | undefined = runnable instanceof Mocha.Suite ? runnable : runnable.parent;
  while (suite?.parent && !suite.parent.root) suite = suite.parent;
  return (suite && files.get(suite)) ?? '(root hooks)';
}

/** Times each file's top-level describes as the runner enters and leaves them. */
function fileTimer(mocha: Mocha): { watch(runner: Mocha.Runner): void; times(): FileTime[] } {
  const byFile = new Map<string, FileTime>();
  const entry = (file: string): FileTime => {
    let time = byFile.get(file);
    if (!time) byFile.set(file, (time = { file, tests: 0, durationMs: 0 }));
    return time;
  };
  mocha.suite.on(Mocha.Suite.constants.EVENT_SUITE_ADD_SUITE, (child: Mocha.Suite) => {
    const file = (globalThis as { __eusTestFile?: string }).__eusTestFile;
    if (file) files.set(child, file);
  });
  const started = new Map<Mocha.Suite, number>();
  return {
    watch(runner) {
      runner.on('suite', (suite) => {
        if (suite.parent?.root) started.set(suite, Date.now());
      });
      runner.on('suite end', (suite) => {
        const at = started.get(suite);
        if (at !== undefined) entry(fileOf(suite)).durationMs += Date.now() - at;
      });
      runner.on('test end', (test) => entry(fileOf(test)).tests++);
    },
    times: () => [...byFile.values()].sort((a, b) => b.durationMs - a.durationMs),
  };
}

function record(test: Mocha.Test, error?: unknown): TestRecord {
  const err = error as { message?: string; stack?: string } | undefined;
  return {
    title: test.title,
    fullTitle: test.fullTitle(),
    file: test.file,
    durationMs: test.duration,
    message: err?.message,
    stack: err?.stack,
  };
}

/** Routes every line mocha's reporter and the tests print to the output file as well. */
function captureOutput(outputFile: string | undefined): { restore(): void; text(): string } {
  const chunks: string[] = [];
  const write = (text: string) => {
    chunks.push(text);
    if (outputFile) fs.appendFileSync(outputFile, text);
  };
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  const originalReporterLog = base.consoleLog;
  const format = (args: unknown[]) =>
    `${args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? (a.stack ?? a.message) : JSON.stringify(a))).join(' ')}\n`;
  const formatReporter = (args: unknown[]) => {
    // The reporter uses printf-style "%s" / "%d" placeholders.
    if (typeof args[0] !== 'string') return format(args);
    let rest = args.slice(1);
    const text = args[0].replace(/%[sd]/g, () => {
      const value = rest[0];
      rest = rest.slice(1);
      return String(value);
    });
    return format([text, ...rest]);
  };
  base.consoleLog = (...args: unknown[]) => {
    write(formatReporter(args));
    originalReporterLog(...args);
  };
  // The extension host defines console.log & co. with a setter that does nothing, so the
  // console itself is swapped for the run: one that writes to the output file as well.
  const hostConsole = globalThis.console;
  const tee = (method: 'log' | 'info' | 'warn' | 'error', prefix: string) => ({
    value: (...args: unknown[]) => {
      write(`${prefix}${format(args)}`);
      hostConsole[method](...args);
    },
  });
  globalThis.console = Object.create(hostConsole, {
    log: tee('log', ''),
    info: tee('info', ''),
    warn: tee('warn', '[warn] '),
    error: tee('error', '[error] '),
  }) as Console;
  return {
    restore() {
      base.consoleLog = originalReporterLog;
      globalThis.console = hostConsole;
    },
    text: () => chunks.join(''),
  };
}

export async function run(): Promise<void> {
  const outputFile = process.env.EUS_TEST_OUTPUT || undefined;
  const resultsFile = process.env.EUS_TEST_RESULTS || undefined;
  const grep = process.env.EUS_TEST_GREP || undefined;
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec' });
  if (grep) mocha.grep(grep);
  mocha.addFile(suiteBundle(__dirname, process.env.EUS_TEST_RESTRICTED === '1'));

  const timer = fileTimer(mocha);
  const capture = captureOutput(outputFile);
  const started = Date.now();
  const passes: TestRecord[] = [];
  const failures: TestRecord[] = [];
  let pending = 0;
  try {
    await mocha.loadFilesAsync();
    const unmatched = keepNewestOnly(mocha.suite, fileOf);
    if (unmatched.length) throw new Error(`support/versions.ts names tests that do not exist: ${unmatched.join('; ')}`);
    await new Promise<void>((resolve) => {
      const runner = mocha.run(() => resolve());
      timer.watch(runner);
      runner.on('pass', (test) => passes.push(record(test)));
      runner.on('fail', (test, error) => failures.push(record(test, error)));
      runner.on('pending', () => pending++);
    });
  } catch (error) {
    const err = error as Error;
    failures.push({
      title: 'loading the test files',
      fullTitle: 'loading the test files',
      message: err.message,
      stack: err.stack,
    });
  } finally {
    capture.restore();
  }

  const results: SuiteResults = {
    stats: {
      tests: passes.length + failures.length + pending,
      passes: passes.length,
      failures: failures.length,
      pending,
      durationMs: Date.now() - started,
    },
    passes,
    failures,
    files: timer.times(),
    output: capture.text(),
    grep,
  };
  if (resultsFile) fs.writeFileSync(resultsFile, JSON.stringify(results, null, 2));
  if (failures.length > 0) throw new Error(`${failures.length} integration test(s) failed`);
  if (passes.length === 0) throw new Error(grep ? `no integration test matched ${grep}` : 'no integration test ran');
}
