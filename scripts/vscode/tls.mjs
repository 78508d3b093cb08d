// Certificates for the HTTPS tests, made at test time with Debian's `openssl` command (none is
// checked in): a private certificate authority, a server certificate it signed for the
// loopback names, and the broken certificates a user meets (expired, another host's, a
// self-signed one, one from an authority nobody trusts). Plain Node, no build step: the
// runners call it before code-server starts (trust must be in its environment), the unit and
// e2e tests and the reference service's CLI import it.
//
// Why the openssl CLI and not an npm package: it is Debian's own tool, already on the
// machines that build code-server, it makes real X.509 (name constraints, chains, backdated
// validity through `openssl ca`), and nothing it makes depends on a JavaScript
// re-implementation of certificate encoding that the code under test never meets.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Host names and addresses the good certificate is valid for. 127.0.0.2/3: VS Code never proxies 127.0.0.1. */
export const LOOPBACK_NAMES = ['localhost'];
export const LOOPBACK_ADDRESSES = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '::1'];
/** The name in the certificate for another host (`.invalid` is reserved: it never resolves). */
export const OTHER_HOST = 'engagements.invalid';

/** What each served certificate is; the keys are the names the tests and the CLI use. */
export const CERTIFICATES = {
  good: 'signed by the private test CA for localhost, 127.0.0.1-3 and ::1',
  expired: 'signed by the private test CA for the same names, expired 30 days ago',
  wrongHost: `signed by the private test CA for ${OTHER_HOST} only`,
  selfSigned: 'a self-signed certificate for the loopback names (no CA)',
  untrusted: 'signed by an intermediate of a second CA that is never trusted (sent with the intermediate)',
  untrustedRoot: 'the same, sent with the intermediate and the untrusted root',
};
export const CERTIFICATE_NAMES = Object.keys(CERTIFICATES);

const OPENSSL_TIMEOUT_MS = 20_000;
const DAY_MS = 24 * 60 * 60_000;
/** The CA lives this long: a run reuses its folder only while it has a day left. */
const CA_DAYS = 7;

function opensslConfig(dir) {
  const loopback = [
    ...LOOPBACK_NAMES.map((n, i) => `DNS.${i + 1} = ${n}`),
    ...LOOPBACK_ADDRESSES.map((a, i) => `IP.${i + 1} = ${a}`),
  ].join('\n');
  const leaf = [
    'basicConstraints = critical, CA:FALSE',
    'keyUsage = critical, digitalSignature',
    'extendedKeyUsage = serverAuth',
    'subjectKeyIdentifier = hash',
  ].join('\n');
  return `# Written by scripts/vscode/tls.mjs for one test run.
[ req ]
distinguished_name = dn
[ dn ]

[ ca ]
default_ca = issuer
[ issuer ]
database = ${path.join(dir, 'index.txt')}
serial = ${path.join(dir, 'serial')}
new_certs_dir = ${path.join(dir, 'issued')}
default_md = sha256
policy = any_name
unique_subject = no
copy_extensions = none
email_in_dn = no
[ any_name ]
organizationName = optional
commonName = supplied

# The test CA may vouch only for loopback names and addresses (and .invalid, for the
# wrong-host certificate): were it ever trusted by mistake, it could not stand for a real site.
[ test_ca ]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
nameConstraints = critical, @loopback_only
[ loopback_only ]
permitted;DNS.1 = localhost
permitted;DNS.2 = invalid
permitted;IP.1 = 127.0.0.0/255.0.0.0
permitted;IP.2 = ::1/ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff
[ other_root ]
basicConstraints = critical, CA:TRUE, pathlen:1
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ other_intermediate ]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ server ]
${leaf}
authorityKeyIdentifier = keyid
subjectAltName = @loopback
[ server_other_host ]
${leaf}
authorityKeyIdentifier = keyid
subjectAltName = DNS:${OTHER_HOST}
[ self_signed ]
${leaf}
subjectAltName = @loopback
[ loopback ]
${loopback}
`;
}

function openssl(dir, args) {
  const result = spawnSync('openssl', args, {
    cwd: dir,
    encoding: 'utf8',
    timeout: OPENSSL_TIMEOUT_MS,
    env: { ...process.env, OPENSSL_CONF: path.join(dir, 'openssl.cnf') },
  });
  if (result.error?.code === 'ENOENT') {
    throw new Error(
      'The HTTPS tests make their certificates with the openssl command, which is not installed: ' +
        'install the Debian package "openssl" (apt-get install -y openssl; .ci/run installs it).',
    );
  }
  if (result.error) throw new Error(`openssl ${args[0]} failed: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`openssl ${args.join(' ')} failed (exit ${result.status}):\n${result.stderr}`);
}

/** `openssl ca` dates: UTCTime, YYMMDDHHMMSSZ. */
function utcTime(ms) {
  return `${new Date(ms)
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d+Z$/, 'Z')
    .slice(2)}`;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** A self-signed CA (or leaf) certificate with a new key. */
function selfSigned(dir, name, subject, extensions, days) {
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.pem`,
    '-subj',
    subject,
    '-days',
    String(days),
    '-config',
    'openssl.cnf',
    '-extensions',
    extensions,
  ]);
}

