// The Environments feature: the status bar, and the commands to add, switch, manage, rename
// and remove environments and to replace or sign out of their keys; which environment a
// command is about; and what a setting-defined environment refuses.
import * as vscode from 'vscode';
import type { Environment } from '../session/model';
import { describeCapabilities, destination, shownLabel, sourceNote } from '../session/model';
import { Commands } from '../shared/constants';
import type { Feature } from '../shared/feature';
import type { Services } from '../services';
import { addEnvironmentFlow, enterKeyFlow } from './add';
import { EnvironmentStatusBar } from './statusBar';

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

// Switch Environment: every environment with where its key is and what it may do, then Add
// and Manage; the chosen one becomes active (and asks for its key when there is none here).
type Choice = { env: string } | 'add' | 'manage';

/** One environment's line in the list: its icon says active, production, workspace or plain. */
async function environmentItem(services: Services, env: Environment, envs: Environment[], activeId?: string) {
  const { environments: store, vault } = services;
  const hasKey = await vault.usable(env);
  const keyNote = !hasKey
    ? vscode.l10n.t('key not on this machine')
    : vault.isSessionOnly(env.id)
      ? vscode.l10n.t('session-only key')
      : describeCapabilities(store.capabilities(env.id));
  const note = sourceNote(env);
  return {
    label: shownLabel(env, envs),
    iconId:
      env.id === activeId
        ? 'check'
        : env.production
          ? 'warning'
          : env.source === 'workspace'
            ? 'folder'
            : 'server-environment',
    description: destination(env),
    detail: `${env.production ? `${vscode.l10n.t('production')} · ` : ''}${keyNote}${note ? ` · ${note}` : ''}`,
    value: { env: env.id } as Choice,
  };
}

async function switchEnvironment(services: Services): Promise<unknown> {
  const { environments: store, vault, ui } = services;
  const active = store.active();
  const envs = store.list();
  const items = await Promise.all(envs.map((env) => environmentItem(services, env, envs, active?.id)));
  const chosen = await ui.current.pick<Choice>({
    title: vscode.l10n.t('Switch Environment'),
    placeholder: vscode.l10n.t('The active environment is remembered for this workspace'),
    items: [
      ...items,
      { label: vscode.l10n.t('Add Environment…'), value: 'add', iconId: 'add', separatorBefore: '' },
      { label: vscode.l10n.t('Manage…'), value: 'manage', iconId: 'gear' },
    ],
    activeValue: items.find((i) => (i.value as { env: string }).env === active?.id)?.value,
  });
  if (chosen === 'add') return vscode.commands.executeCommand(Commands.addEnvironment);
  if (chosen === 'manage') return manage(services);
  if (typeof chosen !== 'object' || chosen === null) return undefined;
  await store.setActive(chosen.env);
  const env = store.get(chosen.env);
  if (env && !(await vault.usable(env))) return enterKeyFlow(services, env);
  return undefined;
}

// Manage environment…: pick one, then what to do with it.
type Action = 'activate' | 'key' | 'rename' | 'production' | 'remove';

async function manage(services: Services): Promise<void> {
  const { environments: store, vault, ui } = services;
  const env = await pickEnvironment(services, vscode.l10n.t('Manage environment…'));
  if (!env) {
    await vscode.commands.executeCommand(Commands.addEnvironment);
    return;
  }
  const hasKey = await vault.usable(env);
  const action = await ui.current.pick<Action>({
    title: vscode.l10n.t('Manage {0}', shownLabel(env, store.list())),
    items: [
      { label: vscode.l10n.t('Make Active'), value: 'activate', iconId: 'check' },
      {
        label: hasKey ? vscode.l10n.t('Replace API Key…') : vscode.l10n.t('Enter API Key…'),
        value: 'key',
        iconId: 'key',
      },
      { label: vscode.l10n.t('Rename…'), value: 'rename', iconId: 'edit' },
      {
        label: env.production ? vscode.l10n.t('Unmark as Production') : vscode.l10n.t('Mark as Production'),
        value: 'production',
        iconId: 'warning',
      },
      { label: vscode.l10n.t('Remove…'), value: 'remove', iconId: 'trash' },
    ],
  });
  if (action === 'activate') await store.setActive(env.id);
  else if (action === 'key') await enterKeyFlow(services, env);
  else if (action === 'rename') await rename(services, env.id);
  else if (action === 'production') await toggleProduction(services, env);
  else if (action === 'remove') await remove(services, env.id);
}

