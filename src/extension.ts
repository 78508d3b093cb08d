import * as vscode from 'vscode';
import { type CommandHandler, registerCommands } from './commands';
import { userAgent } from './api/client';
import { type CommandId, Commands, EXTENSION_ID, WALKTHROUGH_ID } from './constants';
import { configureL10n } from './core/l10n';
import { registerChat } from './chat/index';
import { registerEngagements } from './engagements/index';
import { Connection } from './environments/connection';
import { registerEnvironments } from './environments/index';
import { KeyVault } from './environments/keyVault';
import { EnvironmentStore } from './environments/store';
import type { ExtensionExports } from './exports';
import { Log } from './log';
import type { Services } from './services';
import { FirstShown } from './shown';
import { registerUsage } from './usage/index';
import type { Ui } from './ui/ui';
import { VscodeUi } from './ui/vscodeUi';

/**
 * Composition root: builds the object graph and registers everything; does no I/O itself.
 * Returns the test seams only when VS Code runs the extension for its tests or from source
 * (`npm start`); installed (Production mode) it returns nothing, so no other extension can
 * replace its input boxes, take its client, or read a key through `exports`.
 */
export function activate(context: vscode.ExtensionContext): ExtensionExports | undefined {
  // src/core translates and formats through this seam: VS Code's bundle and display language.
  const useLocale = (locale = vscode.env.language) =>
    configureL10n({ translate: (message, ...args) => vscode.l10n.t(message, ...args), locale });
  useLocale();
  const log = new Log();
  const vault = new KeyVault(context.secrets);
  const store = new EnvironmentStore(context);
  const version = (context.extension.packageJSON as { version?: string }).version ?? '0.0.0';
  const connection = new Connection(store, vault, log, userAgent(EXTENSION_ID, version, `VS Code ${vscode.version}`));
  const realUi = new VscodeUi();
  const ui: { current: Ui } = { current: realUi };
  context.subscriptions.push(log, vault, store, connection);
  const services: Services = { context, log, ui, environments: store, vault, connection, shown: new FirstShown() };

  const environments = registerEnvironments(services);
  const engagements = registerEngagements(services);
  const usage = registerUsage(services);
  const chat = registerChat(services, engagements.store);
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

  if (!exposesTestSeams(context.extensionMode)) return undefined;
  return {
    useUi(replacement?: Ui) {
      ui.current = replacement ?? realUi;
    },
    useLocale,
    environments: environments.exports,
    engagements: engagements.exports,
    usage: usage.exports,
    chat: chat.exports,
  };
}

/** Test seams exist for the integration suite (Test) and `npm start`'s demo seeder (Development) only. */
export function exposesTestSeams(mode: vscode.ExtensionMode): boolean {
  return mode === vscode.ExtensionMode.Test || mode === vscode.ExtensionMode.Development;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
