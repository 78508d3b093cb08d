// Sort, group and filter from the view's title menu. The choices are kept per workspace; the
// view's description shows the active filter and how many match. The choice applies at once
// to what is loaded, then to the whole set once every page is read (wholeSet.ts).
import * as vscode from 'vscode';
import { distinctValues, type GroupBy, isDefaultQuery, naturalDirection, type SortField } from '../core/query';
import { statusLook } from '../core/status';
import { isBack } from '../ui/ui';
import { type EngagementDeps, ui } from './common';
import { ensureWholeSet } from './wholeSet';

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
