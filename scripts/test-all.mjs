// `npm test`: every suite the project has, in order: build (type-check + bundle), unit with
// lint alongside, integration (inside a real VS Code), the same in Restricted Mode, end-to-end (Playwright
// driving VS Code with the packaged extension); the last three on each VS Code of
// scripts/vscode/prereqs.mjs (VSCODE_VERSIONS: the oldest the manifest accepts, then the newest),
// each stage named with its version ("integration (1.139)"). Each runner prints its own output; a summary table and the total
// "N passed, N failed" close the run. A failed build stops the run (nothing else would mean
// anything); any other failure still lets the remaining stages run. Exits non-zero on any
// failure.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { VSCODE_VERSIONS } from './vscode/prereqs.mjs';

process.chdir(path.resolve(import.meta.dirname, '..'));

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const stages = [
  // A fresh clone: the npm packages first (CI's .ci/run has done `npm ci` already).
  ...(fs.existsSync('node_modules/.package-lock.json')
    ? []
    : [{ name: 'npm ci', cmd: npm, args: ['ci', '--no-audit', '--no-fund'], stopOnFailure: true }]),
  // The VS Codes the suites run on (code-server; nothing to do where they are installed)
  // install in the background while the build, unit tests and lint run; the first stage on
  // each waits for its own (the newest, the larger, goes on installing while the oldest's
  // suites run).
  ...Object.entries(VSCODE_VERSIONS).map(([which, { vscode }]) => ({
    name: `install VS Code ${vscode}`,
    cmd: process.execPath,
    args: ['scripts/vscode/prereqs.mjs', which],
    background: which,
  })),
  { name: 'build', cmd: npm, args: ['run', 'build'], stopOnFailure: true },
  // Lint and the unit tests read the sources only and each leaves a core mostly idle: side by side.
  { name: 'unit', cmd: npm, args: ['run', 'test:unit'] },
  { name: 'lint', cmd: npm, args: ['run', 'lint'], alongside: true },
  ...Object.entries(VSCODE_VERSIONS).flatMap(([which, { vscode }], index) => [
    {
      name: `integration (${vscode})`,
      cmd: process.execPath,
      args: ['scripts/run-integration.mjs', '--vscode', which],
      after: which,
    },
    // The same harness with workspace trust on and an untrusted folder (Restricted Mode), on
    // the bundles the stage before built.
    {
      name: `restricted (${vscode})`,
      cmd: process.execPath,
      args: ['scripts/run-integration.mjs', '--restricted', '--vscode', which, '--built'],
    },
    {
      name: `e2e (${vscode})`,
      cmd: process.execPath,
      // The first e2e stage builds its bundles and packages the extension; the next ones
      // install the same .vsix.
      args: ['scripts/run-e2e.mjs', '--vscode', which, ...(index > 0 ? ['--built'] : [])],
    },
  ]),
];
const WIDTH = Math.max(13, ...stages.map((s) => s.name.length + 1));

/** Pass/fail counts from a runner's closing lines (mocha's spec reporter or our runners'). */
function counts(output) {
  const plain = [...output.matchAll(/^\[(?:integration|e2e)\] (\d+) passed, (\d+) failed/gm)].pop();
  if (plain) return { passed: Number(plain[1]), failed: Number(plain[2]) };
  const passing = [...output.matchAll(/^\s*(\d+) passing/gm)].pop();
  if (!passing) return undefined;
  const failing = [...output.matchAll(/^\s*(\d+) failing/gm)].pop();
  return { passed: Number(passing[1]), failed: failing ? Number(failing[1]) : 0 };
}

/**
 * Runs a stage; its output is streamed as it comes, or, for a stage run alongside another or
 * in the background (`hold` says which), held in `output` for the caller to print once the
 * stage it ran beside has ended (so outputs never interleave).
 */
function runStage(stage, { hold = '' } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(stage.cmd, stage.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let tail = '';
    const held = [];
    const keep = (chunk, stream) => {
      if (hold) held.push(chunk);
      else stream.write(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-20_000);
    };
    const done = (code) => {
      running.delete(child);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      resolve({
        stage: stage.name,
        ok: code === 0,
        seconds,
        tally: counts(tail),
        code,
        stopOnFailure: stage.stopOnFailure,
        output: hold ? `\n=== ${stage.name} (ran ${hold}) ===\n${Buffer.concat(held).toString('utf8')}` : '',
      });
    };
    child.stdout.on('data', (c) => keep(c, process.stdout));
    child.stderr.on('data', (c) => keep(c, process.stderr));
    child.on('error', (error) => {
      tail += String(error);
      done(1);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // The runners stop what they started on the same signal; wait for that, then exit.
    for (const child of running) child.kill(signal);
    setTimeout(() => process.exit(130), 15_000).unref();
  });
}

// Steps: a stage with the ones marked `alongside` after it.
const steps = [];
for (const stage of stages) {
  if (stage.alongside && steps.length) steps.at(-1).push(stage);
  else steps.push([stage]);
}

const rows = [];
let failed = false;
/** Stages running in the background, by the name a later stage waits for (`after`). */
const background = new Map();
for (const [first, ...others] of steps) {
  if (first.background) {
    background.set(first.background, runStage(first, { hold: 'in the background' }));
    continue;
  }
  if (first.after && background.has(first.after)) {
    const result = await background.get(first.after);
    background.delete(first.after);
    process.stdout.write(result.output);
    rows.push(result);
    if (!result.ok) failed = true;
  }
  console.log(
    `\n=== ${first.name}${others.length ? ` (with ${others.map((o) => o.name).join(', ')} alongside)` : ''} ===`,
  );
  const results = await Promise.all([runStage(first), ...others.map((o) => runStage(o, { hold: 'alongside' }))]);
  for (const result of results) process.stdout.write(result.output);
  rows.push(...results);
  if (results.some((r) => !r.ok)) failed = true;
  if (results.some((r) => !r.ok && r.stopOnFailure)) break;
}
// A run stopped early still reports what it started in the background.
for (const result of await Promise.all(background.values())) {
  process.stdout.write(result.output);
  rows.push(result);
  if (!result.ok) failed = true;
}

const total = { passed: 0, failed: 0 };
console.log('\n=== summary ===');
console.log(`${'stage'.padEnd(WIDTH)} result  time      tests`);
for (const row of rows) {
  total.passed += row.tally?.passed ?? 0;
  // A stage that failed without a failing test (build, lint, a crash) still counts as one failure.
  total.failed += row.ok ? (row.tally?.failed ?? 0) : Math.max(1, row.tally?.failed ?? 0);
  const tests = row.tally ? `${row.tally.passed} passed, ${row.tally.failed} failed` : '';
  console.log(
    `${row.stage.padEnd(WIDTH)} ${(row.ok ? 'PASS' : `FAIL(${row.code})`).padEnd(7)} ${`${row.seconds} s`.padEnd(9)} ${tests}`,
  );
}
for (const skipped of stages.filter((s) => !rows.some((r) => r.stage === s.name)))
  console.log(`${skipped.name.padEnd(WIDTH)} not run (${rows.at(-1).stage} failed)`);
console.log(`\n${total.passed} passed, ${total.failed} failed`);
process.exit(failed ? 1 : 0);
