// Switch Environment: every environment with where its key is and what it may do, then Add
// and Manage; the chosen one becomes active (and asks for its key when there is none here).
import * as vscode from 'vscode';
import { Commands } from '../shared/constants';
import type { Services } from '../shared/services';
import { describeCapabilities, type Environment } from '../session/model';
import { enterKeyFlow } from './flows';
import { destination, shownLabel, sourceNote } from '../session/labels';
import { manage } from './manage';

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

export async function switchEnvironment(services: Services): Promise<unknown> {
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
