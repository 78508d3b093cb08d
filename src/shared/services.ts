// What every feature is given by the composition root: the services, the command registration,
// whether a view has been on screen yet, and how long a whole set read stays fresh.
import * as vscode from 'vscode';
import type { Connection } from '../session/connection';
import type { EnvironmentStore } from '../session/environments';
import type { KeyVault } from '../session/keyVault';
import { showError } from '../ui/errorMessages';
import type { Ui } from '../ui/ui';
import type { CommandId } from './constants';
import { Settings } from './constants';
import type { Log } from './log';
import type { OwnState } from './perEnvironment';
import type { Recorder } from './recorder';

/** What every feature is built from; made once in `activate`. */
export interface Services {
  context: vscode.ExtensionContext;
  /**
   * The extension's global state, read back as this session wrote it: the one `OwnState` over
   * `context.globalState`. What must see other windows' writes at once reads globalState itself.
   */
  globalState: OwnState;
  log: Log;
  /** The UI to ask questions with; `ui.current` is replaced only by the test seam. */
  ui: { current: Ui };
  /** The environments (the user's and those of settings), the active one, what each key may do. */
  environments: EnvironmentStore;
  vault: KeyVault;
  connection: Connection;
  /** Opens once a view or panel of the extension is on screen (background reads wait for it). */
  shown: FirstShown;
  /** What the features tell their tests (nothing is kept in the production build). */
  recorder: Recorder;
}

/**
 * What a feature gives back to `activate`: its commands, and its parts (the objects it built)
 * for the composition root to hand to another feature's ports or, in test builds only, to the
 * test seams (`src/testing/`).
 */
export interface Feature<Parts = unknown> {
  /** Its command table: only ids of `Commands`; together the features handle every one. */
  commands: Partial<Record<CommandId, CommandHandler>>;
  parts: Parts;
}

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

// Whether a view or panel of the extension has been on screen in this window. Background
// reads that nothing on screen asked for (the calls item in the status bar) wait for it, so
// activating the extension, e.g. by Show Logs, makes no request before a view is visible.
export class FirstShown {
  private waiting: Array<() => void> = [];
  private done = false;

  get shown(): boolean {
    return this.done;
  }

  /** A view or panel is visible. */
  mark(): void {
    if (this.done) return;
    this.done = true;
    for (const run of this.waiting.splice(0)) run();
  }

  /** Runs `then` once something has been shown (at once if it has). */
  whenShown(then: () => void): { dispose(): void } {
    if (this.done) {
      then();
      return { dispose: () => undefined };
    }
    this.waiting.push(then);
    return { dispose: () => (this.waiting = this.waiting.filter((run) => run !== then)) };
  }
}

// How long what was read stays fresh: the view's staleness setting, read by every feature that
// reuses a whole set of engagements read earlier (the tree's, the chat tools').
/** How long a whole set read earlier is reused (ms): `engagementUsage.engagements.staleAfterSeconds`. */
export function wholeSetMaxAge(): number {
  return (
    Math.max(0, vscode.workspace.getConfiguration(Settings.section).get<number>(Settings.staleAfterSeconds, 300)) * 1000
  );
}
