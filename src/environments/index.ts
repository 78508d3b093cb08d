// The Environments feature's wiring: the status bar at activation; each command's code is
// loaded by import() the first time it runs (nothing of it is needed to activate).
import { Commands } from '../shared/constants';
import type { Feature, Services } from '../shared/services';
import { EnvironmentStatusBar } from './statusBar';

export function registerEnvironments(services: Services) {
  const statusBar = new EnvironmentStatusBar(services.environments, services.vault);
  services.context.subscriptions.push(statusBar);

  return {
    commands: {
      [Commands.addEnvironment]: async () => (await import('./flows')).addEnvironmentFlow(services),
      [Commands.switchEnvironment]: async () => (await import('./switch')).switchEnvironment(services),
      [Commands.manageEnvironments]: async () => (await import('./manage')).manage(services),
      [Commands.replaceKey]: async (arg?: unknown) => (await import('./keys')).replaceKey(services, arg),
      [Commands.renameEnvironment]: async (arg?: unknown) => (await import('./edits')).rename(services, arg),
      [Commands.removeEnvironment]: async (arg?: unknown) => (await import('./edits')).remove(services, arg),
      [Commands.signOutAll]: async () => (await import('./keys')).signOutAll(services),
    },
    // What the test seams read (src/testing/environments.ts); nothing here is exported to users.
    parts: { statusBar },
  } satisfies Feature<{ statusBar: EnvironmentStatusBar }>;
}
