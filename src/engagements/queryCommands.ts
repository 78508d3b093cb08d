// Sort, group and filter from the view's title menu. The choices are kept per workspace; the
// view's description shows the active filter and how many match. The choice applies at once
// to what is loaded, then to the whole set once every page is read (`ensureWholeSet`, below).
import * as vscode from 'vscode';
import { formatCount } from '../core/format';
import type { GroupBy, SortField } from '../core/query';
import { distinctValues, isDefaultQuery, naturalDirection } from '../core/query';
import { statusLook } from '../core/engagementText';
import { Settings } from '../shared/constants';
import { wholeSetMaxAge } from '../shared/staleness';
import { isBack } from '../ui/ui';
import type { EngagementDeps } from './commandKit';
import { environmentLabel, ui } from './commandKit';

function sortLabel(field: SortField): string {
  switch (field) {
    case 'updated':
      return vscode.l10n.t('Last Updated');
    case 'created':
      return vscode.l10n.t('Created');
    case 'name':
      return vscode.l10n.t('Name');
    case 'evaluations':
      return vscode.l10n.t('Evaluations');
  }
}

function directionLabel(field: SortField, direction: 'asc' | 'desc'): string {
  if (field === 'name') return direction === 'asc' ? vscode.l10n.t('A to Z') : vscode.l10n.t('Z to A');
  if (field === 'evaluations')
    return direction === 'desc' ? vscode.l10n.t('most first') : vscode.l10n.t('fewest first');
  return direction === 'desc' ? vscode.l10n.t('newest first') : vscode.l10n.t('oldest first');
}

export async function sortEngagements(deps: EngagementDeps): Promise<void> {
  const { sort, direction } = deps.query.current;
  type Choice = { sort: SortField; direction: 'asc' | 'desc' };
  const fields: SortField[] = ['updated', 'created', 'name', 'evaluations'];
  const items = fields.map((field) => {
    const dir = field === sort ? direction : naturalDirection(field);
    return {
      label: sortLabel(field),
      description: directionLabel(field, dir) + (field === sort ? ` · ${vscode.l10n.t('current')}` : ''),
      value: { sort: field, direction: dir },
      iconId: field === sort ? 'check' : 'blank',
    };
  });
  const reverse = direction === 'asc' ? 'desc' : 'asc';
  items.push({
    label: vscode.l10n.t('Reverse Order'),
    description: directionLabel(sort, reverse),
    value: { sort, direction: reverse },
    iconId: 'arrow-swap',
  });
  const chosen = await ui(deps).pick<Choice>({
    title: vscode.l10n.t('Sort Engagements'),
    items,
    activeValue: items.find((i) => i.value.sort === sort)?.value,
  });
  if (chosen === undefined || isBack(chosen)) return;
  await remembering(deps.query.update(chosen), deps);
}

/**
 * Any query but the default (pages loaded one by one) reads every page. The command answers
 * at once (the choice already applies to what is loaded); the read goes on behind, with its
 * progress and Cancel in the view.
 */
async function applyToWholeSet(deps: EngagementDeps): Promise<void> {
  if (!isDefaultQuery(deps.query.current)) void ensureWholeSet(deps);
  return Promise.resolve();
}

/** The query applies at once; the read of every page starts while it is being remembered. */
async function remembering(saving: Promise<void>, deps: EngagementDeps): Promise<void> {
  await applyToWholeSet(deps);
  await saving;
}

export async function groupEngagements(deps: EngagementDeps): Promise<void> {
  const current = deps.query.current.group;
  const labels: Record<GroupBy, string> = {
    none: vscode.l10n.t('No Grouping'),
    status: vscode.l10n.t('Group by Status'),
    type: vscode.l10n.t('Group by Type'),
  };
  const items = (['none', 'status', 'type'] as GroupBy[]).map((g) => ({
    label: labels[g],
    value: g,
    iconId: g === current ? 'check' : 'blank',
  }));
  const chosen = await ui(deps).pick<GroupBy>({
    title: vscode.l10n.t('Group Engagements'),
    items,
    activeValue: current,
  });
  if (chosen === undefined || isBack(chosen)) return;
  await remembering(deps.query.update({ group: chosen }), deps);
}

type FilterAction = 'status' | 'type' | 'name' | 'clear';

export async function filterEngagements(deps: EngagementDeps): Promise<void> {
  const { filter } = deps.query.current;
  await deps.store.ensureLoaded();
  const items: Array<{ label: string; description?: string; value: FilterAction; iconId: string }> = [
    {
      label: vscode.l10n.t('By Status…'),
      description: filter.statuses?.join(', '),
      value: 'status',
      iconId: 'circle-large-outline',
    },
    { label: vscode.l10n.t('By Type…'), description: filter.types?.join(', '), value: 'type', iconId: 'tag' },
    {
      label: vscode.l10n.t('Name Contains…'),
      description: filter.nameContains ? `“${filter.nameContains}”` : undefined,
      value: 'name',
      iconId: 'search',
    },
  ];
  if (deps.query.filtered) items.push({ label: vscode.l10n.t('Clear Filter'), value: 'clear', iconId: 'clear-all' });
  const action = await ui(deps).pick<FilterAction>({
    title: vscode.l10n.t('Filter Engagements'),
    placeholder: vscode.l10n.t('Filters apply to every engagement, not only those loaded'),
    items,
  });
  if (action === undefined || isBack(action)) return;
  const loaded = deps.store.snapshot().items;
  if (action === 'clear') return deps.query.update({ filter: {} });
  if (action === 'name') {
    const text = await ui(deps).input({
      title: vscode.l10n.t('Filter by Name'),
      value: filter.nameContains ?? '',
      prompt: vscode.l10n.t('Show engagements whose name contains this text (empty shows all)'),
    });
    if (text === undefined || isBack(text)) return;
    return remembering(deps.query.update({ filter: { ...filter, nameContains: text.trim() || undefined } }), deps);
  }
  const field = action;
  const selected = (field === 'status' ? filter.statuses : filter.types) ?? [];
  const values = [...new Set([...distinctValues(loaded, field), ...selected])];
  const chosen = await ui(deps).pickMany<string>({
    title:
      field === 'status' ? vscode.l10n.t('Show Engagements with Status') : vscode.l10n.t('Show Engagements of Type'),
    placeholder: vscode.l10n.t('None chosen shows all'),
    items: values.map((v) => ({
      label: field === 'status' ? statusLook(v).text : v,
      value: v,
      picked: selected.includes(v),
      iconId: field === 'status' ? statusLook(v).icon : 'tag',
    })),
  });
  if (chosen === undefined) return;
  await remembering(
    deps.query.update({
      filter: { ...filter, [field === 'status' ? 'statuses' : 'types']: chosen.length ? chosen : undefined },
    }),
    deps,
  );
}

export async function clearFilter(deps: EngagementDeps): Promise<void> {
  await deps.query.update({ filter: {} });
}

// Reading the whole set of engagements when the user sorts, groups, filters or searches: the
// store reads every page (the client's concurrent reader), the view shows progress with a
// Cancel button in its title, and a set larger than the setting is read only when the user
// says so.
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
  // Everything is loaded already (a single page, or Load more went to the end); rows left out
  // for want of an id count as read.
  const read = snapshot.items.length + (snapshot.skipped ?? 0);
  if (!snapshot.hasMore && !snapshot.fromCache && read >= snapshot.totalCount) return true;
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
