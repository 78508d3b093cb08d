// What the Engagements view says besides its rows: the welcome state (which welcome content
// shows), and the message above the tree (why a load failed, a saved page, a short list).
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { formatCount, relativeTime } from '../core/format';
import { applyQuery } from '../core/query';
import { describeError, serviceReason } from '../ui/errors';
import type { QueryState } from './queryState';
import type { StoreSnapshot } from './storeTypes';

export type EngagementsViewState =
  | 'noEnvironment'
  | 'keyMissing'
  | 'unauthorized'
  | 'forbidden'
  | 'unreachable'
  | 'empty'
  | 'noMatch'
  | 'loading'
  | 'ready';

/** The welcome state of the view, from what the store holds and the active filter. */
export function viewState(snapshot: StoreSnapshot, query: QueryState): EngagementsViewState {
  if (snapshot.phase === 'noEnvironment') return 'noEnvironment';
  if (snapshot.phase === 'keyMissing') return 'keyMissing';
  // A create the service accepted and does not show yet is a row of the tree.
  if (snapshot.items.length === 0 && !snapshot.pending.some((p) => p.write.pending === 'create')) {
    // With nothing to show, a failure explains the empty view (also after an empty list).
    if (snapshot.phase === 'failed' || (snapshot.phase === 'loaded' && snapshot.error !== undefined)) {
      const error = snapshot.error;
      if (isApiError(error) && error.kind === 'unauthorized')
        return error.status === undefined ? 'keyMissing' : 'unauthorized';
      if (isApiError(error) && error.kind === 'forbidden') return 'forbidden';
      return 'unreachable';
    }
    if (snapshot.phase === 'loaded') return 'empty';
    return 'loading';
  }
  if (!snapshot.hasMore && query.filtered && applyQuery(snapshot.items, query.current).items.length === 0)
    return 'noMatch';
  return 'ready';
}

/** The message above the tree: why loading failed, a page saved earlier, engagements the service will not send. */
export function viewMessage(
  snapshot: StoreSnapshot,
  state: EngagementsViewState,
  env: string | undefined,
): string | undefined {
  if (state === 'unreachable') return describeError(snapshot.error, env);
  // The welcome says what to do; the service's own reason, when it gave one, shows above it.
  if (state === 'unauthorized' || state === 'forbidden') return serviceReason(snapshot.error);
  if (snapshot.fromCache && snapshot.error === undefined && snapshot.items.length > 0) {
    // Saved by an earlier session: shown at once, marked until the refresh lands.
    const saved = snapshot.fetchedAt === undefined ? '' : relativeTime(new Date(snapshot.fetchedAt).toISOString());
    return snapshot.refreshing
      ? vscode.l10n.t('Showing engagements saved {0}; refreshing…', saved)
      : vscode.l10n.t('Showing engagements saved {0}.', saved);
  }
  if (snapshot.error === undefined && snapshot.stop) return stopMessage(snapshot);
  if (snapshot.error === undefined || snapshot.items.length === 0) return undefined;
  // A failed refresh or Load more keeps what was shown; say why, and how old it is.
  const age = snapshot.fetchedAt === undefined ? '' : relativeTime(new Date(snapshot.fetchedAt).toISOString());
  return vscode.l10n.t('Could not refresh: {0} Showing engagements read {1}.', describeError(snapshot.error, env), age);
}

/** Engagements the service announced but will not page to: said, never hidden. */
export function stopMessage(snapshot: Pick<StoreSnapshot, 'items' | 'totalCount' | 'stop'>): string {
  const shown = formatCount(snapshot.items.length);
  const total = formatCount(snapshot.totalCount);
  switch (snapshot.stop) {
    case 'ignoresPage':
    case 'repeatsPages':
      return vscode.l10n.t(
        'Showing {0} of {1}: the service does not page this list (it answers the first page again).',
        shown,
        total,
      );
    case 'tooManyPages':
      return vscode.l10n.t(
        'Showing {0} of {1}: the service answers in more pages than the extension reads.',
        shown,
        total,
      );
    default:
      return vscode.l10n.t(
        'Showing {0} of {1}: the service announced more engagements than it sends. Refresh to try again.',
        shown,
        total,
      );
  }
}
