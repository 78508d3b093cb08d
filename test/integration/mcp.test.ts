// The MCP servers the extension offers VS Code (issue 35), in a real VS Code: on 1.139 the
// provider is registered, lists one definition per environment with a key on this machine
// (without the key), hands the key over only when it resolves one to start it, and that very
// command (VS Code's own executable as Node) answers tools/list and a tool call over stdio,
// driven by the MCP SDK's client. Removing the environment or turning writes on changes the
// definitions. On 1.100, which has no such API, nothing is registered and the extension works.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as vscode from 'vscode';
import { defineEnvironment, setSetting, suiteContext, useEnvironment, waitFor } from './support/helpers';
import { onNewest } from './support/versions';

describe('MCP servers offered to VS Code', function () {
  this.timeout(60_000);
  const ctx = suiteContext({ afresh: true, settings: ['mcp.allowWrites'] });
  const mcp = () => ctx.exports.chat!.mcp;

  if (!onNewest) {
    it('VS Code 1.100 has no MCP provider API: none is registered, and the extension and its tools work', async () => {
      assert.equal(mcp().registered, false);
      await useEnvironment(ctx, ctx.service.keys.admin, 'Staging');
      assert.deepEqual(await mcp().definitions(), []);
      const result = await vscode.lm.invokeTool('engagementUsage_findEngagements', {
        input: { limit: 1 },
        toolInvocationToken: undefined,
      });
      const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      assert.match(text, /Environment: “Staging”\./);
    });
    return;
  }

  it('one definition per environment with a key, without the key; started with it, it answers tools/list', async () => {
    assert.equal(mcp().registered, true);
    assert.deepEqual(await mcp().definitions(), [], 'no environment, no server');
    await useEnvironment(ctx, ctx.service.keys.admin, 'Staging');
    const [definition, ...others] = await mcp().definitions();
    assert.equal(others.length, 0);
    assert.equal(definition.label, 'Engagements: Staging');
    assert.equal(definition.env.EUS_BASE_URL, ctx.service.baseUrl);
    assert.equal(definition.env.EUS_API_KEY, undefined, 'a listed definition holds no key');
    assert.ok(!JSON.stringify(definition).includes(ctx.service.keys.admin));
    assert.ok(!definition.args.includes('--allow-writes'), 'read-only by default');

    const resolved = await mcp().resolve(definition);
    assert.ok(resolved, 'resolved to start');
    assert.equal(resolved.env.EUS_API_KEY, ctx.service.keys.admin);
    const transport = new StdioClientTransport({
      command: resolved.command,
      args: resolved.args,
      env: Object.fromEntries(Object.entries(resolved.env).map(([k, v]) => [k, String(v)])),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'vscode-integration', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [
        'engagementUsage_findEngagements',
        'engagementUsage_getEngagement',
        'engagementUsage_usage',
      ]);
      const found = await client.callTool({ name: 'engagementUsage_findEngagements', arguments: { limit: 2 } });
      const text = (found.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
      assert.match(text, /^Environment: “Staging”\./);
      assert.ok(!text.includes(ctx.service.keys.admin));
    } finally {
      await client.close();
    }
  });

  it('writes follow the setting; a removed environment, or one without a key here, has no server', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Staging');
    await setSetting('mcp.allowWrites', true);
    const [writable] = await mcp().definitions();
    assert.ok(writable.args.includes('--allow-writes'));
    assert.match(writable.version ?? '', /\+writes$/);

    // An environment the workspace defines, whose key the user never entered here: nothing to start.
    const config = vscode.workspace.getConfiguration('engagementUsage');
    await defineEnvironment(
      ctx,
      { label: 'Team', baseUrl: ctx.service.baseUrl },
      vscode.ConfigurationTarget.Workspace,
      (e) => e.label === 'Team' && e.source === 'workspace',
    );
    try {
      assert.deepEqual(
        (await mcp().definitions()).map((d) => d.label),
        ['Engagements: Staging'],
      );
    } finally {
      await config.update('environments', undefined, vscode.ConfigurationTarget.Workspace);
    }

    // Removed from the user's settings, where it was defined.
    await config.update('environments', undefined, vscode.ConfigurationTarget.Global);
    await waitFor(async () => (await mcp().definitions()).length === 0, 'the removed environment’s server to go');
    assert.equal(await mcp().resolve(writable), undefined, 'a definition of a removed environment does not start');
  });
});
