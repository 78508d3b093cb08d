// The MCP servers the extension offers VS Code (issue 35), in a real VS Code: on 1.139 the
// provider is registered, lists one definition per environment with a key on this machine
// (without the key), hands the key over only when it resolves one to start it, and that very
// command (VS Code's own executable as Node) answers tools/list and a tool call over stdio,
// driven by the MCP SDK's client. Removing the environment or turning writes on changes the
// definitions; writes turned off after listing are off when it starts; VS Code's proxy settings
// reach the server (tinyproxy sees its tunnel). On 1.100, which has no such API, nothing is
// registered and the extension works. On both (issue 47): the server kept at a path that
// survives updates, and Copy MCP Server Configuration, whose text starts a server that answers.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as vscode from 'vscode';
import { startProxy } from '../../scripts/vscode/proxy.mjs';
import {
  defineEnvironment,
  pickByLabel,
  runCommand,
  setSetting,
  suiteContext,
  useEnvironment,
  waitFor,
} from './support/helpers';
import { setHttp } from './support/network';
import { onNewest } from './support/versions';

/**
 * Starts `command args` as VS Code starts a server: with the extension host's environment and
 * the definition's over it (`null` removes a variable), and connects the SDK's client.
 */
async function startAsVsCode(
  command: string,
  args: string[],
  env: Record<string, string | number | null>,
): Promise<Client> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...env }))
    if (value !== null && value !== undefined) merged[name] = String(value);
  const client = new Client({ name: 'vscode-integration', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, env: merged, stderr: 'pipe' }));
  return client;
}

/** The read tools, the only ones a server started without writes lists. */
const READ_TOOLS = ['engagementUsage_findEngagements', 'engagementUsage_getEngagement', 'engagementUsage_usage'];

/** The names of the tools a server lists, sorted. */
async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((t) => t.name).sort();
}

