// `npm test`: every suite the project has, in order: build (type-check + bundle), lint, unit,
// integration (inside a real VS Code), the same in Restricted Mode, end-to-end (Playwright
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
  { name: 'build', cmd: npm, args: ['run', 'build'], stopOnFailure: true },
  { name: 'lint', cmd: npm, args: ['run', 'lint'] },
  { name: 'unit', cmd: npm, args: ['run', 'test:unit'] },
  ...Object.entries(VSCODE_VERSIONS).flatMap(([which, { vscode }]) => [
    {
      name: `integration (${vscode})`,
      cmd: process.execPath,
      args: ['scripts/run-integration.mjs', '--vscode', which],
    },
    // The same harness with workspace trust on and an untrusted folder (Restricted Mode).
    {
      name: `restricted (${vscode})`,
      cmd: process.execPath,
      args: ['scripts/run-integration.mjs', '--restricted', '--vscode', which],
    },
    { name: `e2e (${vscode})`, cmd: process.execPath, args: ['scripts/run-e2e.mjs', '--vscode', which] },
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

function runStage(stage) {
  return new Promise((resolve) => {
    const child = (current = spawn(stage.cmd, stage.args, { stdio: ['ignore', 'pipe', 'pipe'] }));
    let tail = '';
    const keep = (chunk, stream) => {
      stream.write(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-20_000);
    };
    child.stdout.on('data', (c) => keep(c, process.stdout));
    child.stderr.on('data', (c) => keep(c, process.stderr));
    child.on('error', (error) => resolve({ code: 1, tail: String(error) }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), tail }));
  });
}

let current;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // The runners stop what they started on the same signal; wait for that, then exit.
    if (current) current.kill(signal);
    setTimeout(() => process.exit(130), 15_000).unref();
  });
}

const rows = [];
let failed = false;
for (const stage of stages) {
  console.log(`\n=== ${stage.name} ===`);
  const started = Date.now();
  const { code, tail } = await runStage(stage);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const tally = counts(tail);
  rows.push({ stage: stage.name, ok: code === 0, seconds, tally, code });
  if (code !== 0) {
    failed = true;
    if (stage.stopOnFailure) break;
  }
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
for (const skipped of stages.slice(rows.length))
  console.log(`${skipped.name.padEnd(WIDTH)} not run (${rows.at(-1).stage} failed)`);
console.log(`\n${total.passed} passed, ${total.failed} failed`);
process.exit(failed ? 1 : 0);
