// `npm test`: every suite the project has. The unit tests (their build makes every bundle);
// then, in two lanes side by side, the integration suites inside a real VS Code (the oldest's
// in two shards, the newest's, the Restricted Mode suites) with the type-check and lint; then
// the end-to-end suites (Playwright driving VS Code with the packaged extension), one VS Code
// after the other (scripts/vscode/prereqs.mjs VSCODE_VERSIONS: the oldest the manifest
// accepts, the newest). Each stage is named with its version ("integration (1.139)"). The
// first lane of a step streams its output; the other prints its own once the step ends. A
// summary table and the total "N passed, N failed" close the run. A failed `npm ci` stops the
// run; any other failure lets the remaining stages run. Exits non-zero on any failure.
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
  // install in the background from the start; the first stage on each waits for its own (the
  // newest, the larger, goes on installing while the oldest's suites run).
  ...Object.entries(VSCODE_VERSIONS).map(([which, { vscode }]) => ({
    name: `install VS Code ${vscode}`,
    cmd: process.execPath,
    args: ['scripts/vscode/prereqs.mjs', which],
    background: which,
  })),
  // The unit tests; their build makes every bundle (`esbuild.mjs --tests`: the extension, the
  // webviews and the test suites), the ones the suites inside VS Code load (`--built`).
  { name: 'unit', cmd: npm, args: ['run', 'test:unit'] },
  // The integration suites mostly wait (for the service, for VS Code): two lanes side by side,
  // about as long as each other. One: the first half of the oldest's suite, then the newest's
  // once that VS Code is installed, then the Restricted Mode suites. The other: the type-check
  // and lint (they read the sources only), then the second half of the oldest's suite. (Runs
  // of 2026-11-27 with the Restricted Mode suites in the second lane: 451 / 529 s and 480 / 630 s.)
  integration('oldest', '1/2'),
  { ...integration('newest'), lane: 'integration (1.100, 1/2)' },
  { ...restricted('newest'), lane: 'integration (1.100, 1/2)' },
  { ...restricted('oldest'), lane: 'integration (1.100, 1/2)' },
  { name: 'typecheck', cmd: npm, args: ['run', 'typecheck'], alongside: true },
  { name: 'lint', cmd: npm, args: ['run', 'lint'], lane: 'typecheck' },
  { ...integration('oldest', '2/2'), lane: 'typecheck' },
  // The e2e suites mostly wait for the browser and VS Code too: their bundles and the .vsix are
  // made once (rewriting dist/, so only after the suites above), then two lanes side by side:
  // the first half of the newest's files; the oldest's suite, then the other half. The halves
  // are dealt by their seconds with the oldest's suite counted before the second, as 140 s of
  // SECONDS (run-e2e.mjs): side by side every file takes about 1.7 times its time alone, the
  // oldest's suite 213 s (a run of 2026-11-27, e437521's child: lanes of 668 and 597 s with 170).
  { name: 'e2e packages', cmd: process.execPath, args: ['scripts/run-e2e.mjs', '--prepare'] },
  e2e('newest', '1/2'),
  { ...e2e('oldest'), alongside: true },
  { ...e2e('newest', '2/2'), lane: `e2e (${VSCODE_VERSIONS.oldest.vscode})` },
];

/** The e2e suite on `which` VS Code (or one `shard` of its files), on the packages made before. */
function e2e(which, shard) {
  const { vscode } = VSCODE_VERSIONS[which];
  return {
    name: shard ? `e2e (${vscode}, ${shard})` : `e2e (${vscode})`,
    cmd: process.execPath,
    args: [
      'scripts/run-e2e.mjs',
      '--vscode',
      which,
      '--built',
      ...(shard ? ['--shard', shard, '--lead', '0,140'] : []),
    ],
    after: which,
  };
}

/** The integration suite on `which` VS Code (or one `shard` of its files), on the bundles the unit stage built. */
function integration(which, shard) {
  const { vscode } = VSCODE_VERSIONS[which];
  return {
    name: shard ? `integration (${vscode}, ${shard})` : `integration (${vscode})`,
    cmd: process.execPath,
    args: ['scripts/run-integration.mjs', '--vscode', which, '--built', ...(shard ? ['--shard', shard] : [])],
    after: which,
  };
}

/** The same harness in Restricted Mode (workspace trust on, an untrusted folder). */
function restricted(which) {
  return {
    name: `restricted (${VSCODE_VERSIONS[which].vscode})`,
    cmd: process.execPath,
    args: ['scripts/run-integration.mjs', '--restricted', '--vscode', which, '--built'],
    after: which,
  };
}
const WIDTH = Math.max(13, ...stages.map((s) => s.name.length + 1));

/**
 * A line a test prints when it does again what a person does once (CONTRIBUTING.md: the one
 * left, and why). Counted in the summary, so CI shows how often it happens.
 */
const RETRY_LINE = /^\s*\[retry\] /;

/**
 * Mocha's list of failures ("N failing", then each test and its error): kept per stage and
 * printed again just above the summary, so the end of a CI log, often all a reader gets, names
 * what failed and why. At most FAILURE_LINES lines a stage, without the stacks' frames.
 */