// Changes to one of the user's environments: its label, its production mark, removing it.
async function rename(services: Services, arg?: unknown): Promise<void> {
  const { environments: store, ui } = services;
  const env = target(services, arg);
  if (!env || (await notForSettings(services, env))) return;
  const label = await ui.current.input({
    title: vscode.l10n.t('Rename {0}', env.label),
    value: env.label,
    validate: (v) =>
      !v.trim()
        ? vscode.l10n.t('Enter a label.')
        : store.list().some((e) => e.id !== env.id && e.label.toLowerCase() === v.trim().toLowerCase())
          ? vscode.l10n.t('An environment with this label exists already.')
          : undefined,
  });
  if (typeof label === 'string' && label.trim() !== env.label) await store.update(env.id, { label: label.trim() });
}

async function remove(services: Services, arg?: unknown): Promise<void> {
  const env = target(services, arg);
  if (!env || (await notForSettings(services, env))) return;
  const yes = vscode.l10n.t('Remove');
  const choice = await services.ui.current.message(
    'warning',
    vscode.l10n.t('Remove the environment {0}?', env.label),
    { modal: true, detail: vscode.l10n.t("Its API key is deleted from this machine's secret storage.") },
    yes,
  );
  if (choice !== yes) return;
  await services.vault.delete(env.id);
  await services.environments.remove(env.id);
  services.log.info(`Environment "${env.label}" removed; its key was deleted.`);
}

async function toggleProduction(services: Services, env: Environment): Promise<void> {
  if (await notForSettings(services, env)) return;
  await services.environments.update(env.id, { production: !env.production });
}

// The API keys: replacing one environment's, deleting every one (sign out).
async function replaceKey(services: Services, arg?: unknown): Promise<unknown> {
  const env = target(services, arg) ?? (await pickEnvironment(services, vscode.l10n.t('Replace the API key of…')));
  if (!env) return vscode.commands.executeCommand(Commands.addEnvironment);
  return enterKeyFlow(services, env);
}

async function signOutAll(services: Services): Promise<void> {
  const yes = vscode.l10n.t('Sign Out');
  const choice = await services.ui.current.message(
    'warning',
    vscode.l10n.t('Delete the API keys of every environment from this machine?'),
    { modal: true, detail: vscode.l10n.t('The environments stay; enter a key again to use one.') },
    yes,
  );
  if (choice !== yes) return;
  for (const env of services.environments.list()) await services.vault.delete(env.id);
  services.log.info('Signed out: every API key was deleted from secret storage.');
}

// Which environment a command is about: the one it was given (an id, or a tree item's
// environment), the active one, or one the user picks.
/** The environment a command's argument names (an id or an environment), else the active one. */
function target(services: Services, arg: unknown): Environment | undefined {
  const store = services.environments;
  if (typeof arg === 'string') return store.get(arg);
  if (typeof arg === 'object' && arg !== null && typeof (arg as Environment).id === 'string')
    return store.get((arg as Environment).id);
  return store.active();
}

/** Asks which environment, unless there is only one (or none: undefined). */
async function pickEnvironment(
  services: Services,
  title: string,
  filter: (env: Environment) => boolean = () => true,
): Promise<Environment | undefined> {
  const store = services.environments;
  const envs = store.list().filter(filter);
  if (envs.length === 0) return undefined;
  if (envs.length === 1) return envs[0];
  const all = store.list();
  const chosen = await services.ui.current.pick({
    title,
    items: envs.map((env) => ({ label: shownLabel(env, all), description: destination(env), value: env.id })),
  });
  return typeof chosen === 'string' ? store.get(chosen) : undefined;
}

// An environment a setting defines (the user's settings or the workspace's) is changed in that
// setting, not here: the commands that would change it say where instead.
/** True (after saying where to change it, with Open Settings) when a setting defines the environment. */
async function notForSettings(services: Services, env: Environment): Promise<boolean> {
  if (env.source === 'user') return false;
  const open = vscode.l10n.t('Open Settings');
  const text =
    env.source === 'workspace'
      ? vscode.l10n.t(
          "{0} is defined by this workspace's setting engagementUsage.environments (.vscode/settings.json); change it there.",
          env.label,
        )
      : vscode.l10n.t('{0} is defined in the setting engagementUsage.environments; change it there.', env.label);
  const choice = await services.ui.current.message('info', text, {}, open);
  if (choice === open)
    await vscode.commands.executeCommand(
      env.source === 'workspace' ? 'workbench.action.openWorkspaceSettings' : 'workbench.action.openSettings',
      'engagementUsage.environments',
    );
  return true;
}
