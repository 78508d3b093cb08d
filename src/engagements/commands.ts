// The Engagements feature's command table.
import * as vscode from 'vscode';
import { Commands, Views } from '../shared/constants';
import { type EngagementDeps, pickEngagement, singleTarget, targetsFromArgs } from './common';
import { createEngagement } from './create';
import { copyId, openDetails } from './details';
import type { DetailsPanel } from './detailsPanel';
import { type EditField, editEngagement } from './edit';
import { goToEngagement } from './goTo';
import { clearFilter, filterEngagements, groupEngagements, sortEngagements } from './queryCommands';
import { changeStatusOfMany } from './statusChange';

export function engagementCommands(deps: EngagementDeps, details: DetailsPanel) {
  const { store, view } = deps;
  const open = (args: unknown[]) => openDetails(deps, details, args);
  const editOne =
    (field: EditField | undefined, title: string) =>
    async (...args: unknown[]) => {
      const target = await singleTarget(deps, args, title);
      if (target) await editEngagement(deps, target, field);
    };
  return {
    [Commands.refreshEngagements]: () => store.refresh(),
    [Commands.loadMoreEngagements]: () => store.loadMore(),
    [Commands.showMoreEngagements]: (list: unknown) => {
      if (typeof list === 'string') view.provider.showMore(list);
    },
    [Commands.createEngagement]: () => createEngagement(deps),
    [Commands.editEngagement]: editOne(undefined, vscode.l10n.t('Edit engagement…')),
    [Commands.renameEngagement]: editOne('name', vscode.l10n.t('Rename engagement…')),
    [Commands.editEngagementDescription]: editOne('description', vscode.l10n.t('Edit the description of…')),
    [Commands.changeEngagementStatus]: (...args: unknown[]) => changeStatus(deps, args),
    [Commands.openEngagement]: (...args: unknown[]) => open(args),
    [Commands.copyEngagementId]: (...args: unknown[]) => copyId(deps, args),
    [Commands.sortEngagements]: () => sortEngagements(deps),
    [Commands.groupEngagements]: () => groupEngagements(deps),
    [Commands.filterEngagements]: () => filterEngagements(deps),
    [Commands.clearEngagementFilter]: () => clearFilter(deps),
    [Commands.goToEngagement]: () => goToEngagement(deps, (id) => open([id])),
    [Commands.cancelReadingEngagements]: () => store.cancelLoadAll(),
    // The tree's own Collapse All; the title shows it only while the view is grouped.
    [Commands.collapseAll]: () =>
      vscode.commands.executeCommand(`workbench.actions.treeView.${Views.engagements}.collapseAll`),
  };
}

/** Change Status: of every engagement selected, or of the one it was invoked on, an id, or a pick. */
async function changeStatus(deps: EngagementDeps, args: unknown[]): Promise<void> {
  const targets = targetsFromArgs(deps, args);
  if (Array.isArray(targets) && targets.length > 1) return changeStatusOfMany(deps, targets);
  const target = Array.isArray(targets)
    ? targets[0]
    : typeof targets === 'string'
      ? await singleTarget(deps, args, '')
      : await pickEngagement(deps, vscode.l10n.t('Change the status of…'));
  if (target) await editEngagement(deps, target, 'status');
}