const FAILING_LINE = /^\s*\d+ failing\s*$/;
const FAILURE_LINES = 60;

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
    let line = '';
    let retries = 0;
    const failures = [];
    let inFailures = false;
    const keep = (chunk, stream) => {
      if (hold) held.push(chunk);
      else stream.write(chunk);
      const text = chunk.toString('utf8');
      tail = (tail + text).slice(-20_000);
      const lines = (line + text).split('\n');
      line = lines.pop();
      retries += lines.filter((l) => RETRY_LINE.test(l)).length;
      for (const l of lines) {
        if (FAILING_LINE.test(l)) inFailures = true;
        // The stack's frames are left out: the test's name and its error say enough here.
        if (inFailures && failures.length < FAILURE_LINES && !/^\s+at /.test(l)) failures.push(l);
        // Our runners' closing lines end mocha's list.
        if (/^\[(?:integration|e2e)\] /.test(l)) inFailures = false;
      }
    };
    const done = (code) => {
      running.delete(child);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      resolve({
        stage: stage.name,
        ok: code === 0,
        seconds,
        tally: counts(tail),
        retries: retries + (RETRY_LINE.test(line) ? 1 : 0),
        // A stage that failed with no list of failures (lint, the type-check, a crash): its last lines.
        failures: (failures.length ? failures : code === 0 ? [] : tail.trimEnd().split('\n').slice(-25))
          .join('\n')
          .trimEnd(),
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

// Steps, each a set of lanes run side by side, each lane stages one after another: a stage
// starts a step, `alongside` starts another lane in the step before, `lane` follows the named
// stage in its lane.
const steps = [];
for (const stage of stages) {
  const step = steps.at(-1);
  const lane = stage.lane && step?.find((l) => l.some((s) => s.name === stage.lane));
  if (lane) lane.push(stage);
  else if (stage.alongside && step) step.push([stage]);
  else steps.push([[stage]]);
}

const rows = [];
let failed = false;
/** Stages running in the background, by the name a later stage waits for (`after`). */
const background = new Map();

/**
 * Runs a lane's stages in order; the first lane of a step streams its output, the others hold
 * theirs (and that of the installs they waited for) until the step ends. A stage that must
 * stop the run stops its lane.
 */
async function runLane(lane, lead) {
  const results = [];
  let held = '';
  for (const stage of lane) {
    if (stage.after && background.has(stage.after)) {
      const result = await background.get(stage.after);
      // Reported once, by the first stage that waited for it.
      if (background.delete(stage.after)) {
        if (lead) process.stdout.write(result.output);
        else held += result.output;
        results.push(result);
      }
    }
    if (lead) console.log(`\n=== ${stage.name} ===`);
    const result = await runStage(stage, lead ? {} : { hold: 'alongside' });
    held += result.output;
    results.push(result);
    if (!result.ok && result.stopOnFailure) break;
  }
  return { results, held };
}

for (const lanes of steps) {
  const [[first]] = lanes;
  if (first.background) {
    background.set(first.background, runStage(first, { hold: 'in the background' }));
    continue;
  }
  if (lanes.length > 1)
    console.log(
      `\n(alongside: ${lanes
        .slice(1)
        .map((l) => l.map((s) => s.name).join(', then '))
        .join('; ')})`,
    );
  const done = await Promise.all(lanes.map((lane, i) => runLane(lane, i === 0)));
  for (const { held } of done) process.stdout.write(held);
  const results = done.flatMap((d) => d.results);
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
let retries = 0;
for (const row of rows.filter((r) => r.failures)) console.log(`\n=== what failed in ${row.stage} ===\n${row.failures}`);
console.log('\n=== summary ===');
console.log(`${'stage'.padEnd(WIDTH)} result  time      tests`);
for (const row of rows) {
  total.passed += row.tally?.passed ?? 0;
  // A stage that failed without a failing test (build, lint, a crash) still counts as one failure.
  total.failed += row.ok ? (row.tally?.failed ?? 0) : Math.max(1, row.tally?.failed ?? 0);
  retries += row.retries ?? 0;
  const tests = [
    row.tally && `${row.tally.passed} passed, ${row.tally.failed} failed`,
    row.retries && `${row.retries} retried`,
  ]
    .filter(Boolean)
    .join(', ');
  console.log(
    `${row.stage.padEnd(WIDTH)} ${(row.ok ? 'PASS' : `FAIL(${row.code})`).padEnd(7)} ${`${row.seconds} s`.padEnd(9)} ${tests}`,
  );
}
for (const skipped of stages.filter((s) => !rows.some((r) => r.stage === s.name)))
  console.log(`${skipped.name.padEnd(WIDTH)} not run (${rows.at(-1).stage} failed)`);
console.log(`\nretries: ${retries} ("[retry]" lines: a gesture done again)`);
console.log(`\n${total.passed} passed, ${total.failed} failed`);
process.exit(failed ? 1 : 0);
