// `npm run bench`: every performance figure in one table. Numbers only; nothing is asserted.
//   - listing N engagements (100, 1,000, 10,000) at 0, 20 and 100 ms injected latency, with
//     the client's concurrent paging and one page at a time (requests and wall time);
//   - sizes of the bundles (minified and gzip) and of the .vsix;
//   - heap used by 10,000 engagements;
//   - inside a real VS Code (the integration harness): activation (VS Code's own stats and
//     the time of activate()), requests during activation, time to the first tree items and
//     to the dashboard's meters. Set BENCH_SKIP_VSCODE=1 to leave those out.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (cmd, args, env = {}) => execFileSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });

console.log('Building (production bundles, tests, package)…');
run(process.execPath, ['esbuild.mjs', '--tests']);
run(npm, ['run', 'package', '--silent']);

const lines = [];
const row = (...cells) => lines.push(`| ${cells.join(' | ')} |`);
const ms = (v) => `${Math.round(v)} ms`;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

// Listing.
const listing = JSON.parse(run(process.execPath, ['out/test/bench/bench.js']).trim().split('\n').pop());
lines.push(`### Listing engagements (concurrency ${listing.concurrency}, page size 100, service in its own process)`, '');
row('latency', 'N', 'concurrent: requests', 'concurrent: time', 'one page at a time: requests', 'one page at a time: time', 'speed-up', 'floor ceil(N/100)');
row('---', '---', '---', '---', '---', '---', '---', '---');
for (const r of listing.rows) {
  row(`${r.latencyMs} ms`, r.n.toLocaleString('en-US'), r.concurrentRequests, ms(r.concurrentMs), r.sequentialRequests, ms(r.sequentialMs), `${(r.sequentialMs / r.concurrentMs).toFixed(1)}×`, Math.ceil(r.n / 100));
}

// Sizes (the package build minifies; the .vsix was just made by `npm run package`).
lines.push('', '### Size', '');
row('artifact', 'minified', 'gzip');
row('---', '---', '---');
for (const file of ['dist/extension.js', 'dist/webview.js']) {
  if (!fs.existsSync(file)) continue;
  const bytes = fs.readFileSync(file);
  row(`\`${file}\``, kb(bytes.length), kb(zlib.gzipSync(bytes, { level: 9 }).length));
}
const vsix = 'dist-vsix/engagement-usage.vsix';
if (fs.existsSync(vsix)) row(`\`${vsix}\``, kb(fs.statSync(vsix).size), '(zip)');

// Memory.
const memory = JSON.parse(run(process.execPath, ['--expose-gc', 'out/test/bench/memory.js']).trim().split('\n').pop());
lines.push('', '### Memory', '');
row('heap before', 'heap after 10,000 engagements', 'difference');
row('---', '---', '---');
row(`${memory.heapBeforeMb.toFixed(1)} MB`, `${memory.heapAfterMb.toFixed(1)} MB`, `${(memory.heapAfterMb - memory.heapBeforeMb).toFixed(1)} MB`);

// Inside VS Code.
let vscodeVersion = 'not measured';
if (!process.env.BENCH_SKIP_VSCODE) {
  const resultFile = path.join(root, '.bench', 'vscode.json');
  fs.rmSync(resultFile, { force: true });
  const result = spawnSync(process.execPath, ['scripts/test-integration.mjs', '--grep', 'Performance'], { encoding: 'utf8', env: { ...process.env, EUS_BENCH_OUT: resultFile }, stdio: ['ignore', 'pipe', 'pipe'] });
  if (fs.existsSync(resultFile)) {
    const perf = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
    vscodeVersion = perf.vscodeVersion;
    lines.push('', '### Inside VS Code (extension host)', '');
    row('figure', 'value');
    row('---', '---');
    for (const [name, value] of Object.entries(perf.figures)) row(name, value);
  } else {
    lines.push('', `(VS Code figures not available: the integration harness exited with ${result.status}.)`);
    process.stderr.write(result.stdout.slice(-3000) + result.stderr.slice(-3000));
  }
}

console.log(`\n## Benchmarks — Node ${process.version}, VS Code ${vscodeVersion}, ${new Date().toISOString().slice(0, 10)}\n`);
console.log(lines.join('\n'));
