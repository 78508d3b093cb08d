// Links to an engagement, opened by the URI handler's own code (in code-server,
// `vscode.env.openExternal` of a link with VS Code's scheme goes to code-server's callback
// page, not to the handler): the right engagement's details open.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { defineEnvironment, suiteContext, useEnvironment, waitFor } from './support/helpers';

describe('Chat: links that open an engagement', function () {
  this.timeout(60_000);
  const ctx = suiteContext({ afresh: true });

  it('opens the engagement a link names, and Copy Link writes that link', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin);
    const target = ctx.service.store.engagements[4];
    const link = (await ctx.exports.chat!.link(target.id))!;
    assert.match(link, new RegExp(`/engagement\\?environment=Test&id=${target.id}$`));
    await vscode.commands.executeCommand('engagementUsage.copyEngagementLink', target.id);
    assert.equal(await vscode.env.clipboard.readText(), link);
    await ctx.exports.chat!.openLink(link);
    await waitFor(
      () => (ctx.exports.engagements?.details()?.view?.id === target.id ? true : undefined),
      'the details of the linked engagement',
    );
    // The details view's Copy Link button (beside Copy ID) writes the same link.
    await vscode.env.clipboard.writeText('');
    await ctx.exports.engagements!.detailsMessage({ type: 'action', action: 'copyLink' });
    assert.equal(await vscode.env.clipboard.readText(), link);
    ctx.exports.engagements?.closeDetails();
  });

  it('refuses hostile links with a message the user sees, and sends nothing', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin);
    const id = ctx.service.store.engagements[2].id;
    const base = 'vscode://eus-tools.engagement-usage/engagement?';
    const cases: Array<[string, RegExp]> = [
      [`environment=Staging&id=${id}`, /environment “Staging”, which is not one of yours: it was not opened/],
      [`environment=${encodeURIComponent('https://evil.example/v1')}&id=${id}`, /never by a URL: it was not opened/],
      [
        `environment=Test&id=${encodeURIComponent('command:workbench.action.openSettings')}`,
        /does not name an engagement id/,
      ],
      [`environment=Test&id=${'x'.repeat(10_240)}`, /too long to be a link to an engagement/],
      [`environment=Test`, /names no environment or no engagement/],
    ];
    for (const [query, words] of cases) {
      ctx.service.clearRequests();
      ctx.ui.messages.length = 0;
      ctx.ui.expectMessage(words, { level: 'warning' });
      await ctx.exports.chat!.openLink(base + query);
      const [message] = ctx.ui.messages;
      assert.match(message?.text ?? '', words, query.slice(0, 80));
      assert.equal(message.level, 'warning');
      assert.equal(message.modal, false, 'a notification, not a dialog');
      assert.deepEqual(ctx.service.requests, [], `nothing sent for ${query.slice(0, 80)}`);
    }
  });

  it('asks before switching to a workspace’s environment, saying it is the workspace’s and where it sends the key', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin);
    const config = vscode.workspace.getConfiguration('engagementUsage');
    const theirs = await defineEnvironment(
      ctx,
      { label: 'Production', baseUrl: 'http://127.0.0.2:9/v1' },
      vscode.ConfigurationTarget.Workspace,
    );
    try {
      ctx.ui.messages.length = 0;
      ctx.service.clearRequests();
      ctx.ui.onMessages(undefined);
      await ctx.exports.chat!.openLink(
        `vscode://eus-tools.engagement-usage/engagement?environment=${theirs.id}&id=${ctx.service.store.engagements[1].id}`,
      );
      const [asked] = ctx.ui.messages;
      assert.equal(asked?.modal, true, 'asked in a dialog');
      assert.match(asked.text, /^Switch to the environment “Production \(workspace\)” to open engagement /);
      assert.match(
        asked.detail ?? '',
        /“Production” is defined by this workspace’s settings, not by you, and sends your key to http:\/\/127\.0\.0\.2:9\./,
      );
      assert.equal(ctx.exports.environments?.active()?.label, 'Test', 'dismissed: nothing switched');
      assert.deepEqual(ctx.service.requests, [], 'nothing sent');
    } finally {
      await config.update('environments', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('returns nothing to an extension that runs its commands', async () => {
    await useEnvironment(ctx, ctx.service.keys.admin);
    const target = ctx.service.store.engagements[5];
    const returned = await vscode.commands.executeCommand('engagementUsage.openEngagement', target.id);
    await waitFor(
      () => (ctx.exports.engagements?.details()?.view?.id === target.id ? true : undefined),
      'the details of the engagement',
    );
    assert.equal(returned, undefined, 'the engagement read for the person is not handed to the caller');
    for (const command of ['engagementUsage.refreshEngagements', 'engagementUsage.copyEngagementLink'])
      assert.equal(await vscode.commands.executeCommand(command, target.id), undefined, command);
    ctx.exports.engagements?.closeDetails();
  });
});