/** The text of a tool's answer. */
async function callText(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  return (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
}

describe('The MCP server for clients outside VS Code: a stable path and a configuration to paste', function () {
  this.timeout(60_000);
  const ctx = suiteContext({ afresh: true });
  const extensionPath = () => vscode.extensions.getExtension('eus-tools.engagement-usage')!.extensionPath;

  it('keeps the server in its global storage, outside the versioned extension folder, copied again when it changed', async () => {
    const script = await ctx.exports.chat!.serverCopy();
    assert.ok(!script.startsWith(extensionPath()), `${script} is not in the extension's folder`);
    assert.ok(!script.includes('0.1.0'), 'no version in the path');
    assert.equal(path.basename(script), 'mcp-server.mjs');
    const dist = (file: string) => fs.readFileSync(path.join(extensionPath(), 'dist', file));
    const kept = (file: string) => fs.readFileSync(path.join(path.dirname(script), file));
    assert.ok(kept('mcp-server.mjs').equals(dist('mcp-server.mjs')), 'the same bytes as the extension’s');

    // Unchanged: not written again.
    const written = fs.statSync(script).mtimeMs;
    assert.equal(await ctx.exports.chat!.serverCopy(), script);
    assert.equal(fs.statSync(script).mtimeMs, written, 'not copied again while the extension’s copy is the same');

    // As after an update (another version's copy there): copied again.
    fs.writeFileSync(script, '// an older version');
    fs.writeFileSync(path.join(path.dirname(script), 'copied-from'), '0.0.9 1:1 1:1');
    assert.equal(await ctx.exports.chat!.serverCopy(), script);
    assert.ok(kept('mcp-server.mjs').equals(dist('mcp-server.mjs')), 'the new version replaced the old one');
  });

  it('Copy MCP Server Configuration: VS Code’s mcp.json form names the stable path and asks for the key; it starts and answers', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Staging');
    await vscode.env.clipboard.writeText('');
    ctx.ui.answer(pickByLabel('VS Code (mcp.json)'));
    ctx.ui.expectMessage(/Copied the MCP server configuration of “Staging”\. Paste it into \.vscode\/mcp\.json/, {
      level: 'info',
    });
    await runCommand('copyMcpConfiguration');
    const text = await vscode.env.clipboard.readText();
    assert.ok(!text.includes(ctx.service.keys.admin), 'the key is not in the copied text');
    const config = JSON.parse(text) as {
      inputs: Array<{ id: string; password: boolean }>;
      servers: Record<string, { type: string; command: string; args: string[]; env: Record<string, string> }>;
    };
    const server = config.servers['engagements-staging'];
    assert.deepEqual(server.args, [await ctx.exports.chat!.serverCopy()]);
    assert.equal(server.env.EUS_BASE_URL, ctx.service.baseUrl);
    assert.equal(server.env.EUS_API_KEY, `\${input:${config.inputs[0].id}}`);
    assert.equal(config.inputs[0].password, true);
    // Started as configured (VS Code's input answered with the key), by this host's Node.
    const client = await startAsVsCode(process.execPath, server.args, {
      ...server.env,
      EUS_API_KEY: ctx.service.keys.admin,
      ELECTRON_RUN_AS_NODE: '1',
    });
    try {
      assert.match(
        await callText(client, 'engagementUsage_findEngagements', { limit: 1 }),
        /^Environment: “Staging”\./,
      );
    } finally {
      await client.close();
    }
  });

  it('Copy MCP Server Configuration: the mcpServers form (Claude Desktop, Cursor) leaves a placeholder for the key', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Staging');
    ctx.ui.answer(pickByLabel('Claude Desktop, Cursor'));
    ctx.ui.expectMessage(/replace <paste the API key of Staging here> with your API key/, { level: 'info' });
    await runCommand('copyMcpConfiguration');
    const config = JSON.parse(await vscode.env.clipboard.readText()) as {
      mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
    };
    const server = config.mcpServers['engagements-staging'];
    assert.equal(server.command, 'node');
    assert.deepEqual(server.args, [await ctx.exports.chat!.serverCopy()]);
    assert.equal(server.env.EUS_API_KEY, '<paste the API key of Staging here>');
  });
});

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
      assert.deepEqual(await toolNames(client), READ_TOOLS);
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

  it('VS Code 1.139 takes the two agent skills (chatSkills) from the manifest', async () => {
    const files =
      await vscode.commands.executeCommand<Array<{ uri: { path: string }; type: string; extensionId: string }>>(
        '_listExtensionPromptFiles',
      );
    const ours = files.filter((f) => f.extensionId.toLowerCase() === 'eus-tools.engagement-usage');
    assert.deepEqual(ours.map((f) => `${f.type} ${f.uri.path.split('/').slice(-2).join('/')}`).sort(), [
      'skill explain-billing-period/SKILL.md',
      'skill triage-stale-engagements/SKILL.md',
    ]);
  });

  it('writes turned off after the definition was listed: the server starts read-only', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin, 'Staging');
    await setSetting('mcp.allowWrites', true);
    const [listed] = await mcp().definitions();
    assert.ok(listed.args.includes('--allow-writes'));
    await setSetting('mcp.allowWrites', false);
    const resolved = await mcp().resolve(listed);
    assert.ok(resolved);
    assert.ok(!resolved.args.includes('--allow-writes'), 'the setting is read again at the start');
    const client = await startAsVsCode(resolved.command, resolved.args, resolved.env);
    try {
      assert.deepEqual(await toolNames(client), READ_TOOLS);
    } finally {
      await client.close();
    }
  });

  it('VS Code’s http.proxy and http.noProxy reach the server (the proxy sees its tunnel, then none for a host noProxy names), and its certificate settings', async () => {
    const tinyproxy = await startProxy();
    try {
      await useEnvironment(ctx, ctx.service.keys.admin, 'Staging');
      await setHttp('proxy', tinyproxy.url);
      const [definition] = await mcp().definitions();
      assert.equal(definition.env.HTTPS_PROXY, undefined, 'a listed definition holds no network settings');
      const resolved = await mcp().resolve(definition);
      assert.ok(resolved);
      assert.equal(resolved.env.HTTPS_PROXY, tinyproxy.url);
      assert.equal(resolved.env.HTTP_PROXY, tinyproxy.url);
      const target = new URL(ctx.service.baseUrl).host;
      const client = await startAsVsCode(resolved.command, resolved.args, resolved.env);
      try {
        assert.match(
          await callText(client, 'engagementUsage_findEngagements', { limit: 1 }),
          /^Environment: “Staging”/,
        );
      } finally {
        await client.close();
      }
      assert.ok(
        tinyproxy.connects().includes(target),
        `the proxy tunnelled to ${target}: ${tinyproxy.connects().join(', ')}`,
      );

      const tunnels = tinyproxy.connects().length;
      await setHttp('noProxy', ['127.0.0.1']);
      const direct = await mcp().resolve((await mcp().definitions())[0]);
      assert.ok(direct);
      assert.equal(direct.env.NO_PROXY, '127.0.0.1');
      const bypassing = await startAsVsCode(direct.command, direct.args, direct.env);
      try {
        assert.match(await callText(bypassing, 'engagementUsage_usage'), /Usage of/);
      } finally {
        await bypassing.close();
      }
      assert.equal(tinyproxy.connects().length, tunnels, 'no tunnel for a host http.noProxy names');

      // The system's certificates turned off, certificate checks turned off: the server is told so.
      await setHttp('systemCertificates', false);
      await setHttp('proxyStrictSSL', false);
      const trusting = await mcp().resolve((await mcp().definitions())[0]);
      assert.equal(trusting?.env.EUS_SYSTEM_CA, '0');
      assert.equal(trusting?.env.NODE_TLS_REJECT_UNAUTHORIZED, '0');
    } finally {
      for (const name of ['systemCertificates', 'proxyStrictSSL']) await setHttp(name, undefined);
      await setHttp('proxy', undefined);
      await setHttp('noProxy', undefined);
      await tinyproxy.stop();
    }
  });
});
