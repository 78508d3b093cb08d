// Changes to one of the user's environments: its label, its production mark, removing it.
import * as vscode from 'vscode';
import type { Services } from '../shared/services';
import type { Environment } from '../session/model';
import { notForSettings } from './fromSettings';
import { target } from './picker';

export async function rename(services: Services, arg?: unknown): Promise<void> {
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

export async function remove(services: Services, arg?: unknown): Promise<void> {
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

export async function toggleProduction(services: Services, env: Environment): Promise<void> {
  if (await notForSettings(services, env)) return;
  await services.environments.update(env.id, { production: !env.production });
}
