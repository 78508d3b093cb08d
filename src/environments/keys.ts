// The API keys: replacing one environment's, deleting every one (sign out).
import * as vscode from 'vscode';
import { Commands } from '../shared/constants';
import type { Services } from '../shared/services';
import { enterKeyFlow } from './flows';
import { pickEnvironment, target } from './picker';

export async function replaceKey(services: Services, arg?: unknown): Promise<unknown> {
  const env = target(services, arg) ?? (await pickEnvironment(services, vscode.l10n.t('Replace the API key of…')));
  if (!env) return vscode.commands.executeCommand(Commands.addEnvironment);
  return enterKeyFlow(services, env);
}

export async function signOutAll(services: Services): Promise<void> {
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
