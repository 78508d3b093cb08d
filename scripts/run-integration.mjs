// `node scripts/run-integration.mjs [--grep pattern] [--timeout seconds] [--production] [--restricted] [--vscode oldest|newest] [--built] [--shard i/n]`
// --built: the bundles are already built (`npm test` passes it where the stage before built the same ones).
// --shard i/n: only the test files of shard i of n (test/integration/support/versions.ts deals them).
// --vscode: which VS Code runs the suite (scripts/vscode/prereqs.mjs, VSCODE_VERSIONS): `oldest`
// (default; the oldest the manifest accepts, code-server 4.100.3) or `newest` (code-server 4.139.1).
// --restricted: only test/integration/*.restricted.test.ts, with VS Code's workspace trust ON
// and a test folder that is not trusted (Restricted Mode), whose .vscode/settings.json defines
// an environment and a default environment (which the extension must not use there).
// Runs test/integration inside a real VS Code, with this repository as the extension under
// development: a desktop VS Code through @vscode/test-electron when VSCODE_EXECUTABLE names
// one, otherwise code-server (the --vscode version) opened in headless Chromium. The same
// suite either way (out/test/integration/index.js). Prints mocha's spec output, each test
// file's seconds, and the summary;
// exits non-zero on a failure, a crash of the extension host, or the overall timeout, and
// stops code-server and Chromium on every exit path (SIGINT/SIGTERM included).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, ensureCodeServerPrereqs, ensureNetworkTestTools, vscodeVersion } from './vscode/prereqs.mjs';
import {
  allowExtensionTestsPayload,
  extensionTestsPayloadAllowed,
  launchBrowser,
  startCodeServer,
  stopAll,
  workbenchUrl,
} from './vscode/code-server.mjs';
import { certificatesForRun } from './vscode/tls.mjs';

// --production: the extension's bundles minified as they ship, with the test seams kept (esbuild's
// --seams: the suites read through them), e.g. for `npm run bench`.
const { values } = parseArgs({
  options: {
    grep: { type: 'string' },
    shard: { type: 'string' },
    timeout: { type: 'string', default: '2400' },
    production: { type: 'boolean', default: false },
    restricted: { type: 'boolean', default: false },
    vscode: { type: 'string', default: 'oldest' },
    built: { type: 'boolean', default: false },
  },
});
vscodeVersion(values.vscode); // an unknown --vscode stops here, before the build
/**
 * What a repository could ship in .vscode/settings.json: a "Production" pointing elsewhere,
 * and every other setting of the extension at a value that would change what it does (the
 * restricted suite checks each is ignored).
 */
const RESTRICTED_WORKSPACE_SETTINGS = {
  'engagementUsage.environments': [
    { label: 'Production', baseUrl: 'http://127.0.0.1:9/workspace/v1', production: true },
  ],
  'engagementUsage.defaultEnvironment': 'Production',
  'engagementUsage.requestTimeoutSeconds': 1,
  'engagementUsage.engagements.pageSize': 1,
  'engagementUsage.engagements.staleAfterSeconds': 0,
  'engagementUsage.engagements.autoRefreshSeconds': 1,
  'engagementUsage.engagements.wholeSetLimit': 1,
  'engagementUsage.usage.statusBar': false,
  'engagementUsage.usage.statusBarRefreshMinutes': 1,
  'engagementUsage.usage.alerts': false,
  'engagementUsage.usage.alertThresholds': [1000],
};
const timeoutMs = Number(values.timeout) * 1000;
const suite = path.join(ROOT, 'out', 'test', 'integration', 'index.js');
const started = Date.now();

function build() {
  console.log('[integration] building the extension and the test bundles');
  const result = spawnSync(
    process.execPath,
    ['esbuild.mjs', '--tests', ...(values.production ? ['--production', '--seams'] : [])],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error('the build failed');
  if (!fs.existsSync(suite)) throw new Error(`${path.relative(ROOT, suite)} was not built`);
}

/** Files the suite writes (see test/integration/index.ts) and the environment naming them. */
function reportFiles() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eus-results-'));
  const files = { dir, output: path.join(dir, 'output.txt'), results: path.join(dir, 'results.json') };
  const env = { EUS_TEST_OUTPUT: files.output, EUS_TEST_RESULTS: files.results };
  if (values.grep) env.EUS_TEST_GREP = values.grep;
  // One shard of the files (test/integration/support/versions.ts deals them by their seconds).
  if (values.shard) env.EUS_TEST_SHARD = values.shard;
  if (values.restricted) env.EUS_TEST_RESTRICTED = '1';
  // Which VS Code runs the suite: suites that repeat a path over the service's readings run
  // every reading on the oldest and the readings that meet VS Code's networking on the newest.
  env.EUS_VSCODE = values.vscode;
  // Other EUS_* variables of the caller (e.g. benchmark switches) reach the tests too.
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith('EUS_') && !(k in env)) env[k] = v;
  return { files, env };
}

