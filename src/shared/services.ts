import type * as vscode from 'vscode';
import type { CommandHandler } from './commands';
import type { CommandId } from './constants';
import type { Connection } from '../session/connection';
import type { KeyVault } from '../session/keyVault';
import type { EnvironmentStore } from '../session/store';
import type { Log } from './log';
import type { OwnState } from './ownState';
import type { FirstShown } from './shown';
import type { Ui } from '../ui/ui';

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
