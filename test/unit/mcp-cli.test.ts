// The MCP server's command line as a new user meets it (issue 47): the built dist/mcp-server.mjs
// run with `--help`, `--version`, an unknown flag and a secret passed as an argument; and the
// `~` of a path the server reads.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expandHome } from '../../src/mcp/cli';
import { ROOT, runToEnd, SERVER } from './support/mcpClient';

const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const run = (...args: string[]) => runToEnd(process.execPath, [SERVER, ...args]);

describe('The MCP server’s command line (unit)', function () {
  this.timeout(20_000);

  it('--help prints the usage, every flag and every variable it reads, and exits 0', async () => {
    for (const flag of ['--help', '-h']) {
      const ran = await run(flag);
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(ran.stderr, '');
      assert.match(ran.stdout, /^Engagement & Usage MCP server/);
      for (const word of [
        '--allow-writes',
        '--help',
        '--version',
        'EUS_BASE_URL',
        'EUS_API_KEY',
        'EUS_ENVIRONMENT',
        'EUS_PRODUCTION',
        'EUS_TIMEOUT_SECONDS',
        'HTTPS_PROXY',
        'NO_PROXY',
        'NODE_EXTRA_CA_CERTS',
        'EUS_SYSTEM_CA',
      ])
        assert.ok(ran.stdout.includes(word), `--help names ${word}`);
    }
  });

  it('--version prints the package’s version and exits 0', async () => {
    for (const flag of ['--version', '-v']) {
      const ran = await run(flag);
      assert.deepEqual([ran.code, ran.stdout, ran.stderr], [0, `${version}\n`, '']);
    }
  });

  it('an unknown flag is an error naming the flags it takes; what an argument held is never repeated', async () => {
    const readOnly = await run('--read-only');
    assert.equal(readOnly.code, 2);
    assert.equal(readOnly.stdout, '', 'nothing on stdout, where a client reads JSON-RPC');
    assert.match(readOnly.stderr, /does not take “--read-only”\. It takes --allow-writes, --help and --version/);

    const secret = 'sk-typed-on-the-command-line';
    for (const args of [['--api-key', secret], [`--api-key=${secret}`], [secret]]) {
      const ran = await run(...args);
      assert.equal(ran.code, 2, args.join(' '));
      assert.match(ran.stderr, /read from EUS_BASE_URL and EUS_API_KEY/);
      assert.ok(!ran.stderr.includes(secret), `${args.join(' ')}: the value is not repeated`);
    }
  });

  it('~ at the start of a path is the home folder; elsewhere it is left as written', () => {
    const home = path.join(os.tmpdir(), 'home-of-someone');
    assert.equal(expandHome('~/certs/ca.pem', home), path.join(home, 'certs', 'ca.pem'));
    assert.equal(expandHome('~', home), home);
    assert.equal(expandHome('/etc/ssl/~ca.pem', home), '/etc/ssl/~ca.pem');
    assert.equal(expandHome('~other/ca.pem', home), '~other/ca.pem', 'another user’s home is not guessed');
  });
});