/** Prints what the suite appended to its output file since the last call. */
function streamer(file) {
  let offset = 0;
  return () => {
    if (!fs.existsSync(file)) return;
    const text = fs.readFileSync(file, 'utf8');
    if (text.length > offset) process.stdout.write(text.slice(offset));
    offset = text.length;
  };
}

function readResults(file) {
  if (!fs.existsSync(file)) return undefined;
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Which VS Code ran the suite, for the summary line ("VS Code 1.139.1"). */
let ranOn = '';

/** Each test file's seconds, slowest first, and the suite's: where a CI log's time goes. */
function printFileTimes(results) {
  const files = results.files ?? [];
  if (!files.length) return;
  const s = (ms) => (ms / 1000).toFixed(1).padStart(7);
  console.log('\n[integration] seconds per test file (its describes and their hooks):');
  for (const f of files) console.log(`${s(f.durationMs)}  ${f.file} (${f.tests} tests)`);
  console.log(`${s(results.stats.durationMs)}  all files (${results.stats.tests} tests, in the extension host)`);
}

function summarize(results, problem) {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const where = `${ranOn ? `, ${ranOn}` : ''}${values.shard ? `, files of shard ${values.shard}` : ''}`;
  if (results) {
    printFileTimes(results);
    for (const f of results.failures) console.log(`FAILED: ${f.fullTitle}: ${(f.message ?? '').split('\n')[0]}`);
    const { passes, failures, pending } = results.stats;
    console.log(
      `\n[integration] ${passes} passed, ${failures} failed${pending ? `, ${pending} pending` : ''} (${seconds} s${where})`,
    );
  }
  if (problem) console.log(`[integration] ${problem}`);
  return !problem && results && results.stats.failures === 0 && results.stats.passes > 0 ? 0 : 1;
}

async function runWithTestElectron(executable, env) {
  console.log(`[integration] desktop VS Code via @vscode/test-electron: ${executable} (--vscode does not apply)`);
  ranOn = 'desktop VS Code';
  const { runTests } = await import('@vscode/test-electron');
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'eus-workspace-'));
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'eus-user-'));
  if (values.restricted) {
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(workspace, '.vscode', 'settings.json'),
      JSON.stringify(RESTRICTED_WORKSPACE_SETTINGS, null, 2),
    );
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    fs.writeFileSync(
      path.join(userData, 'User', 'settings.json'),
      JSON.stringify(
        { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' },
        null,
        2,
      ),
    );
  }
  try {
    await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: suite,
      extensionTestsEnv: env,
      launchArgs: [
        workspace,
        '--disable-extensions',
        ...(values.restricted ? [] : ['--disable-workspace-trust']),
        '--skip-welcome',
        '--user-data-dir',
        userData,
      ],
    });
    return undefined;
  } catch (error) {
    return `VS Code exited with ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(userData, { recursive: true, force: true });
  }
}

const running = {};
/** This run's private CA: trusted in the system store code-server sees (and through NODE_EXTRA_CA_CERTS). */
let systemCa;
async function runWithCodeServer(env, output, results) {
  const { chromium, codeServer } = ensureCodeServerPrereqs(values.vscode);
  console.log(`[integration] ${codeServer.label}`);
  ranOn = `VS Code ${codeServer.vscode}`;
  const server = (running.server = await startCodeServer({
    codeServer: codeServer.bin,
    node: codeServer.node,
    env,
    isolate: true,
    systemCa,
    ...(values.restricted ? { workspaceTrust: true, workspaceSettings: RESTRICTED_WORKSPACE_SETTINGS } : {}),
  }));
  console.log(`[integration] code-server ${server.url}, Chromium ${chromium}`);
  const crash = new Promise((resolve) => {
    server.onLine((line) => {
      if (/Extension Host Process exited with code: (?!0,)/i.test(line))
        resolve(`the extension host crashed: ${line.replace(/^.*\] /, '')}`);
    });
    void server.exit.then(({ code, signal }) => resolve(`code-server exited early (code ${code}, signal ${signal})`));
  });
  const { browser, context } = await launchBrowser(chromium);
  running.browser = browser;
  const page = await context.newPage();
  // Errors the workbench logs (extension host errors among them), minus the offline noise.
  const consoleErrors = [];
  const noise = /Failed to load resource|open-vsx\.org|ERR_NAME_NOT_RESOLVED|vsda/;
  page.on(
    'console',
    (m) =>
      m.type() === 'error' &&
      !noise.test(m.text()) &&
      consoleErrors.push(
        m
          .text()
          .replace(/%c\s*ERR color: #f33 /, '')
          .split('\n')
          .slice(0, 3)
          .join('\n'),
      ),
  );
  page.on('pageerror', (error) => consoleErrors.push(`page error: ${error.message}`));
  let resolveExit;
  const exited = new Promise((resolve) => (resolveExit = resolve));
  // The workbench calls this with the suite's exit code when run() settles.
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));
  const url = workbenchUrl(server, {
    folder: server.dirs.workspace,
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: suite,
  });
  await allowExtensionTestsPayload(page);
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  if (!(await extensionTestsPayloadAllowed(page)))
    throw new Error(
      'the workbench page was not given developmentOptions.enableSmokeTestDriver: it would ignore the tests',
    );
  const profiling = await startRendererProfile(context, page);

  const stream = streamer(output);
  const ticker = setInterval(stream, 250);
  const remaining = Math.max(10_000, timeoutMs - (Date.now() - started));
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(`timed out after ${Math.round(timeoutMs / 1000)} s`), remaining);
  });
  try {
    const outcome = await Promise.race([
      exited.then((code) => ({ code })),
      crash.then((problem) => ({ problem })),
      timeout.then((problem) => ({ problem })),
    ]);
    stream();
    if (stopping) return 'interrupted';
    if (outcome.problem) {
      console.log(`\n--- code-server log (tail) ---\n${server.logTail(80)}`);
      if (consoleErrors.length)
        console.log(`--- workbench console errors (tail) ---\n${consoleErrors.slice(-8).join('\n')}`);
      return outcome.problem;
    }
    // Give a crash report racing the exit call a moment to arrive.
    const crashed = await Promise.race([crash, new Promise((r) => setTimeout(() => r(undefined), 500))]);
    if (outcome.code !== 0 || crashed || !fs.existsSync(results)) {
      console.log(`\n--- code-server log (tail) ---\n${server.logTail(60)}`);
      const errors = consoleErrors.slice(-8);
      if (errors.length) console.log(`--- workbench console errors (tail) ---\n${errors.join('\n')}`);
    }
    return (
      crashed ??
      (fs.existsSync(results)
        ? undefined
        : `the extension host ended the tests with exit code ${outcome.code} and wrote no results`)
    );
  } finally {
    clearInterval(ticker);
    clearTimeout(timer);
    await profiling?.stop();
  }
}

/**
 * EUS_RENDERER_PROFILE=file: a CPU profile of the workbench (the renderer) for the whole run,
 * for finding where the UI's time goes. Its clock is the machine's monotonic clock, as is
 * `process.hrtime()` in the extension host, so the two can be laid side by side.
 */
async function startRendererProfile(context, page) {
  const file = process.env.EUS_RENDERER_PROFILE;
  if (!file) return undefined;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  return {
    stop: async () => {
      const { profile } = await cdp.send('Profiler.stop');
      fs.writeFileSync(file, JSON.stringify(profile));
      console.log(`[integration] the workbench's CPU profile: ${file}`);
    },
  };
}

