// A real HTTP proxy for the tests: Debian's tinyproxy (package tinyproxy-bin, the executable
// without a system service), started on a free loopback port with its own configuration and
// log file in a temp folder, and stopped on every exit path (stop(), or the process exiting).
// It tunnels HTTPS with CONNECT, as a corporate proxy does; its log names every CONNECT.
// Plain Node, no build step: the integration suite (in the extension host) and the unit tests
// import it. Why tinyproxy and not squid: it does what these tests need (CONNECT, Basic
// authentication answering 407, a log line per tunnel) from a 12-line configuration, starts in
// milliseconds, and needs no cache folder or service account; squid would add nothing here.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const READY_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;
const ATTEMPTS = 5;

/** A loopback port that was free a moment ago (tinyproxy takes no port 0). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(1_000, () => done(false));
  });
}

function configuration({ port, logFile, auth, connectPorts }) {
  return [
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Allow 127.0.0.1',
    'Timeout 60',
    'MaxClients 100',
    `LogFile "${logFile}"`,
    // One line per connection and per request line (CONNECT host:port), never a header.
    'LogLevel Connect',
    'DisableViaHeader Yes',
    // No ConnectPort line: CONNECT to any port (the service's is ephemeral). With `connectPorts`,
    // only those: a tunnel to any other port is refused with 403, as a company proxy refuses.
    ...(connectPorts ?? []).map((p) => `ConnectPort ${p}`),
    ...(auth ? [`BasicAuth ${auth.user} ${auth.password}`] : []),
    '',
  ].join('\n');
}

/** Starts tinyproxy once on `port`; resolves when it accepts connections, rejects when it exits first. */
async function launch(dir, port, auth, connectPorts) {
  const configFile = path.join(dir, 'tinyproxy.conf');
  const logFile = path.join(dir, 'tinyproxy.log');
  fs.writeFileSync(configFile, configuration({ port, logFile, auth, connectPorts }));
  fs.writeFileSync(logFile, '');
  const child = spawn('tinyproxy', ['-d', '-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c) => (output = (output + c).slice(-4000)));
  child.stderr.on('data', (c) => (output = (output + c).slice(-4000)));
  let exited;
  const exit = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve((exited = { code, signal })));
    child.once('error', (error) => resolve((exited = { code: null, signal: null, error })));
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && !exited) {
    if (await canConnect(port)) return { child, exit, configFile, logFile, exited: () => exited };
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!exited) child.kill('SIGKILL');
  await Promise.race([exit, new Promise((r) => setTimeout(r, STOP_TIMEOUT_MS))]);
  if (exited?.error?.code === 'ENOENT') {
    throw new Error(
      'The proxy tests run tinyproxy, which is not installed: install the Debian package "tinyproxy-bin" ' +
        '(apt-get install -y tinyproxy-bin; .ci/run installs it).',
    );
  }
  const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
  throw new Error(
    `tinyproxy did not listen on 127.0.0.1:${port} within ${READY_TIMEOUT_MS} ms (${JSON.stringify(exited)}):\n${output}${log.slice(-2000)}`,
  );
}

/**
 * Starts tinyproxy on a free loopback port. `auth` ({ user, password }): it answers 407 to
 * any request without those Basic credentials. Resolves to the running proxy.
 */
export async function startProxy({ auth, connectPorts } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eus-proxy-'));
  let running;
  let lastError;
  for (let attempt = 0; attempt < ATTEMPTS && !running; attempt++) {
    const port = await freePort();
    try {
      running = { port, ...(await launch(dir, port, auth, connectPorts)) };
    } catch (error) {
      lastError = error;
      if (/not installed/.test(error.message)) break;
    }
  }
  if (!running) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw lastError;
  }
  const { child, exit, logFile, port } = running;
  const killOnExit = () => {
    if (!running.exited()) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  let stopping;
  const read = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    logFile,
    /** The whole log so far. */
    log: read,
    /** Every tunnel asked for so far, as `host:port`, in order. */
    connects: () => [...read().matchAll(/Request \(file descriptor \d+\): CONNECT (\S+) HTTP/g)].map((m) => m[1]),
    /** SIGTERM, then SIGKILL after a grace period; removes its folder. Safe to call twice. */
    stop() {
      stopping ??= (async () => {
        if (!running.exited()) {
          child.kill('SIGTERM');
          const ended = await Promise.race([
            exit.then(() => true),
            new Promise((r) => setTimeout(() => r(false), STOP_TIMEOUT_MS)),
          ]);
          if (!ended) {
            child.kill('SIGKILL');
            await Promise.race([exit, new Promise((r) => setTimeout(r, STOP_TIMEOUT_MS))]);
          }
        }
        process.off('exit', killOnExit);
        fs.rmSync(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}
