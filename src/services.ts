// What every feature is built from, and its assembly from the platform's parts: the log, the
// global state read back as written and the first-shown gate (src/shared), the environments,
// their keys and the active connection (src/session), and the UI (src/ui). `activate` assembles
// it once and hands it to each feature.
import * as vscode from 'vscode';
import { userAgent } from './api/client';
import { Connection } from './session/connection';
import { EnvironmentStore } from './session/environments';
import { KeyVault } from './session/keyVault';
import { EXTENSION_ID } from './shared/constants';
import { FirstShown } from './shared/firstShown';
import { Log } from './shared/log';
import { OwnState } from './shared/perEnvironment';
import type { Recorder } from './shared/recorder';
import { type Ui, VscodeUi } from './ui/ui';

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

/** The services of this window; what must be disposed goes into `context.subscriptions`. */
export function assembleServices(context: vscode.ExtensionContext, recorder: Recorder): Services {
  const log = new Log();
  const vault = new KeyVault(context.secrets);
  const globalState = new OwnState(context.globalState);
  const environments = new EnvironmentStore(context, globalState);
  const version = (context.extension.packageJSON as { version?: string }).version ?? '0.0.0';
  // A browser sends its own User-Agent (and one set by a script would have to be allowed by CORS).
  const agent = WEB ? undefined : userAgent(EXTENSION_ID, version, `VS Code ${vscode.version}`);
  const connection = new Connection(environments, vault, log, agent);
  context.subscriptions.push(log, vault, environments, connection);
  return {
    context,
    globalState,
    log,
    ui: { current: new VscodeUi() },
    environments,
    vault,
    connection,
    shown: new FirstShown(),
    recorder,
  };
}
