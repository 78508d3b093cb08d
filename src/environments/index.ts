import * as vscode from 'vscode';
import { Commands } from '../shared/constants';
import type { Feature, Services } from '../shared/services';
import { describeCapabilities, type Environment } from '../session/model';
import { destination, shownLabel, sourceNote } from './labels';
import { EnvironmentStatusBar } from './statusBar';

export function registerEnvironments(services: Services) {
  const { environments: store, vault, ui, context } = services;
  const statusBar = new EnvironmentStatusBar(store, vault);
  context.subscriptions.push(statusBar);

  // The input flows (and the key check) are loaded when first used, not at activation.
  const enterKeyFlow = async (env: Environment) => (await import('./flows')).enterKeyFlow(services, env);

  const target = (arg: unknown): Environment | undefined => {
    if (typeof arg === 'string') return store.get(arg);
    if (typeof arg === 'object' && arg !== null && typeof (arg as Environment).id === 'string')
      return store.get((arg as Environment).id);
    return store.active();
  };

  const pickEnvironment = async (
    title: string,
    filter: (env: Environment) => boolean = () => true,
  ): Promise<Environment | undefined> => {
    const envs = store.list().filter(filter);
    if (envs.length === 0) return undefined;
    if (envs.length === 1) return envs[0];
    const all = store.list();
    const chosen = await ui.current.pick({
      title,
      items: envs.map((env) => ({ label: shownLabel(env, all), description: destination(env), value: env.id })),
    });
    return typeof chosen === 'string' ? store.get(chosen) : undefined;
  };

  const notForSettings = async (env: Environment): Promise<boolean> => {
    if (env.source === 'user') return false;
    const open = vscode.l10n.t('Open Settings');
    const text =
      env.source === 'workspace'
        ? vscode.l10n.t(
            "{0} is defined by this workspace's setting engagementUsage.environments (.vscode/settings.json); change it there.",
            env.label,
          )
        : vscode.l10n.t('{0} is defined in the setting engagementUsage.environments; change it there.', env.label);
    const choice = await ui.current.message('info', text, {}, open);
    if (choice === open)
      await vscode.commands.executeCommand(
        env.source === 'workspace' ? 'workbench.action.openWorkspaceSettings' : 'workbench.action.openSettings',
        'engagementUsage.environments',
      );
    return true;
  };

  const replaceKey = async (arg?: unknown) => {
    const env = target(arg) ?? (await pickEnvironment(vscode.l10n.t('Replace the API key of…')));
    if (!env) return vscode.commands.executeCommand(Commands.addEnvironment);
    return enterKeyFlow(env);
  };

  const rename = async (arg?: unknown) => {
    const env = target(arg);
    if (!env || (await notForSettings(env))) return;
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
  };

  const remove = async (arg?: unknown) => {
    const env = target(arg);
    if (!env || (await notForSettings(env))) return;
    const yes = vscode.l10n.t('Remove');
    const choice = await ui.current.message(
      'warning',
      vscode.l10n.t('Remove the environment {0}?', env.label),
      { modal: true, detail: vscode.l10n.t("Its API key is deleted from this machine's secret storage.") },
      yes,
    );
    if (choice !== yes) return;
    await vault.delete(env.id);
    await store.remove(env.id);
    services.log.info(`Environment "${env.label}" removed; its key was deleted.`);
  };

  const toggleProduction = async (env: Environment) => {
    if (await notForSettings(env)) return;
    await store.update(env.id, { production: !env.production });
  };

  const manage = async (): Promise<void> => {
    const env = await pickEnvironment(vscode.l10n.t('Manage environment…'));
    if (!env) {
      await vscode.commands.executeCommand(Commands.addEnvironment);
      return;
    }
    const hasKey = await vault.usable(env);
    type Action = 'activate' | 'key' | 'rename' | 'production' | 'remove';
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
    else if (action === 'key') await enterKeyFlow(env);
    else if (action === 'rename') await rename(env.id);
    else if (action === 'production') await toggleProduction(env);
    else if (action === 'remove') await remove(env.id);
  };

  const switchEnvironment = async () => {
    const active = store.active();
    const envs = store.list();
    type Choice = { env: string } | 'add' | 'manage';
    const items = await Promise.all(
      envs.map(async (env) => {
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
            env.id === active?.id
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
      }),
    );
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
    if (chosen === 'manage') return manage();
    if (typeof chosen !== 'object' || chosen === null) return undefined;
    await store.setActive(chosen.env);
    const env = store.get(chosen.env);
    if (env && !(await vault.usable(env))) return enterKeyFlow(env);
    return undefined;
  };

  const signOutAll = async () => {
    const yes = vscode.l10n.t('Sign Out');
    const choice = await ui.current.message(
      'warning',
      vscode.l10n.t('Delete the API keys of every environment from this machine?'),
      { modal: true, detail: vscode.l10n.t('The environments stay; enter a key again to use one.') },
      yes,
    );
    if (choice !== yes) return;
    for (const env of store.list()) await vault.delete(env.id);
    services.log.info('Signed out: every API key was deleted from secret storage.');
  };

  return {
    commands: {
      [Commands.addEnvironment]: async () => (await import('./flows')).addEnvironmentFlow(services),
      [Commands.switchEnvironment]: switchEnvironment,
      [Commands.manageEnvironments]: manage,
      [Commands.replaceKey]: replaceKey,
      [Commands.renameEnvironment]: rename,
      [Commands.removeEnvironment]: remove,
      [Commands.signOutAll]: signOutAll,
    },
    // What the test seams read (src/testing/environments.ts); nothing here is exported to users.
    parts: { statusBar },
  } satisfies Feature<{ statusBar: EnvironmentStatusBar }>;
}
