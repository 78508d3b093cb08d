// What a real VS Code test run needs on this kind of machine, ensured idempotently:
// Debian packages (a browser, ripgrep, a C toolchain for code-server's native modules) and
// code-server 4.100.3 (VS Code 1.100.3, the last line on Node 20) in `.vscode-test/`.
// See the shared guide "testing in real VS Code" for why each step is there.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CODE_SERVER_VERSION = '4.100.3';
export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const CACHE_DIR = path.join(ROOT, '.vscode-test');
const CODE_SERVER_DIR = path.join(CACHE_DIR, 'code-server');
export const CODE_SERVER_BIN = path.join(CODE_SERVER_DIR, 'node_modules', '.bin', 'code-server');

const RIPGREP_CACHE = 'vscode-ripgrep-cache-1.15.11';
const RIPGREP_TARBALL = 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz';

function log(message) {
  console.log(`[prereqs] ${message}`);
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { encoding: 'utf8', timeout: 15 * 60_000, ...options });
  return { ok: result.status === 0, out: `${result.stdout ?? ''}${result.stderr ?? ''}`, error: result.error };
}

function onPath(command) {
  return run('sh', ['-c', `command -v ${command}`]).ok;
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

let aptUpdated = false;
/** Installs Debian packages with apt-get, as root only; throws with a clear message otherwise. */
function aptInstall(packages, why) {
  if (!isRoot()) {
    throw new Error(
      `${why}: install the Debian packages ${packages.join(' ')} (needs root: sudo apt-get install -y ${packages.join(' ')})`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    log('apt-get update');
    const update = run('apt-get', ['update', '-q'], { env });
    if (!update.ok) throw new Error(`apt-get update failed:\n${update.out.slice(-2000)}`);
    aptUpdated = true;
  }
  log(`apt-get install ${packages.join(' ')} (${why})`);
  const install = run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...packages], { env });
  if (!install.ok) throw new Error(`apt-get install ${packages.join(' ')} failed:\n${install.out.slice(-2000)}`);
}

function dpkgInstalled(pkg) {
  return run('dpkg-query', ['-W', '-f=${Status}', pkg]).out.includes('install ok installed');
}

/** The browser: $CHROMIUM_PATH, else Debian's /usr/bin/chromium (installed when missing). */
export function ensureChromium() {
  const given = process.env.CHROMIUM_PATH;
  if (given) {
    if (!fs.existsSync(given)) throw new Error(`CHROMIUM_PATH=${given} does not exist`);
    return given;
  }
  const debian = '/usr/bin/chromium';
  if (!fs.existsSync(debian)) aptInstall(['chromium'], 'a browser to open the VS Code workbench');
  return debian;
}

export function ensureRipgrep() {
  if (!fs.existsSync('/usr/bin/rg')) aptInstall(['ripgrep'], 'ripgrep for code-server (its own download is blocked)');
  return '/usr/bin/rg';
}

function codeServerWorks() {
  if (!fs.existsSync(CODE_SERVER_BIN)) return false;
  // A throwaway config dir, so the version check writes nothing into the user's home.
  const env = { ...process.env, XDG_CONFIG_HOME: os.tmpdir() };
  const version = run(CODE_SERVER_BIN, ['--version'], { env, timeout: 60_000 });
  return version.ok && version.out.includes(`${CODE_SERVER_VERSION} `);
}

/** @vscode/ripgrep's postinstall downloads from GitHub; prefill its cache with Debian's rg. */
function prefillRipgrepCache(rg) {
  const dir = path.join(os.tmpdir(), RIPGREP_CACHE);
  const tarball = path.join(dir, RIPGREP_TARBALL);
  if (fs.existsSync(tarball)) return;
  fs.mkdirSync(dir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'rg-'));
  fs.copyFileSync(rg, path.join(staging, 'rg'));
  fs.chmodSync(path.join(staging, 'rg'), 0o755);
  const tar = run('tar', ['-czf', tarball, '-C', staging, 'rg']);
  fs.rmSync(staging, { recursive: true, force: true });
  if (!tar.ok) throw new Error(`could not prefill the ripgrep cache: ${tar.out}`);
}

/** code-server in `.vscode-test/code-server/`, installed from the npm registry when missing. */
export function ensureCodeServer() {
  if (codeServerWorks()) return CODE_SERVER_BIN;
  const missing = ['build-essential', 'python3', 'pkg-config', 'libkrb5-dev'].filter((p) => !dpkgInstalled(p));
  if (missing.length) aptInstall(missing, 'code-server builds native modules');
  prefillRipgrepCache(ensureRipgrep());
  fs.mkdirSync(CODE_SERVER_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(CODE_SERVER_DIR, 'package.json'),
    `${JSON.stringify({ name: 'code-server-cache', private: true }, null, 2)}\n`,
  );
  log(
    `installing code-server ${CODE_SERVER_VERSION} into ${path.relative(ROOT, CODE_SERVER_DIR)} (about 200 MB, 1-2 minutes)`,
  );
  const started = Date.now();
  const env = {
    ...process.env,
    // Its postinstall refuses root without this, and node-pty's runs `npx node-gyp`.
    npm_config_unsafe_perm: 'true',
    npm_config_yes: 'true',
  };
  const install = run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-save', `code-server@${CODE_SERVER_VERSION}`],
    { cwd: CODE_SERVER_DIR, env },
  );
  if (!install.ok || !codeServerWorks()) {
    throw new Error(`code-server ${CODE_SERVER_VERSION} did not install:\n${install.out.slice(-4000)}`);
  }
  log(`code-server installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return CODE_SERVER_BIN;
}

/** Everything the code-server runners need; returns the paths they use. */
export function ensureCodeServerPrereqs() {
  const chromium = ensureChromium();
  if (!onPath('rg')) ensureRipgrep();
  const codeServer = ensureCodeServer();
  return { chromium, codeServer };
}

/**
 * What the HTTPS and proxy suites run (scripts/vscode/tls.mjs, proxy.mjs): Debian's openssl,
 * which makes their certificates, and tinyproxy-bin, the proxy (its executable only: no
 * system service is started). Installed when missing.
 */
export function ensureNetworkTestTools() {
  const missing = [
    ['openssl', 'openssl'],
    ['tinyproxy', 'tinyproxy-bin'],
  ]
    .filter(([command]) => !onPath(command))
    .map(([, pkg]) => pkg);
  if (missing.length) aptInstall(missing, 'the HTTPS and proxy tests');
}
