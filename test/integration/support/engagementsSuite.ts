// Shared set-up of the Engagements suites (runs inside the VS Code extension host): the
// reference service, an environment with the admin key, the view visible, and per test the
// seeded data, the default sort/group/no filter, and a refreshed view.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EngagementsExports } from '../../../src/testing/engagements';
import {
  type TestContext,
  dropLeftoverAnswers,
  pickByLabel,
  setup,
  teardown,
  useEnvironment,
  waitFor,
  type CommandName,
  runCommand,
} from './helpers';

export interface EngagementsSuite {
  readonly ctx: TestContext;
  eng: () => EngagementsExports;
  run: (command: CommandName, ...args: unknown[]) => Thenable<unknown>;
  /** The engagement items of the tree as plain data (loads first if needed). */
  items: () => ReturnType<EngagementsExports['tree']>;
  /** The service's engagements (live objects). */
  seeded: () => TestContext['service']['store']['engagements'];
  /** Requests the service recorded: exact path, or every path under one ending in '/'. */
  requests: (method: string, path?: string) => TestContext['service']['requests'];
  patches: () => TestContext['service']['requests'];
  state: () => unknown;
  /** A test that also fails when a scripted answer was not asked for (the flow took another path). */
  test: (title: string, body: () => Promise<void>) => void;
}

/** Registers the hooks of an Engagements suite; call inside `describe`. */
export function engagementsSuite(): EngagementsSuite {
  let ctx: TestContext;
  const suite: EngagementsSuite = {
    get ctx() {
      return ctx;
    },
    eng: () => ctx.exports.engagements!,
    run: runCommand,
    items: async () => (await suite.eng().tree()).filter((i) => i.kind === 'engagement'),
    seeded: () => ctx.service.store.engagements,
    requests: (method, path = '/v1/engagements') =>
      ctx.service.requests.filter(
        (r) => r.method === method && (path.endsWith('/') ? r.path.startsWith(path) : r.path === path),
      ),
    patches: () => ctx.service.requests.filter((r) => r.method === 'PATCH'),
    state: () => suite.eng().contextValues()['engagementUsage.state'],
    test: (title, body) => {
      it(title, async () => {
        await body();
        assert.equal(ctx.ui.pending, 0, 'every scripted answer was used');
      });
    },
  };

  async function resetView(): Promise<void> {
    await suite.run('clearEngagementFilter');
    ctx.ui.answer(pickByLabel('No Grouping'));
    await suite.run('groupEngagements');
    ctx.ui.answer(pickByLabel('Last Updated'));
    await suite.run('sortEngagements');
    if (suite.eng().query().direction !== 'desc') {
      ctx.ui.answer(pickByLabel('Reverse Order'));
      await suite.run('sortEngagements');
    }
  }

  before(async () => {
    ctx = await setup();
    await useEnvironment(ctx, ctx.service.keys.admin);
    await vscode.commands.executeCommand('engagementUsage.engagements.focus');
    await waitFor(() => suite.eng().visible(), 'the Engagements view to be visible');
  });
  after(async () => {
    // Leave the view hidden: a visible view loads on every environment change, and other
    // suites count the requests they cause.
    await vscode.commands.executeCommand('workbench.view.explorer');
    const config = vscode.workspace.getConfiguration('engagementUsage');
    await config.update('engagements.autoRefreshSeconds', undefined, vscode.ConfigurationTarget.Global);
    await config.update('engagements.staleAfterSeconds', undefined, vscode.ConfigurationTarget.Global);
    await teardown(ctx);
  });
  beforeEach(async () => {
    ctx.service.reset();
    await resetView();
    // A key entered again starts the view afresh (a test before may have read the whole set).
    if (ctx.exports.environments?.contextKeys()['engagementUsage.canWrite'] !== true || suite.eng().complete())
      await useEnvironment(ctx, ctx.service.keys.admin);
    await suite.run('refreshEngagements');
    ctx.service.clearRequests();
    ctx.ui.prompts.length = 0;
    ctx.ui.messages.length = 0;
  });
  afterEach(function () {
    // Answers a failed test left unused must not answer the next test's prompts.
    ctx.ui.dropAnswers();
    // Nor its message answers the next test's messages; a passing test whose checks never ran fails.
    dropLeftoverAnswers(ctx, this.currentTest)();
  });
  return suite;
}
