// The chat tools in Restricted Mode (run by `node scripts/run-integration.mjs --restricted`):
// they read the user's own environment, and every write answers that the folder is not
// trusted, with no confirmation to give and nothing sent; no MCP server is offered.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { runCommand, suiteContext } from './support/helpers';

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(`engagementUsage_${name}`, { input, toolInvocationToken: undefined });
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('Chat tools in Restricted Mode', function () {
  this.timeout(60_000);
  const ctx = suiteContext();

  it('read, and refuse every write as the folder is not trusted, sending nothing', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    ctx.ui.answer('Own', ctx.service.baseUrl, ctx.service.keys.admin);
    await runCommand('addEnvironment');
    const found = await invoke('findEngagements', {});
    assert.match(found, /engagements matched/);
    ctx.service.clearRequests();
    const id = ctx.service.store.engagements[0].id;
    for (const [name, input] of [
      ['createEngagement', { name: 'Not here', type: 'onboarding' }],
      ['updateEngagements', { ids: [id], status: 'completed' }],
    ] as const) {
      const prepared = await ctx.exports.chat!.prepare(`engagementUsage_${name}`, input);
      assert.equal(prepared?.confirmationMessages, undefined, `${name}: nothing to confirm`);
      assert.match(await invoke(name, input), /folder is not trusted/);
    }
    assert.deepEqual(
      ctx.service.requests.filter((r) => r.method !== 'GET').map((r) => r.method),
      [],
      'no write sent',
    );
    // Nor does an agent get an MCP server here: VS Code is offered none (1.101+), and none starts.
    const mcp = ctx.exports.chat!.mcp;
    assert.deepEqual(await mcp.definitions(), []);
  });
});
