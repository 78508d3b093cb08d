// Starts a throwaway code-server (a real VS Code server with its web workbench; its version is
// the caller's choice, see VSCODE_VERSIONS in prereqs.mjs) and a headless Chromium on it. Used
// by the integration runner (tests inside the extension host) and by the end-to-end runner
// (Playwright driving the page). Everything it starts is stopped by `stop()`, which the runners
// call on every exit path.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const LISTENING = /HTTP server listening on (http:\/\/127\.0\.0\.1:(\d+))/;
const LOG_LINES = 400;

export const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'window.restoreWindows': 'none',
  // 1.139 opens the Chat view in the secondary side bar of every new window; no suite uses it.
  // In fresh-clone runs a Command Palette and a quick pick opened early in a window's life closed
  // without their command, the Chat view beside them (its start-up is the suspect): the windows
  // start without it, as a person who closed it has them. 1.100 does not know the setting.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // A webview being opened or restored takes the focus late, once its content has loaded, and
  // VS Code then closes a Command Palette or quick pick opened meanwhile (microsoft/vscode#75209,
  // #93950; in the web workbench #204522, #214787). Seen in the e2e windows (the details panel
  // opened a test before took the focus from an open input box) and in the integration windows
  // (Go to Engagement's quick pick closed while the extension host was busy reading). With it the
  // quick input stays open and the test goes on; the extension's own boxes keep `ignoreFocusOut`
  // anyway, so nothing a person sees of the extension changes.
  'workbench.quickOpen.closeOnFocusLost': false,
};

/**
 * How to start `command` in a private mount namespace in which /etc/resolv.conf names only
 * 127.0.0.1 (where nothing answers): a name /etc/hosts does not hold fails at once on this
 * machine, so no test (nor the workbench's own lookups, such as open-vsx.org) sends a DNS
 * query beyond loopback. With `systemCa`, that CA is also added to the system's trusted
 * certificates as VS Code reads them (/etc/ssl/certs/ca-certificates.crt), as a user's IT
 * would install a company CA; the machine's own files are untouched. Root, or unprivileged
 * user namespaces, are needed; without them the command runs as it is, unless `systemCa`
 * is asked for (then it throws, saying why).
 */
function isolated(command, args, dir, systemCa) {
  const resolv = path.join(dir, 'resolv.conf');
  fs.writeFileSync(resolv, 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n');
  const binds = [[resolv, '/etc/resolv.conf']];
  const store = '/etc/ssl/certs/ca-certificates.crt';
  if (systemCa) {
    const bundle = path.join(dir, 'ca-certificates.crt');
    const system = fs.existsSync(store) ? fs.readFileSync(store, 'utf8') : '';
    fs.writeFileSync(bundle, `${system.trimEnd()}\n${fs.readFileSync(systemCa, 'utf8')}`);
    binds.push([bundle, store]);
  }
  const script = `${binds.map((_, i) => `mount --bind "$${i * 2 + 1}" "$${i * 2 + 2}"`).join(' && ')} && shift ${binds.length * 2} && exec "$@"`;
  const inner = ['sh', '-c', script, 'sh', ...binds.flat(), command, ...args];
  for (const unshare of [
    ['--mount', '--propagation', 'private'],
    ['--user', '--map-root-user', '--mount', '--propagation', 'private'],
  ]) {
    const probe = spawnSync('unshare', [...unshare, 'sh', '-c', `mount --bind "$1" "$1"`, 'sh', resolv], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    if (probe.status === 0) return { command: 'unshare', args: [...unshare, '--', ...inner], isolated: true };
  }
  if (systemCa)
    throw new Error(
      'Trusting the test CA through the system store needs a private mount namespace (`unshare --mount` as root, or unprivileged user namespaces); neither works here.',
    );
  return { command, args, isolated: false };
}

/** A fresh folder under the OS temp dir; removed by stop(). */
function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `eus-${prefix}-`));
}

/**
 * Extensions folders with packages installed by code-server, by what was installed, for the
 * whole process: each e2e test file is a bundle with its own copy of this module, so the map
 * lives on `globalThis`, with one exit handler that removes the folders.
 */
