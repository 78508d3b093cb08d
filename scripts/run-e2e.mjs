// `node scripts/run-e2e.mjs [--grep pattern] [--timeout seconds] [--vscode oldest|newest] [--built] [--shard i/n [--lead s,…]] [--prepare]`
// --vscode: which VS Code (code-server) the tests drive, as for scripts/run-integration.mjs.
// --shard i/n: only the test files of shard i of n (dealt by their seconds, SECONDS below); --lead
// gives each shard's seconds of other work in its lane, so the shards end together (`npm test`
// runs the newest's files as two shards side by side, the oldest's suite before the second).
// --prepare: only builds the test bundles and the packages, and empties the screenshot folders,
// for sharded runs with --built after it (which then leave the screenshots of the others).
// End-to-end tests: mocha in plain Node runs test/e2e/*.test.ts (bundled into out/), whose
// helpers (test/e2e/workbench.ts) start a fresh code-server with the extension INSTALLED from
// the packaged .vsix (`npm run package`), the reference service on loopback, and headless
// Chromium driven by Playwright. Screenshots go to test-results/e2e/ (emptied at the start);
// those of a run on another VS Code than the oldest to test-results/e2e-<version>/ (e2e-newest/,
// where the README's pictures come from: `npm run screenshots`).
// Prints each test file's seconds as it ends, and all of them in a table at the end, so a CI
// log shows where the time goes.
// Exits non-zero on any failure or on the overall timeout; code-server and Chromium are
// stopped on every exit path.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Mocha from 'mocha';
import { ROOT, ensureCodeServerPrereqs, ensureNetworkTestTools, vscodeVersion } from './vscode/prereqs.mjs';

