// The MCP server as an npm package (issue 47): packages/mcp-server, built by esbuild.mjs from
// the same source as the extension's copy, packed with `npm pack`, installed from the tarball
// into an empty folder offline (so it has no dependency to fetch), and run as its users run it:
// the `bin` npm linked, `--version`, then an MCP handshake and a tool call with the SDK's client.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Tools } from '../../src/tools/definitions';
import { call, connect, ROOT, runToEnd } from './support/mcpClient';
import { useReferenceService } from './support/referenceService';

const PACKAGE = path.join(ROOT, 'packages', 'mcp-server');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Manifest {
  name: string;
  version: string;
  bin: Record<string, string>;
  dependencies?: Record<string, string>;
  engines: { node: string };
}

describe('The MCP server as an npm package, installed from its tarball (unit)', function () {
  this.timeout(120_000);
  const reference = useReferenceService({ engagementCount: 5 });
  let folder: string;
  let bin: string;
  let manifest: Manifest;

  let packedFiles: string[];

  // Packed and installed once, as a user installs it; the tests read what that gave.
  before(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'eus-mcp-package-'));
    manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE, 'package.json'), 'utf8')) as Manifest;
    const packed = JSON.parse(
      execFileSync(npm, ['pack', '--json', '--pack-destination', folder], { cwd: PACKAGE, encoding: 'utf8' }),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    packedFiles = packed[0].files.map((f) => f.path).sort();
    const project = path.join(folder, 'project');
    fs.mkdirSync(project);
    execFileSync(
      npm,
      ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(folder, packed[0].filename)],
      { cwd: project, encoding: 'utf8' },
    );
    bin = path.join(project, 'node_modules', '.bin', 'engagement-usage-mcp');
  });
  after(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('its manifest: a bin, Node 20, no dependencies, the extension’s version', () => {
    const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
    assert.equal(manifest.version, root.version, 'one version for the extension and the package');
    assert.deepEqual(manifest.bin, { 'engagement-usage-mcp': 'dist/mcp-server.mjs' });
    assert.equal(manifest.dependencies, undefined, 'everything it runs is bundled');
    assert.equal(manifest.engines.node, '>=20');
  });

  it('npm pack holds the bundle, the README and the manifest; installed offline into an empty folder, its bin prints the version', async () => {
    assert.deepEqual(packedFiles, ['README.md', 'dist/mcp-server.mjs', 'package.json']);
    assert.ok(fs.existsSync(bin), 'npm linked the bin');
    const ran = await runToEnd(bin, ['--version']);
    assert.deepEqual([ran.code, ran.stdout, ran.stderr], [0, `${manifest.version}\n`, '']);
    const help = await runToEnd(bin, ['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /EUS_API_KEY/);
  });

  it('the installed bin answers an MCP client: the handshake, its tools, a find', async () => {
    const service = reference.service;
    const session = await connect(
      { EUS_BASE_URL: service.baseUrl, EUS_API_KEY: service.keys.admin, EUS_ENVIRONMENT: 'Packed' },
      [],
      { command: bin, args: [] },
    );
    try {
      assert.equal(session.client.getServerVersion()?.version, manifest.version);
      const { tools } = await session.client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        [Tools.findEngagements, Tools.getEngagement, Tools.usage],
      );
      const found = await call(session, Tools.findEngagements, { limit: 2 });
      assert.equal(found.isError, false, found.text);
      assert.match(found.text, /^Environment: “Packed”\./);
    } finally {
      await session.close();
    }
  });
});
