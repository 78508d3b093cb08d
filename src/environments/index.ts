// The Environments feature's wiring: the status bar, and the commands to add, switch, manage,
// rename and remove environments and to replace or sign out of their keys.
import { Commands } from '../shared/constants';
import type { Feature, Services } from '../shared/services';
import { remove, rename } from './edits';
import { addEnvironmentFlow } from './flows';
import { replaceKey, signOutAll } from './keys';
import { manage } from './manage';
import { EnvironmentStatusBar } from './statusBar';
import { switchEnvironment } from './switch';

export function registerEnvironments(services: Services) {
  const statusBar = new EnvironmentStatusBar(services.environments, services.vault);
  services.context.subscriptions.push(statusBar);

  return {
    commands: {
      [Commands.addEnvironment]: () => addEnvironmentFlow(services),
      [Commands.switchEnvironment]: () => switchEnvironment(services),
      [Commands.manageEnvironments]: () => manage(services),
      [Commands.replaceKey]: (arg?: unknown) => replaceKey(services, arg),
      [Commands.renameEnvironment]: (arg?: unknown) => rename(services, arg),
      [Commands.removeEnvironment]: (arg?: unknown) => remove(services, arg),
      [Commands.signOutAll]: () => signOutAll(services),
    },
    // What the test seams read (src/testing/environments.ts); nothing here is exported to users.
    parts: { statusBar },
  } satisfies Feature<{ statusBar: EnvironmentStatusBar }>;
}