const { values } = parseArgs({
  options: {
    grep: { type: 'string' },
    timeout: { type: 'string', default: '1800' },
    vscode: { type: 'string', default: 'oldest' },
    // The test bundles and the .vsix (and the probe's) made by an earlier e2e run of the same
    // sources: `npm test` passes it to its second e2e stage, which would make the same files again.
    built: { type: 'boolean', default: false },
    shard: { type: 'string' },
    lead: { type: 'string' },
    prepare: { type: 'boolean', default: false },
  },
});
vscodeVersion(values.vscode); // an unknown --vscode stops here
const started = Date.now();
const VSIX = path.join(ROOT, 'dist-vsix', 'engagement-usage.vsix');
// Another extension installed next to ours (test/e2e/fixtures/probe-extension): what it gets from our exports.
const PROBE = path.join(ROOT, 'test', 'e2e', 'fixtures', 'probe-extension');
const PROBE_VSIX = path.join(ROOT, 'dist-vsix', 'exports-probe.vsix');
const SCREENSHOTS = path.join(ROOT, 'test-results', values.vscode === 'oldest' ? 'e2e' : `e2e-${values.vscode}`);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function step(what, cmd, args) {
  console.log(`[e2e] ${what}`);
  const result = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${what} failed:\n${result.stdout}${result.stderr}`);
}

/**
 * Suites named `*.newest.test.ts` run only on the newest VS Code: what they check does not
 * differ between versions and they are slow (the accessibility matrix; CONTRIBUTING.md says why).
 */
const versionOnly = (file) => !file.endsWith('.newest.test.js') || values.vscode === 'newest';

/**
 * About the seconds each file takes on the newest VS Code on 2 cores, its workbench included
 * (the runner prints them after a run), only to deal the files to shards; a file not named counts 30.
 */
const SECONDS = {
  'a11y.newest.test.js': 124,
  'performance.newest.test.js': 53,
  'usage-breakdown.newest.test.js': 50,
  'usage-trends.newest.test.js': 44,
  'find.newest.test.js': 38,
  'at-home.newest.test.js': 38,
  'chat.test.js': 31,
  'web.test.js': 30,
  'usage.test.js': 29,
  'keyboard.newest.test.js': 29,
  'add-environment.test.js': 27,
  'accepted.newest.test.js': 26,
  'frameworks.newest.test.js': 26,
  'reliability-hostile.test.js': 22,
  'engagements.newest.test.js': 21,
  'https.newest.test.js': 20,
  'error-bodies.newest.test.js': 19,
  'readings.newest.test.js': 19,
  'trust.test.js': 18,
  'extension-page.test.js': 15,
};

/** `--shard i/n` with `--lead`: whether `file` (a name in out/test/e2e) is in shard i. */
function inShard(files) {
  if (!values.shard) return () => true;
  const match = /^(\d+)\/(\d+)$/.exec(values.shard);
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!match || count < 1 || index < 1 || index > count) throw new Error(`--shard ${values.shard}: expected i/n`);
  const totals = Array.from({ length: count }, (_, i) => Number((values.lead ?? '').split(',')[i] ?? 0) || 0);
  const dealt = new Map();
  const seconds = (f) => SECONDS[f] ?? 30;
  // The longest first, each to the shard with the fewest seconds so far.
  for (const file of [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b))) {
    const to = totals.indexOf(Math.min(...totals));
    totals[to] += seconds(file);
    dealt.set(file, to + 1);
  }
  return (file) => dealt.get(file) === index;
}

function testFiles() {
  const dir = path.join(ROOT, 'out', 'test', 'e2e');
  const sources = path.join(ROOT, 'test', 'e2e');
  if (!fs.existsSync(dir)) return [];
  const files = fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.test.js') && fs.existsSync(path.join(sources, f.replace(/\.js$/, '.ts'))))
    .filter(versionOnly)
    .sort();
  return files.filter(inShard(files)).map((f) => path.join(dir, f));
}

// Stopping: the helpers register process 'exit' handlers that kill code-server's process
// group, and Playwright kills its browsers on exit, so exiting is enough.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.log(`\n[e2e] ${signal}: stopping`);
    process.exit(130);
  });
}
const overall = setTimeout(
  () => {
    console.log(`\n[e2e] timed out after ${values.timeout} s`);
    process.exit(1);
  },
  Number(values.timeout) * 1000,
);
overall.unref();

async function main() {
  // --prepare needs no VS Code: only what the suites load.
  const { chromium, codeServer } = values.prepare ? {} : ensureCodeServerPrereqs(values.vscode);
  if (codeServer) console.log(`[e2e] ${codeServer.label}`);
  ensureNetworkTestTools(); // openssl for the HTTPS test's certificates
  if (!values.built) step('building the test bundles', process.execPath, ['esbuild.mjs', '--tests']);
  if (values.built && fs.existsSync(VSIX) && fs.existsSync(PROBE_VSIX)) {
    console.log(
      `[e2e] the packages of the run before: ${path.relative(ROOT, VSIX)}, ${path.relative(ROOT, PROBE_VSIX)}`,
    );
  } else {
    step('packaging the extension (npm run package)', npm, ['run', 'package']);
    if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} was not made`);
    const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
    const probe = spawnSync(
      process.execPath,
      [vsce, 'package', '--allow-missing-repository', '--skip-license', '--out', PROBE_VSIX],
      { cwd: PROBE, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' },
    );
    if (probe.status !== 0 || !fs.existsSync(PROBE_VSIX))
      throw new Error(`packaging the probe extension failed:\n${probe.stdout}${probe.stderr}`);
  }
  if (values.prepare) {
    for (const which of ['e2e', 'e2e-newest'])
      fs.rmSync(path.join(ROOT, 'test-results', which), { recursive: true, force: true });
    console.log('[e2e] the test bundles and packages are made, the screenshot folders emptied');
    return 0;
  }
  // A shard leaves the other shards' screenshots (--prepare emptied the folder).
  if (!values.shard) fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  Object.assign(process.env, {
    EUS_E2E_CODE_SERVER: codeServer.bin,
    // The Node that runs code-server (newest: Node 24); empty: the system's.
    EUS_E2E_CODE_SERVER_NODE: codeServer.node ?? '',
    EUS_E2E_CHROMIUM: chromium,
    EUS_E2E_VSIX: VSIX,
    EUS_E2E_PROBE_VSIX: PROBE_VSIX,
    EUS_E2E_SCREENSHOTS: SCREENSHOTS,
    // The VS Code line under test (`oldest` or `newest`), for a test whose truth differs.
    EUS_E2E_VSCODE: values.vscode,
    // Its full version (e.g. 1.139.1), for figures that name where they were measured (npm run bench).
    EUS_E2E_VSCODE_VERSION: codeServer.vscode,
  });

  const files = testFiles();
  if (!files.length) throw new Error('no end-to-end test files were built (test/e2e/*.test.ts)');
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 120_000, color: false });
  if (values.grep) mocha.grep(values.grep);
  for (const file of files) mocha.addFile(file);
  await mocha.loadFilesAsync();
  const fileSeconds = new Map();
  const stats = await new Promise((resolve) => {
    const runner = mocha.run(() => resolve(runner.stats));
    timeEachFile(runner, fileSeconds);
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  printFileTimes(fileSeconds);
  const shots = fs.readdirSync(SCREENSHOTS).filter((f) => f.endsWith('.png'));
  console.log(`[e2e] ${shots.length} screenshot(s) in ${path.relative(ROOT, SCREENSHOTS)}/`);
  console.log(
    `[e2e] ${stats.passes} passed, ${stats.failures} failed${stats.pending ? `, ${stats.pending} pending` : ''} (${seconds} s, VS Code ${codeServer.vscode}${values.shard ? `, files of shard ${values.shard}` : ''})`,
  );
  if (stats.passes === 0 && stats.failures === 0) {
    console.log(`[e2e] no test ran${values.grep ? ` (nothing matched ${values.grep})` : ''}`);
    return 1;
  }
  return stats.failures > 0 ? 1 : 0;
}

/**
 * Where a run's time goes, per test file: from its first top-level suite's start to its last
 * one's end (its workbench's start and stop included), printed as each file ends and again in
 * a table at the end, so a CI log shows it. `into` maps each file to its seconds.
 */
function timeEachFile(runner, into) {
  const name = (file) => path.relative(path.join(ROOT, 'out', 'test', 'e2e'), file).replace(/\.js$/, '.ts');
  let current; // { file, began }
  const done = () => {
    if (current) console.log(`[e2e] ${name(current.file)}: ${into.get(name(current.file)).toFixed(1)} s`);
  };
  runner.on('suite', (suite) => {
    if (!suite.parent?.root || !suite.file || suite.file === current?.file) return;
    done();
    current = { file: suite.file, began: Date.now() };
  });
  runner.on('suite end', (suite) => {
    if (suite.parent?.root && suite.file === current?.file)
      into.set(name(current.file), (Date.now() - current.began) / 1000);
  });
  runner.on('end', done);
}

function printFileTimes(fileSeconds) {
  if (!fileSeconds.size) return;
  const width = Math.max(...[...fileSeconds.keys()].map((f) => f.length));
  console.log('[e2e] seconds per test file (its workbench included):');
  for (const [file, seconds] of fileSeconds)
    console.log(`[e2e]   ${file.padEnd(width)} ${seconds.toFixed(1).padStart(6)}`);
  const sum = [...fileSeconds.values()].reduce((a, b) => a + b, 0);
  console.log(`[e2e]   ${'all test files'.padEnd(width)} ${sum.toFixed(1).padStart(6)}`);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[e2e] ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(1);
  },
);
