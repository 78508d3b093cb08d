import * as vscode from 'vscode';
import type { CommandId } from './constants';
import type { Log } from './log';
import { showError } from '../ui/errors';
import type { Ui } from '../ui/ui';

export type CommandHandler = (...args: unknown[]) => unknown;

/**
 * The one place commands are registered. Every handler runs inside one error wrapper: an
 * error that escapes a handler is logged and shown with the actions its kind calls for,
 * never left as an unhandled rejection. A command returns nothing to whoever ran it: any
 * extension can run them, and what a handler read is for the person, not for the caller.
 */
export function registerCommands(
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
