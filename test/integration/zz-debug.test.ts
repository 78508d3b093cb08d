import * as vscode from 'vscode';
import { setup, teardown, useEnvironment } from './helpers';

describe('ZZDebug', function () {
  this.timeout(60_000);
  it('shows requests on env switch', async () => {
    const ctx = await setup();
    await vscode.commands.executeCommand('engagementUsage.engagements.focus');
    await new Promise((r) => setTimeout(r, 500));
    await vscode.commands.executeCommand('workbench.view.explorer');
    await new Promise((r) => setTimeout(r, 500));
    console.log('visible', ctx.exports.engagements?.visible());
    ctx.service.clearRequests();
    await useEnvironment(ctx, ctx.service.keys.admin, 'One');
    await new Promise((r) => setTimeout(r, 1000));
    console.log(JSON.stringify(ctx.service.requests.map((r) => `${r.method} ${r.path} ${r.keyId}`)));
    ctx.service.clearRequests();
    await ctx.exports.environments!.api()!.engagements.list();
    await new Promise((r) => setTimeout(r, 1000));
    console.log(JSON.stringify(ctx.service.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)} ${r.keyId}`)));
    await teardown(ctx);
  });
});
