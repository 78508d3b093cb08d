// The Engagements feature's command table. The flows to create, edit, sort, group, filter and
// go to are loaded (import()) when first used, not at activation: the bundle loaded at
// activation stays small.
import * as vscode from 'vscode';
import { Commands, Views } from '../shared/constants';
import { type EngagementDeps, pickEngagement, singleTarget, targetsFromArgs } from './common';
import { copyId, openDetails } from './details';
import type { DetailsHolder } from './detailsHolder';
import type { EditField } from './edit';

export function engagementCommands(deps: EngagementDeps, details: DetailsHolder) {
  const { store, view } = deps;
  const open = async (args: unknown[]) => openDetails(deps, await details.panel(), args);
  const editOne =
    (field: EditField | undefined, title: string) =>
    async (...args: unknown[]) => {
      const target = await singleTarget(deps, args, title);
      if (target) await (await import('./writeCommands')).editEngagement(deps, target, field);
    };
  const queryCommand =
    (name: 'sortEngagements' | 'groupEngagements' | 'filterEngagements' | 'clearFilter') => async () =>
      (await import('./wholeSetCommands'))[name](deps);
  return {
    [Commands.refreshEngagements]: () => store.refresh(),
    [Commands.loadMoreEngagements]: () => store.loadMore(),
    [Commands.showMoreEngagements]: (list: unknown) => {
      if (typeof list === 'string') view.provider.showMore(list);
    },
    [Commands.createEngagement]: async () => (await import('./writeCommands')).createEngagement(deps),
    [Commands.editEngagement]: editOne(undefined, vscode.l10n.t('Edit engagement…')),
    [Commands.renameEngagement]: editOne('name', vscode.l10n.t('Rename engagement…')),
    [Commands.editEngagementDescription]: editOne('description', vscode.l10n.t('Edit the description of…')),
    [Commands.changeEngagementStatus]: (...args: unknown[]) => changeStatus(deps, args),
    [Commands.openEngagement]: (...args: unknown[]) => open(args),
    [Commands.copyEngagementId]: (...args: unknown[]) => copyId(deps, args),
    [Commands.sortEngagements]: queryCommand('sortEngagements'),
    [Commands.groupEngagements]: queryCommand('groupEngagements'),
    [Commands.filterEngagements]: queryCommand('filterEngagements'),
    [Commands.clearEngagementFilter]: queryCommand('clearFilter'),
    [Commands.goToEngagement]: async () =>
      (await import('./wholeSetCommands')).goToEngagement(deps, (id) => open([id])),
    [Commands.cancelReadingEngagements]: () => store.cancelLoadAll(),
    // The tree's own Collapse All; the title shows it only while the view is grouped.
    [Commands.collapseAll]: () =>
      vscode.commands.executeCommand(`workbench.actions.treeView.${Views.engagements}.collapseAll`),
  };
}

/** Change Status: of every engagement selected, or of the one it was invoked on, an id, or a pick. */
async function changeStatus(deps: EngagementDeps, args: unknown[]): Promise<void> {
  const targets = targetsFromArgs(deps, args);
  if (Array.isArray(targets) && targets.length > 1)
    return (await import('./writeCommands')).changeStatusOfMany(deps, targets);
  const target = Array.isArray(targets)
    ? targets[0]
    : typeof targets === 'string'
      ? await singleTarget(deps, args, '')
      : await pickEngagement(deps, vscode.l10n.t('Change the status of…'));
  if (target) await (await import('./writeCommands')).editEngagement(deps, target, 'status');
}