/** A new key and a certificate for it signed by `issuer`, valid from `start` to `end` (ms). */
function signed(dir, name, subject, issuer, extensions, start, end) {
  openssl(dir, ['req', '-new', ...EC_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
  openssl(dir, [
    'ca',
    '-batch',
    '-notext',
    '-rand_serial',
    '-config',
    'openssl.cnf',
    '-cert',
    `${issuer}.pem`,
    '-keyfile',
    `${issuer}.key`,
    '-in',
    `${name}.csr`,
    '-out',
    `${name}.pem`,
    '-startdate',
    utcTime(start),
    '-enddate',
    utcTime(end),
    '-extensions',
    extensions,
  ]);
}

function generate(dir) {
  fs.mkdirSync(path.join(dir, 'issued'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'openssl.cnf'), opensslConfig(dir));
  fs.writeFileSync(path.join(dir, 'index.txt'), '');
  fs.writeFileSync(path.join(dir, 'serial'), '01\n');
  const now = Date.now();
  const run = crypto.randomBytes(4).toString('hex');
  const o = '/O=Engagement and Usage tests';
  selfSigned(dir, 'ca', `${o}/CN=EUS test CA ${run}`, 'test_ca', CA_DAYS);
  selfSigned(dir, 'other-ca', `${o}/CN=EUS untrusted CA ${run}`, 'other_root', CA_DAYS);
  const valid = [now - 60 * 60_000, now + CA_DAYS * DAY_MS];
  signed(
    dir,
    'other-intermediate',
    `${o}/CN=EUS untrusted intermediate ${run}`,
    'other-ca',
    'other_intermediate',
    ...valid,
  );
  signed(dir, 'good', `${o}/CN=localhost`, 'ca', 'server', ...valid);
  signed(dir, 'expired', `${o}/CN=localhost`, 'ca', 'server', now - 60 * DAY_MS, now - 30 * DAY_MS);
  signed(dir, 'wrong-host', `${o}/CN=${OTHER_HOST}`, 'ca', 'server_other_host', ...valid);
  selfSigned(dir, 'self-signed', `${o}/CN=localhost`, 'self_signed', CA_DAYS);
  signed(dir, 'untrusted', `${o}/CN=localhost`, 'other-intermediate', 'server', ...valid);
  const read = (file) => fs.readFileSync(path.join(dir, file), 'utf8');
  fs.writeFileSync(path.join(dir, 'untrusted-chain.pem'), read('untrusted.pem') + read('other-intermediate.pem'));
  fs.writeFileSync(
    path.join(dir, 'untrusted-root-chain.pem'),
    read('untrusted.pem') + read('other-intermediate.pem') + read('other-ca.pem'),
  );
  // Written last: a folder holding it is complete.
  fs.writeFileSync(path.join(dir, 'certificates.json'), JSON.stringify({ validUntil: now + CA_DAYS * DAY_MS }));
}

/** Which files each served certificate is made of. */
const FILES = {
  good: ['good.key', 'good.pem'],
  expired: ['expired.key', 'expired.pem'],
  wrongHost: ['wrong-host.key', 'wrong-host.pem'],
  selfSigned: ['self-signed.key', 'self-signed.pem'],
  untrusted: ['untrusted.key', 'untrusted-chain.pem'],
  untrustedRoot: ['untrusted.key', 'untrusted-root-chain.pem'],
};

function load(dir) {
  const file = (name) => ({ file: path.join(dir, name), text: fs.readFileSync(path.join(dir, name), 'utf8') });
  const served = {};
  for (const name of CERTIFICATE_NAMES) {
    const [keyName, certName] = FILES[name];
    const key = file(keyName);
    const cert = file(certName);
    served[name] = {
      name,
      description: CERTIFICATES[name],
      key: key.text,
      cert: cert.text,
      keyFile: key.file,
      certFile: cert.file,
    };
  }
  const ca = file('ca.pem');
  const other = file('other-ca.pem');
  return {
    dir,
    ca: { cert: ca.text, certFile: ca.file },
    otherCa: { cert: other.text, certFile: other.file },
    served,
  };
}

function usable(dir) {
  try {
    const { validUntil } = JSON.parse(fs.readFileSync(path.join(dir, 'certificates.json'), 'utf8'));
    return typeof validUntil === 'number' && validUntil - Date.now() > DAY_MS;
  } catch {
    return false;
  }
}

const made = new Map();
let processDir;

/**
 * The test certificates in `dir`, made there unless a complete set is already in it (one
 * run shares one set: the runner makes it, code-server's tests read it). Without `dir`, a
 * folder of this process under the OS temp dir, removed when the process exits.
 */
export function makeCertificates(dir) {
  if (!dir) {
    if (!processDir) {
      processDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eus-tls-'));
      const folder = processDir;
      process.once('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
    }
    dir = processDir;
  }
  const known = made.get(dir);
  if (known && usable(dir)) return known;
  if (!usable(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    generate(dir);
  }
  const certificates = load(dir);
  made.set(dir, certificates);
  return certificates;
}

/** Proxy variables of the caller's environment, emptied for code-server: the proxy tests set `http.proxy` themselves. */
const PROXY_VARIABLES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY'];

/**
 * For a runner, before code-server starts: this run's certificates in a fresh temp folder and
 * what code-server's environment (so its extension host's) gets: NODE_EXTRA_CA_CERTS, the
 * private CA trusted for the VS Code process the way a user trusts it without touching the
 * machine's store; EUS_TLS_DIR, where the tests read the same set; the proxy variables emptied.
 * `remove()` deletes the folder (so does the process exiting).
 */
export function certificatesForRun() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eus-tls-run-'));
  const certificates = makeCertificates(dir);
  const env = { NODE_EXTRA_CA_CERTS: certificates.ca.certFile, EUS_TLS_DIR: dir };
  for (const name of PROXY_VARIABLES) env[name] = '';
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  // Also when the runner exits on a signal or an error without calling remove().
  process.once('exit', remove);
  return { certificates, env, remove };
}
