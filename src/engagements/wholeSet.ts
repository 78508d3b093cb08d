// Reading the whole set of engagements when the user sorts, groups, filters or searches: the
// store reads every page (the client's concurrent reader), the view shows progress with a
// Cancel button in its title, and a set larger than the setting is read only when the user
// says so.
import * as vscode from 'vscode';
import { Settings } from '../shared/constants';
import { formatCount } from '../core/format';
import { wholeSetMaxAge } from '../shared/staleness';
import { type EngagementDeps, environmentLabel, ui } from './common';

/** The default of `engagementUsage.engagements.wholeSetLimit`. */
const DEFAULT_WHOLE_SET_LIMIT = 20_000;

function config() {
  return vscode.workspace.getConfiguration(Settings.section);
}

/**
 * Makes sure every engagement is loaded before a sort, group or filter applies. Resolves
 * true when the whole set is loaded, false when the user chose to keep only what is loaded,
 * cancelled, or the read failed (the view then says why and keeps what it showed). With
 * `restored` (a query remembered from an earlier session) it never asks.
 */
export async function ensureWholeSet(
  deps: EngagementDeps,
  options: { ask?: boolean; restored?: boolean } = {},
): Promise<boolean> {
  const { store } = deps;
  if (!deps.services.connection.api) return false;
  await store.ensureLoaded();
  const snapshot = store.snapshot();
  if (snapshot.phase !== 'loaded' && snapshot.items.length === 0) return false;
  // Everything is loaded already (a single page, or Load more went to the end).
  if (!snapshot.hasMore && !snapshot.fromCache && snapshot.items.length >= snapshot.totalCount) return true;
  const limit = Math.max(0, Math.round(config().get<number>(Settings.wholeSetLimit, DEFAULT_WHOLE_SET_LIMIT)));
  // A query remembered from an earlier session is not a question worth a dialog at start:
  // within the limit every page is read; beyond it the view says the query applies to those loaded.
  if (options.restored && !snapshot.complete && snapshot.totalCount > limit) return false;
  if (options.ask !== false && !snapshot.complete && snapshot.totalCount > limit) {
    const readAll = vscode.l10n.t('Read All');
    const onlyLoaded = vscode.l10n.t('Only Those Loaded');
    const choice = await ui(deps).message(
      'warning',
      vscode.l10n.t(
        '{0} has {1} engagements. Read all of them to sort, group and filter the whole set?',
        environmentLabel(deps) ?? '',
        formatCount(snapshot.totalCount),
      ),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Otherwise the view applies it to the {0} loaded so far. The limit is the setting “{1}”.',
          formatCount(snapshot.items.length),
          `${Settings.section}.${Settings.wholeSetLimit}`,
        ),
      },
      readAll,
      onlyLoaded,
    );
    if (choice !== readAll) return false;
  }
  return store.loadAll(wholeSetMaxAge());
}