const INSTALLS = Symbol.for('eus.codeServer.installs');
const installs = (globalThis[INSTALLS] ??= new Map());
function removeInstalls() {
  for (const dir of installs.values()) fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Fills `target` (an empty extensions folder) with `packages` installed by code-server's own
 * `--install-extension`. Each set of packages (by path, size and time) is installed once per
 * process, into a folder of its own, and copied from there: a workbench started after the first
 * gets the same files and `extensions.json` (its paths moved to `target`) without another
 * code-server start (about 1 s on the quiet 2-core machine, more under load).
 */
function installed(codeServer, packages, env, target) {
  const key = JSON.stringify([
    codeServer,
    ...packages.map((file) => {
      const stat = fs.statSync(file);
      return [path.resolve(file), stat.size, stat.mtimeMs];
    }),
  ]);
  let source = installs.get(key);
  if (!source) {
    if (!installs.size) process.once('exit', removeInstalls);
    source = tempDir('extensions');
    const data = tempDir('install-data');
    try {
      for (const file of packages) {
        const install = spawnSync(
          codeServer,
          ['--user-data-dir', data, '--extensions-dir', source, '--install-extension', file],
          { encoding: 'utf8', env, timeout: 120_000 },
        );
        if (install.status !== 0 || !/successfully installed/i.test(`${install.stdout}${install.stderr}`))
          throw new Error(`code-server --install-extension ${file} failed:\n${install.stdout}${install.stderr}`);
      }
    } catch (error) {
      fs.rmSync(source, { recursive: true, force: true });
      throw error;
    } finally {
      fs.rmSync(data, { recursive: true, force: true });
    }
    installs.set(key, source);
  }
  fs.cpSync(source, target, { recursive: true });
  const list = path.join(target, 'extensions.json');
  if (fs.existsSync(list)) fs.writeFileSync(list, fs.readFileSync(list, 'utf8').replaceAll(source, target));
}

/**
 * Starts code-server on an ephemeral loopback port with throwaway user data, extensions and
 * workspace folders. `env` is added to its environment: its extension host inherits it.
 * `vsix` (optional) is installed into the throwaway extensions folder first. `node` (optional):
 * the Node binary that runs code-server and so its extension host (code-server 4.139.1 needs
 * Node 24): its folder goes first on PATH, where code-server's `#!/usr/bin/env node` finds it.
 * Without it, the `node` on PATH runs it.
 */
export async function startCodeServer({
  codeServer,
  node,
  env = {},
  vsix,
  extraVsix = [],
  settings = {},
  workspaceTrust = false,
  workspaceSettings,
  startTimeoutMs = 60_000,
  isolate = false,
  systemCa,
}) {
  const dirs = { root: tempDir('vscode') };
  for (const name of ['user-data', 'extensions', 'workspace', 'config']) {
    dirs[name] = path.join(dirs.root, name);
    fs.mkdirSync(dirs[name], { recursive: true });
  }
  fs.mkdirSync(path.join(dirs['user-data'], 'User'), { recursive: true });
  // workspaceTrust: VS Code's workspace trust stays on (Restricted Mode for the test folder).
  const trust = workspaceTrust
    ? {
        'security.workspace.trust.enabled': true,
        'security.workspace.trust.startupPrompt': 'never',
        'security.workspace.trust.emptyWindow': false,
      }
    : {};
  fs.writeFileSync(
    path.join(dirs['user-data'], 'User', 'settings.json'),
    JSON.stringify({ ...USER_SETTINGS, ...trust, ...settings }, null, 2),
  );
  if (workspaceSettings) {
    fs.mkdirSync(path.join(dirs.workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(dirs.workspace, '.vscode', 'settings.json'), JSON.stringify(workspaceSettings, null, 2));
  }
  const configFile = path.join(dirs.config, 'config.yaml');
  fs.writeFileSync(configFile, 'auth: none\ncert: false\n');
  const childEnv = {
    ...process.env,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: path.join(dirs.root, 'data'),
    ...(node ? { PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` } : {}),
    ...env,
  };
  const common = ['--config', configFile, '--user-data-dir', dirs['user-data'], '--extensions-dir', dirs.extensions];

  const packages = [vsix, ...extraVsix].filter(Boolean);
  if (packages.length) {
    try {
      installed(codeServer, packages, childEnv, dirs.extensions);
    } catch (error) {
      fs.rmSync(dirs.root, { recursive: true, force: true });
      throw error;
    }
  }

  const args = [
    ...common,
    '--auth',
    'none',
    '--bind-addr',
    '127.0.0.1:0',
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--log',
    'debug',
  ];
  const launch = isolate || systemCa ? isolated(codeServer, args, dirs.root, systemCa) : { command: codeServer, args };
  const child = spawn(launch.command, launch.args, {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines = [];
  const listeners = new Set();
  const onData = (chunk) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > LOG_LINES) lines.shift();
      for (const listener of listeners) listener(line);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  let exited = null;
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve((exited = { code, signal }))));
  // Last resort when the runner exits without stop() (an uncaught error, process.exit).
  const killOnExit = () => {
    try {
      if (!exited) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killOnExit);

  const server = {
    dirs,
    child,
    exit,
    get exited() {
      return exited;
    },
    /** The last lines code-server printed (its own log and its extension host's). */
    logTail: (n = 80) => lines.slice(-n).join('\n'),
    onLine(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    url: '',
    port: 0,
    async stop() {
      await stopProcess(child, exit, () => exited);
      process.off('exit', killOnExit);
      fs.rmSync(dirs.root, { recursive: true, force: true });
    },
  };

  try {
    const match = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`code-server did not start within ${startTimeoutMs} ms`)),
        startTimeoutMs,
      );
      const found = (line) => {
        const m = LISTENING.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(m);
        }
      };
      for (const line of lines) found(line);
      server.onLine(found);
      void exit.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited (code ${code}, signal ${signal}) before listening`));
      });
    });
    server.url = match[1];
    server.port = Number(match[2]);
  } catch (error) {
    const tail = server.logTail(40);
    await server.stop();
    throw new Error(`${error.message}\n--- code-server log ---\n${tail}`, { cause: error });
  }
  return server;
}

