// Manage environment…: pick one, then what to do with it.
import * as vscode from 'vscode';
import { Commands } from '../shared/constants';
import type { Services } from '../shared/services';
import { remove, rename, toggleProduction } from './edits';
import { enterKeyFlow } from './flows';
import { shownLabel } from '../session/labels';
import { pickEnvironment } from './picker';

type Action = 'activate' | 'key' | 'rename' | 'production' | 'remove';

export async function manage(services: Services): Promise<void> {
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
