// Opening an engagement's details (the single-engagement read, GET by id, shown in the one
// details panel) and copying an engagement's id.
import * as vscode from 'vscode';
import type { Engagement } from '../api/types';
import { showError } from '../ui/errors';
import { type EngagementDeps, environmentLabel, notice, requireApi, singleTarget, ui } from './common';
import type { DetailsPanel } from './detailsPanel';

/**
 * Shows the engagement at once (what the tree holds), reads it from the service, and shows
 * what the service answered. A failed read is said, with Retry; the panel keeps what it had.
 */
export async function openDetails(
  deps: EngagementDeps,
  panel: DetailsPanel,
  args: unknown[],
): Promise<Engagement | undefined> {
  const target = await singleTarget(deps, args, vscode.l10n.t('Open details of…'));
  const api = target && (await requireApi(deps));
  const environmentId = deps.services.connection.environment?.id;
  if (!target || !api || !environmentId) return undefined;
  panel.show(target, environmentId, { busy: true });
  const read = async () => {
    const engagement = await api.engagements.get(target.id);
    // What was read is newer than the tree's copy.
    if (deps.store.get(engagement.id)) deps.store.upsert(engagement);
    panel.settle(target.id, { engagement });
    return engagement;
  };
  try {
    return await read();
  } catch (error) {
    deps.services.log.error(`Reading engagement ${target.id} failed`, error);
    panel.settle(target.id, { error });
    await showError(ui(deps), error, {
      action: vscode.l10n.t('read “{0}”', target.name),
      environmentLabel: environmentLabel(deps),
      retry: async () => {
        panel.show(target, environmentId, { busy: true });
        try {
          await read();
        } catch (again) {
          panel.settle(target.id, { error: again });
          throw again;
        }
      },
    });
    return undefined;
  }
}

export async function copyId(deps: EngagementDeps, args: unknown[]): Promise<void> {
  const target = await singleTarget(deps, args, vscode.l10n.t('Copy the id of…'));
  if (!target) return;
  await vscode.env.clipboard.writeText(target.id);
  notice(deps, vscode.l10n.t('Copied the id of “{0}”: {1}', target.name, target.id));
}
