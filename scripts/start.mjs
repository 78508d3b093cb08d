// `npm start`: the extension, running, with sample data, in one command.
//   1. installs the npm packages when missing and builds the extension;
//   2. starts the local reference service on loopback with its seeded demo data;
//   3. opens a real VS Code with the extension loaded and a "Demo" environment whose key is
//      already stored: a desktop `code` from the PATH when there is one (or $VSCODE_EXECUTABLE),
//      otherwise code-server 4.100.3 from the test cache, whose address it prints.
// The Demo environment is added by scripts/demo-seeder (loaded only here), which answers the
// extension's own Add Environment flow, so the key goes to SecretStorage as when typed.
// Ctrl+C stops everything it started. Its VS Code profile is a throwaway folder.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const ROOT = path.resolve(import.meta.dirname, '..');
const SEEDER = path.join(ROOT, 'scripts', 'demo-seeder');
process.chdir(ROOT);

function step(message) {
  console.log(`[start] ${message}`);
}

function runOrExit(cmd, args, what) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT });
  if (result.status !== 0) {
    console.error(`[start] ${what} failed (exit ${result.status ?? result.signal}).`);
    process.exit(1);
  }
}

if (!fs.existsSync(path.join(ROOT, 'node_modules', '.package-lock.json'))) {
  step('installing npm packages (npm ci)');
  runOrExit('npm', ['ci', '--no-audit', '--no-fund'], 'npm ci');
}
step('building the extension and the reference service');
runOrExit(process.execPath, ['esbuild.mjs', '--tests'], 'the build');

const serviceProcess = spawn(
  process.execPath,
  [path.join(ROOT, 'out', 'test', 'service', 'cli.js'), '--port', process.env.EUS_DEMO_PORT ?? '0'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const ready = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('the reference service did not start within 20 s')), 20_000);
  readline.createInterface({ input: serviceProcess.stdout }).on('line', (line) => {
    if (!line.startsWith('READY ')) return;
    clearTimeout(timer);
    resolve(JSON.parse(line.slice('READY '.length)));
  });
  serviceProcess.once('exit', (exitCode) => reject(new Error(`the reference service exited (${exitCode})`)));
}).catch((error) => {
  console.error(`[start] ${error.message}`);
  process.exit(1);
});
const service = { baseUrl: ready.baseUrl, close: async () => void serviceProcess.kill('SIGTERM') };
const demoKey = ready.keys.admin;
step(`reference service: ${service.baseUrl} (seeded demo data; the demo keys work only with this local service)`);

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'eus-demo-'));
const workspace = path.join(profile, 'workspace');
fs.mkdirSync(workspace, { recursive: true });
const demoEnv = { EUS_DEMO_URL: service.baseUrl, EUS_DEMO_KEY: demoKey };

const stoppers = [];
let stopping = false;
async function stopAllAndExit(code) {
  if (stopping) return;
  stopping = true;
  step('stopping');
  for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
  await service.close().catch(() => undefined);
  fs.rmSync(profile, { recursive: true, force: true });
  process.exit(code);
}
process.on('SIGINT', () => void stopAllAndExit(0));
process.on('SIGTERM', () => void stopAllAndExit(0));

function desktopCode() {
  if (process.env.VSCODE_EXECUTABLE) return process.env.VSCODE_EXECUTABLE;
  const found = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' });
  const bin = found.status === 0 ? found.stdout.trim() : '';
  // code-server installs a `code` shim on some machines; only a desktop VS Code will do here.
  return bin && !fs.realpathSync(bin).includes('code-server') ? bin : undefined;
}

const code = process.env.EUS_START_CODE_SERVER ? undefined : desktopCode();
if (code) {
  step(`opening VS Code (${code}) with the extension under development`);
  const child = spawn(
    code,
    [
      '--new-window',
      '--wait',
      '--user-data-dir',
      path.join(profile, 'user-data'),
      '--extensions-dir',
      path.join(profile, 'extensions'),
      `--extensionDevelopmentPath=${ROOT}`,
      `--extensionDevelopmentPath=${SEEDER}`,
      workspace,
    ],
    { stdio: 'inherit', env: { ...process.env, ...demoEnv } },
  );
  stoppers.push(async () => child.kill('SIGTERM'));
  child.on('exit', () => void stopAllAndExit(0));
} else {
  const { ensureCodeServer } = await import('./vscode/prereqs.mjs');
  const { startCodeServer, workbenchUrl } = await import('./vscode/code-server.mjs');
  step('no desktop VS Code found: using code-server 4.100.3 (VS Code 1.100.3) from .vscode-test/');
  const codeServer = ensureCodeServer('oldest');
  const server = await startCodeServer({ codeServer: codeServer.bin, node: codeServer.node, env: demoEnv });
  stoppers.push(() => server.stop());
  // The seeder is a plain extension folder in the throwaway extensions dir.
  fs.cpSync(SEEDER, path.join(server.dirs.extensions, 'eus-tools.demo-seeder-0.0.1'), { recursive: true });
  const url = workbenchUrl(server, { folder: server.dirs.workspace, extensionDevelopmentPath: ROOT });
  step('VS Code is ready. Open this address in a browser on this machine:');
  console.log(`\n    ${url}\n`);
  step('the Engagements view opens with the Demo environment; Ctrl+C stops everything.');
  void server.exit.then(({ code: exitCode }) => {
    if (stopping) return;
    console.error(`[start] code-server exited (${exitCode}).\n${server.logTail(30)}`);
    void stopAllAndExit(1);
  });
}
