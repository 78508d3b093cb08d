import * as vscode from 'vscode';
import type { CommandHandler, Services } from './shared/services';
import { OwnState } from './shared/perEnvironment';
import { FirstShown, registerCommands } from './shared/services';
import { userAgent } from './api/client';
import { type CommandId, Commands, EXTENSION_ID, WALKTHROUGH_ID } from './shared/constants';
import { configureL10n } from './core/l10n';
import type { ChatPorts } from './chat/deps';
import { registerChat } from './chat/index';
import { type EngagementsParts, registerEngagements } from './engagements/index';
import { isEngagementNode } from './engagements/tree';
import { Connection } from './session/connection';
import { registerEnvironments } from './environments/index';
import { KeyVault } from './session/keyVault';
import { EnvironmentStore } from './session/environments';
import type { ExtensionExports } from './testing/exports';
import { testSeams } from './testing/seams';
import { recorder } from './testing/record';
import { silentRecorder } from './shared/recorder';
import { Log } from './shared/log';
import { readTrend } from './api/usage';
import { registerUsage, type UsageParts } from './usage/index';
import type { Ui } from './ui/ui';
import { VscodeUi } from './ui/ui';

/**
 * Composition root: builds the object graph and registers everything; does no I/O itself.
 * Returns the test seams only from a development or test build (`TEST_SEAMS`) run for its tests
 * or from source (`npm start`); the production build has no seams at all, and installed
 * (Production mode) any build returns nothing, so no other extension can replace its input
 * boxes, take its client, or read a key through `exports`.
 */
export function activate(context: vscode.ExtensionContext): ExtensionExports | undefined {
  // src/core translates and formats through this seam: VS Code's bundle and display language.
  const useLocale = (locale = vscode.env.language) =>
    configureL10n({ translate: (message, ...args) => vscode.l10n.t(message, ...args), locale });
  useLocale();
  const log = new Log();
  const vault = new KeyVault(context.secrets);
  const globalState = new OwnState(context.globalState);
  const store = new EnvironmentStore(context, globalState);
  const version = (context.extension.packageJSON as { version?: string }).version ?? '0.0.0';
  // A browser sends its own User-Agent (and one set by a script would have to be allowed by CORS).
  const agent = WEB ? undefined : userAgent(EXTENSION_ID, version, `VS Code ${vscode.version}`);
  const connection = new Connection(store, vault, log, agent);
  const realUi = new VscodeUi();
  const ui: { current: Ui } = { current: realUi };
  context.subscriptions.push(log, vault, store, connection);
  const services: Services = {
    context,
    globalState,
    log,
    ui,
    environments: store,
    vault,
    connection,
    shown: new FirstShown(),
    // What the features tell their tests is kept only where there are tests to read it.
    recorder: TEST_SEAMS ? recorder : silentRecorder,
  };

  const environments = registerEnvironments(services);
  const engagements = registerEngagements(services);
  const usage = registerUsage(services);
  const chat = registerChat(services, chatPorts(engagements.parts, usage.parts));
  // Every contributed command has a handler: one missing (or one too many) fails the type check.
  const commands = {
    ...environments.commands,
    ...engagements.commands,
    ...usage.commands,
    ...chat.commands,
    [Commands.showLogs]: () => log.show(),
    [Commands.openWalkthrough]: () =>
      vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false),
  } satisfies Record<CommandId, CommandHandler>;
  registerCommands(context, commands, { log, ui: () => ui.current });
  void connection.updateContext();

  // The production build has TEST_SEAMS false: this branch, and src/testing which only it uses, are not in it.
  if (TEST_SEAMS && exposesTestSeams(context.extensionMode))
    return testSeams({
      services,
      realUi,
      useLocale,
      environments: environments.parts,
      engagements: engagements.parts,
      usage: usage.parts,
      chat: chat.parts,
    });
  return undefined;
}

/** Chat's ports to the other features. */
function chatPorts(engagements: EngagementsParts, usage: UsageParts): ChatPorts {
  return {
    store: engagements.store,
    rowEngagement: (arg) => (isEngagementNode(arg) ? arg.engagement : undefined),
    readTrend: (summaryOf, env, current, describe) =>
      readTrend(summaryOf, { store: usage.history, environmentId: env.id, baseUrl: env.baseUrl }, current, describe),
  };
}

/** Test seams exist for the integration suite (Test) and `npm start`'s demo seeder (Development) only. */
export function exposesTestSeams(mode: vscode.ExtensionMode): boolean {
  return mode === vscode.ExtensionMode.Test || mode === vscode.ExtensionMode.Development;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
