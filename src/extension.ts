import * as vscode from 'vscode';
import { readTrend } from './api/usage';
import type { ChatPorts } from './chat/deps';
import { registerChat } from './chat/index';
import { configureL10n } from './core/l10n';
import { type EngagementsParts, registerEngagements } from './engagements/index';
import { isEngagementNode } from './engagements/tree';
import { registerEnvironments } from './environments/index';
import { assembleServices } from './services';
import { type CommandId, Commands, WALKTHROUGH_ID } from './shared/constants';
import type { CommandHandler } from './shared/feature';
import type { Log } from './shared/log';
import { silentRecorder } from './shared/recorder';
import type { ExtensionExports } from './testing/exports';
import { recorder } from './testing/record';
import { testSeams } from './testing/seams';
import { showError } from './ui/errorMessages';
import type { Ui } from './ui/ui';
import { registerUsage, type UsageParts } from './usage/index';

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
  // What the features tell their tests is kept only where there are tests to read it.
  const services = assembleServices(context, TEST_SEAMS ? recorder : silentRecorder);
  const { log, ui, connection } = services;

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
      useLocale,
      environments: environments.parts,
      engagements: engagements.parts,
      usage: usage.parts,
      chat: chat.parts,
    });
  return undefined;
}

/**
 * The one place commands are registered. Every handler runs inside one error wrapper: an
 * error that escapes a handler is logged and shown with the actions its kind calls for,
 * never left as an unhandled rejection. A command returns nothing to whoever ran it: any
 * extension can run them, and what a handler read is for the person, not for the caller.
 */
function registerCommands(
  context: vscode.ExtensionContext,
  table: Record<CommandId, CommandHandler>,
  deps: { log: Log; ui: () => Ui },
): void {
  for (const [id, handler] of Object.entries(table)) {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          await handler(...args);
        } catch (error) {
          deps.log.error(`Command ${id} failed`, error);
          await showError(deps.ui(), error);
        }
      }),
    );
  }
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
