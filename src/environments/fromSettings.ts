// An environment a setting defines (the user's settings or the workspace's) is changed in that
// setting, not here: the commands that would change it say where instead.
import * as vscode from 'vscode';
import type { Services } from '../shared/services';
import type { Environment } from '../session/model';

/** True (after saying where to change it, with Open Settings) when a setting defines the environment. */
export async function notForSettings(services: Services, env: Environment): Promise<boolean> {
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
