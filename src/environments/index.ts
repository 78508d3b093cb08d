// The Environments feature's wiring: the status bar at activation; the commands' code is loaded
// by import() the first time one of them runs (nothing of it is needed to activate).
import { Commands } from '../shared/constants';
import type { Feature, Services } from '../shared/services';
import { EnvironmentStatusBar } from './statusBar';

const commands = () => import('./commands');

export function registerEnvironments(services: Services) {
  const statusBar = new EnvironmentStatusBar(services.environments, services.vault);
  services.context.subscriptions.push(statusBar);

  return {
    commands: {
      [Commands.addEnvironment]: async () => (await commands()).addEnvironmentFlow(services),
      [Commands.switchEnvironment]: async () => (await commands()).switchEnvironment(services),
      [Commands.manageEnvironments]: async () => (await commands()).manage(services),
      [Commands.replaceKey]: async (arg?: unknown) => (await commands()).replaceKey(services, arg),
      [Commands.renameEnvironment]: async (arg?: unknown) => (await commands()).rename(services, arg),
      [Commands.removeEnvironment]: async (arg?: unknown) => (await commands()).remove(services, arg),
      [Commands.signOutAll]: async () => (await commands()).signOutAll(services),
    },
    // What the test seams read (src/testing/environments.ts); nothing here is exported to users.
    parts: { statusBar },
  } satisfies Feature<{ statusBar: EnvironmentStatusBar }>;
}
