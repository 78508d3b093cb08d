// The configuration the extension copies for MCP clients outside VS Code (issue 47), used as a
// client uses it: the server started from the `command`, `args` and `env` it gives (the key
// put where the user puts it: in place of the placeholder, or as VS Code's input), answering
// the SDK's client. The key itself is never in the copied text.
import assert from 'node:assert/strict';
import { clientConfiguration, keyPlaceholder, serverName } from '../../src/chat/mcpConfig';
import { Tools } from '../../src/tools/definitions';
import { call, connect, SERVER } from './support/mcpClient';
import { useReferenceService } from './support/referenceService';

interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

describe('The MCP configuration copied for other clients (unit)', function () {
  this.timeout(20_000);
  const reference = useReferenceService();
  const service = reference.service;
  const server = () => ({ script: SERVER, label: 'Staging (EU)', baseUrl: service.baseUrl, production: true });

  /** Starts the server as the launch says and reads engagements through it. */
  async function runAsConfigured(launch: Launch): Promise<string> {
    assert.equal(launch.command, 'node', 'Node from the PATH');
    const session = await connect(launch.env, [], { command: launch.command, args: launch.args });
    try {
      const found = await call(session, Tools.findEngagements, { limit: 1 });
      assert.equal(found.isError, false, found.text);
      return found.text;
    } finally {
      await session.close();
    }
  }

  it('the mcpServers form (Claude Desktop, Cursor): the stable script, the URL and label, a placeholder for the key', async () => {
    const text = clientConfiguration('mcpServers', server());
    assert.ok(!text.includes(service.keys.admin));
    const config = JSON.parse(text) as { mcpServers: Record<string, Launch> };
    assert.deepEqual(Object.keys(config.mcpServers), ['engagements-staging-eu']);
    const launch = config.mcpServers['engagements-staging-eu'];
    assert.deepEqual(launch.args, [SERVER]);
    assert.deepEqual(launch.env, {
      EUS_BASE_URL: service.baseUrl,
      EUS_ENVIRONMENT: 'Staging (EU)',
      EUS_PRODUCTION: '1',
      EUS_API_KEY: '<paste the API key of Staging (EU) here>',
    });
    // What the user does: the key in place of the placeholder.
    launch.env.EUS_API_KEY = service.keys.admin;
    assert.match(await runAsConfigured(launch), /^Environment: “Staging \(EU\)” \(production\)\./);
  });

  it('VS Code’s mcp.json form: a stdio server whose key is a password input VS Code asks for', async () => {
    const text = clientConfiguration('vscode', server());
    assert.ok(!text.includes(service.keys.admin));
    const config = JSON.parse(text) as {
      inputs: Array<{ type: string; id: string; password: boolean; description: string }>;
      servers: Record<string, Launch & { type: string }>;
    };
    const [input] = config.inputs;
    assert.deepEqual([input.type, input.password], ['promptString', true]);
    assert.match(input.description, /API key of Staging \(EU\)/);
    const { type, ...launch } = config.servers['engagements-staging-eu'];
    assert.equal(type, 'stdio');
    assert.equal(launch.env.EUS_API_KEY, `\${input:${input.id}}`);
    // What VS Code does: the input's answer in place of `${input:…}`.
    launch.env.EUS_API_KEY = service.keys.admin;
    assert.match(await runAsConfigured(launch), /^Environment: “Staging \(EU\)” \(production\)\./);
  });

  it('names and placeholders: plain letters, never empty', () => {
    assert.equal(serverName('Ünïcode — Prod!'), 'engagements-unicode-prod');
    assert.equal(serverName('★★'), 'engagements');
    assert.equal(keyPlaceholder('Prod'), '<paste the API key of Prod here>');
  });
});
