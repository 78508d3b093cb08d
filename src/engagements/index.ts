// The Engagements feature: the store of the active environment's engagements, the tree view,
// and the commands to refresh, page, sort/group/filter, open, copy, create and update. Wiring
// only: the objects are made in parts.ts, the commands are in commands.ts.
import { StateKeys } from '../shared/constants';
import type { Feature, Services } from '../shared/services';
import { forgetWithEnvironmentOrKey, saveFailed } from '../shared/perEnvironment';
import { engagementCache } from './cache';
import { engagementCommands } from './commands';
import type { EngagementDeps } from './common';
import { DetailsPanel } from './detailsPanel';
import { createStore, createView, readAllForRestoredQuery } from './parts';
import { QueryState } from './queryState';
import type { EngagementStore } from './store';
import type { EngagementsView } from './view';

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
