// The Engagements feature's objects, made from the services: the store of the active
// environment's engagements and the tree view; and what follows the store beyond the view.
import * as vscode from 'vscode';
import { Settings } from '../shared/constants';
import { isDefaultQuery } from '../core/query';
import { displayText } from '../core/text';
import { originOf } from '../session/model';
import type { Services } from '../shared/services';
import type { EngagementCache } from './cache';
import type { EngagementDeps } from './common';
import type { QueryState } from './queryState';
import { EngagementStore } from './store';
import { EngagementsView } from './view';
import { ensureWholeSet } from './wholeSet';

export function createStore(services: Services, cache: EngagementCache): EngagementStore {
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

export function createView(services: Services, store: EngagementStore, query: QueryState): EngagementsView {
  const { connection } = services;
  return new EngagementsView(
    store,
    query,
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
export function readAllForRestoredQuery(deps: EngagementDeps): { dispose(): void } {
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