async function cleanup() {
  await stopAll(running);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`\n[integration] ${signal}: stopping code-server and Chromium`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function main() {
  if (!values.built) build();
  else if (!fs.existsSync(suite)) throw new Error(`--built, but ${path.relative(ROOT, suite)} is not there`);
  const { files, env } = reportFiles();
  // The HTTPS and proxy suites: this run's certificates, the private CA trusted in VS Code's environment.
  ensureNetworkTestTools();
  const tls = certificatesForRun();
  Object.assign(env, tls.env);
  systemCa = tls.certificates.ca.certFile;
  let problem;
  try {
    const desktop = process.env.VSCODE_EXECUTABLE;
    problem = desktop
      ? await runWithTestElectron(desktop, env)
      : await runWithCodeServer(env, files.output, files.results);
    if (desktop) process.stdout.write(fs.existsSync(files.output) ? fs.readFileSync(files.output, 'utf8') : '');
  } finally {
    await cleanup();
    tls.remove();
  }
  const results = readResults(files.results);
  if (!results && !problem)
    problem = 'the suite wrote no results (did the extension host crash or the suite fail to load?)';
  const code = summarize(results, problem);
  fs.rmSync(files.dir, { recursive: true, force: true });
  return code;
}

main().then(
  (code) => process.exit(code),
  async (error) => {
    console.error(`[integration] ${error instanceof Error ? error.stack : String(error)}`);
    await cleanup();
    process.exit(1);
  },
);