/** SIGTERM the process group, then SIGKILL after a grace period; bounded either way. */
async function stopProcess(child, exit, exited) {
  if (exited() || child.pid === undefined) return;
  const signal = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      try {
        child.kill(sig);
      } catch {
        // already gone
      }
    }
  };
  signal('SIGTERM');
  const graceful = await Promise.race([exit.then(() => true), new Promise((r) => setTimeout(() => r(false), 5_000))]);
  if (!graceful) {
    signal('SIGKILL');
    await Promise.race([exit, new Promise((r) => setTimeout(r, 5_000))]);
  }
}

/** The workbench address: a folder, and optionally extension development/test paths. */
export function workbenchUrl(server, { folder, extensionDevelopmentPath, extensionTestsPath }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload = [];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  // No folder: an empty window (`ew=true`), as VS Code opens with nothing to open.
  const query = [folder ? `folder=${encodeURIComponent(folder)}` : 'ew=true'];
  if (payload.length) query.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
  return `${server.url}/?${query.join('&')}`;
}

/**
 * Lets the workbench in `page` honour the extension development and test paths of the
 * address's `payload` (see workbenchUrl). VS Code 1.100 honours them always; later versions
 * (1.139 here) only in a development build or when the embedder turns on its automation
 * driver (`developmentOptions.enableSmokeTestDriver`, as VS Code's own smoke tests do), and
 * code-server has no flag for it. So the page's workbench configuration (a JSON attribute of
 * a `<meta>` the page's scripts read) gets that option as the parser adds the element: a
 * mutation observer's callback runs at the microtask checkpoint after the next script, before
 * the workbench's own script is even fetched. (Rewriting the page's response instead makes
 * Chromium treat the page as public and block its WebSocket to 127.0.0.1, Local Network
 * Access.) Only the runner of extension tests calls this; a workbench opened as a user opens
 * it (the end-to-end tests) stays as it is.
 */
export async function allowExtensionTestsPayload(page) {
  await page.addInitScript(() => {
    /* global document, MutationObserver -- these callbacks run in the page */
    const patch = () => {
      const meta = document.getElementById('vscode-workbench-web-configuration');
      const settings = meta?.getAttribute('data-settings');
      if (!meta || !settings) return false;
      const config = JSON.parse(settings);
      config.developmentOptions = { ...config.developmentOptions, enableSmokeTestDriver: true };
      meta.setAttribute('data-settings', JSON.stringify(config));
      return true;
    };
    const observer = new MutationObserver(() => patch() && observer.disconnect());
    observer.observe(document, { childList: true, subtree: true });
  });
}

/** Whether the workbench of `page` was given the option above (false: it would ignore the payload). */
export async function extensionTestsPayloadAllowed(page) {
  return page.evaluate(() => {
    const settings = document.getElementById('vscode-workbench-web-configuration')?.getAttribute('data-settings');
    return Boolean(settings && JSON.parse(settings).developmentOptions?.enableSmokeTestDriver);
  });
}

/** Headless Chromium (Debian's) for the workbench; no network beyond loopback is tried. */
export async function launchBrowser(executablePath, { viewport = { width: 1400, height: 900 } } = {}) {
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    timeout: 60_000,
    // The runners handle signals themselves: they stop code-server too, then exit.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
  const context = await browser.newContext({ viewport });
  return { browser, context };
}

/** Closes the browser within a bounded time, then the server. Safe to call twice. */
export async function stopAll({ browser, server }) {
  if (browser) await Promise.race([browser.close().catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
  if (server) await server.stop().catch(() => undefined);
}
