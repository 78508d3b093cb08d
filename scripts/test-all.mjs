// `npm test`: every suite the project has, in order, each printing its own runner's summary.
// Stops at the first stage that fails and exits with its code.
import { spawnSync } from 'node:child_process';

const stages = [
  ['build (type-check + bundle)', 'npm', ['run', 'build']],
  ['lint', 'npm', ['run', 'lint']],
  ['unit tests', 'npm', ['run', 'test:unit']],
];

const results = [];
for (const [name, cmd, args] of stages) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const run = spawnSync(cmd, args, { stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const code = run.status ?? 1;
  results.push(`${code === 0 ? 'PASS' : 'FAIL'}  ${name} (${seconds} s)`);
  if (code !== 0) {
    console.log(`\n=== summary ===\n${results.join('\n')}`);
    process.exit(code);
  }
}
console.log(`\n=== summary ===\n${results.join('\n')}`);
