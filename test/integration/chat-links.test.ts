// Links to an engagement, opened by the URI handler's own code (in code-server,
// `vscode.env.openExternal` of a link with VS Code's scheme goes to code-server's callback
// page, not to the handler): the right engagement's details open.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suiteContext, useEnvironment, waitFor } from './support/helpers';

describe('Chat: links that open an engagement', function () {
  this.timeout(60_000);
  const ctx = suiteContext({ afresh: true });

  it('opens the engagement a link names, and Copy Link writes that link', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin);
    const target = ctx.service.store.engagements[4];
    const link = ctx.exports.chat!.link(target.id)!;
    assert.match(link, new RegExp(`/engagement\\?environment=Test&id=${target.id}$`));
    await vscode.commands.executeCommand('engagementUsage.copyEngagementLink', target.id);
    assert.equal(await vscode.env.clipboard.readText(), link);
    await ctx.exports.chat!.openLink(link);
    await waitFor(
      () => (ctx.exports.engagements?.details()?.view?.id === target.id ? true : undefined),
      'the details of the linked engagement',
    );
    ctx.exports.engagements?.closeDetails();
  });
});
