// The Engagements feature: the store of the active environment's engagements, the tree view,
// and the commands to refresh, page, sort/group/filter, open, copy, create and update: the
// objects it is made of and its command table.
import * as vscode from 'vscode';
import { isDefaultQuery } from '../core/query';
import { displayText } from '../core/text';
import { originOf } from '../session/model';
import { Commands, Settings, StateKeys, Views } from '../shared/constants';
import { forgetWithEnvironmentOrKey, saveFailed } from '../shared/perEnvironment';
import type { Feature } from '../shared/feature';
import type { Services } from '../services';
import { createEngagement } from './create';
import { DetailsPanel, copyId, openDetails } from './details';
import { goToEngagement } from './goTo';
import { clearFilter, ensureWholeSet, filterEngagements, groupEngagements, sortEngagements } from './queryCommands';
import { QueryState } from './tree';
import { changeStatusOfMany } from './statusChange';
import type { EngagementCache } from './store';
import { EngagementStore, engagementCache } from './store';
import type { EngagementDeps } from './commandKit';
import { pickEngagement, singleTarget, targetsFromArgs } from './commandKit';
import type { EditField } from './edit';
import { editEngagement } from './edit';
import { EngagementsView } from './view';

/** What the feature built: the chat tools read and write through the same store (one whole set shared with the tree). */
export interface EngagementsParts {
  store: EngagementStore;
  view: EngagementsView;
  query: QueryState;
  details: DetailsPanel;
}

export function registerEngagements(services: Services) {
  const { connection, context } = services;
  const cache = engagementCache(
    context.workspaceState,
    StateKeys.engagementsCache,
    saveFailed(services, 'the engagements shown'),
  );
  const store = createStore(services, cache);
  const query = new QueryState(context.workspaceState);
  const view = createView(services, store, query);
  if (view.treeView.visible) services.shown.mark();
  const deps: EngagementDeps = { services, store, query, view };
  const details = new DetailsPanel(() => deps);
  context.subscriptions.push(
    query,
    view,
    // Reads and the looks for accepted writes in flight stop with the view.
    { dispose: () => store.dispose() },
    details,
    // A write refused for lack of engagements:write (remembered per environment until its key is replaced).
    services.environments.onDidChangeCapabilities(() => view.update()),
    readAllForRestoredQuery(deps),
    // Another environment, URL or key: what is shown belongs to the old one.
    connection.onDidChange(() => {
      store.reset();
      if (view.treeView.visible) void store.ensureLoaded();
    }),
    view.treeView.onDidChangeVisibility(({ visible }) => {
      if (visible) services.shown.mark();
    }),
    ...forgetWithEnvironmentOrKey(services, cache),
  );
  return {
    commands: engagementCommands(deps, details),
    parts: { store, view, query, details },
  } satisfies Feature<EngagementsParts>;
}

// The Engagements feature's objects, made from the services: the store of the active
// environment's engagements and the tree view; and what follows the store beyond the view.
function createStore(services: Services, cache: EngagementCache): EngagementStore {
  const { connection } = services;
  return new EngagementStore({
    environmentId: () => connection.environment?.id,
    api: () => connection.api,
    hasKey: () => connection.hasKey(),
    pageSize: () =>
      Math.min(
        100,
        Math.max(1, Math.round(vscode.workspace.getConfiguration(Settings.section).get<number>(Settings.pageSize, 25))),
      ),
    cache,
  });
}

function createView(services: Services, store: EngagementStore, query: QueryState): EngagementsView {
  const { connection } = services;
  return new EngagementsView(
    store,
    query,
    services.recorder,
    () => connection.environment?.label,
    () => {
      const env = connection.environment;
      return env?.source === 'workspace'
        ? vscode.l10n.t('{0} (workspace) — {1}', displayText(env.label), originOf(env.baseUrl))
        : undefined;
    },
    () => connection.capabilities().write === false,
  );
}

/**
 * A sort, grouping or filter remembered from an earlier session applies to every engagement
 * too: when an environment's first page has come in from the service (not the saved copy),
 * the rest are read, within the whole-set limit. Only then: a read the user cancelled, or
 * kept to what is loaded, stays so.
 */
function readAllForRestoredQuery(deps: EngagementDeps): { dispose(): void } {
  const { store, query } = deps;
  let wasFresh = false;
  return store.onDidChange(() => {
    const shown = store.snapshot();
    const fresh = shown.phase === 'loaded' && !shown.fromCache;
    const firstLoad = fresh && !wasFresh;
    wasFresh = fresh;
    if (!firstLoad || shown.readingAll || shown.complete || !shown.hasMore || isDefaultQuery(query.current)) return;
    void ensureWholeSet(deps, { restored: true });
  });
}

// The Engagements feature's command table.
function engagementCommands(deps: EngagementDeps, details: DetailsPanel) {
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
