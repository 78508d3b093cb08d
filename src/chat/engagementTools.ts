// The read tools of engagements, and the whole set they read.
//
// The read tools of engagements: find (the whole set, filtered and sorted here, at most 50
// listed with the count of all that matched) and read one (every field the service sent).
import * as vscode from 'vscode';
import type { Engagement } from '../api/types';
import { withUnknownFields } from '../core/engagementText';
import type { SortDirection, SortField } from '../core/query';
import { SORT_FIELDS, naturalDirection, sortEngagements } from '../core/query';
import { wholeSetMaxAge } from '../shared/services';
import type { ChatDeps } from './deps';
import { FIELD_LIMIT, MAX_LISTED, SINGLE_FIELD_LIMIT } from './deps';
import { engagementLink } from './links';
import { clip, dataBlock, heading, textResult } from './result';
import type { Target } from './target';
import { ToolRefusal, resolveTarget } from './target';

export interface FindInput {
  environment?: string;
  text?: string;
  status?: string | string[];
  type?: string | string[];
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  sort?: SortField;
  direction?: SortDirection;
  limit?: number;
}

function list(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim().toLowerCase());
}

function instant(value: unknown, field: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time))
    throw new ToolRefusal(
      vscode.l10n.t('“{0}” must be an ISO date such as 2026-01-31 or 2026-01-31T12:00:00Z.', field),
    );
  return time;
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The engagements that pass every part of the input. */
function matching(items: readonly Engagement[], input: FindInput): Engagement[] {
  const statuses = list(input.status);
  const types = list(input.type);
  const needle = typeof input.text === 'string' ? fold(input.text.trim()) : '';
  const ranges: Array<[keyof Engagement, number | undefined, number | undefined]> = [
    ['createdAt', instant(input.createdAfter, 'createdAfter'), instant(input.createdBefore, 'createdBefore')],
    ['updatedAt', instant(input.updatedAfter, 'updatedAfter'), instant(input.updatedBefore, 'updatedBefore')],
  ];
  return items.filter((e) => {
    if (statuses.length && !statuses.includes(e.status.toLowerCase())) return false;
    if (types.length && !types.includes(e.type.toLowerCase())) return false;
    if (needle && ![e.name, e.id, e.type, e.description ?? ''].some((field) => fold(field).includes(needle)))
      return false;
    for (const [field, after, before] of ranges) {
      if (after === undefined && before === undefined) continue;
      const time = Date.parse(String(e[field]));
      if (Number.isNaN(time) || (after !== undefined && time < after) || (before !== undefined && time > before))
        return false;
    }
    return true;
  });
}

/** An engagement as a list shows it: its fields, long texts cut, and its link. */
function row(target: Target, e: Engagement): Record<string, unknown> {
  const shown = withUnknownFields(e);
  const out: Record<string, unknown> = {
    id: e.id,
    name: clip(e.name, FIELD_LIMIT),
    status: e.status,
    type: e.type,
    evaluationCount: shown.evaluationCount,
    createdAt: shown.createdAt,
    updatedAt: shown.updatedAt,
  };
  if (e.description) out.description = clip(e.description, FIELD_LIMIT);
  out.link = engagementLink(target.env.label, e.id);
  return out;
}

export async function findEngagements(deps: ChatDeps, input: FindInput, token: vscode.CancellationToken) {
  const target = await resolveTarget(deps, input.environment);
  const sort = SORT_FIELDS.includes(input.sort as SortField) ? (input.sort as SortField) : 'updated';
  const direction = input.direction === 'asc' || input.direction === 'desc' ? input.direction : naturalDirection(sort);
  const limit = Math.min(MAX_LISTED, Math.max(1, Math.floor(Number(input.limit ?? 20)) || 20));
  const abort = new AbortController();
  const cancel = token.onCancellationRequested(() => abort.abort());
  try {
    const { items } = await wholeSet(deps, target, abort.signal);
    const found = sortEngagements(matching(items, input), sort, direction);
    const shown = found.slice(0, limit);
    const summary =
      found.length === 0
        ? vscode.l10n.t('No engagement of the {0} matched.', items.length)
        : vscode.l10n.t(
            '{0} of the {1} engagements matched; listing {2}, sorted by {3} ({4}).',
            found.length,
            items.length,
            shown.length,
            sort,
            direction,
          );
    const hint =
      found.length > shown.length
        ? vscode.l10n.t(
            'More matched than are listed: narrow with text, status, type or a date range (at most {0} are listed).',
            MAX_LISTED,
          )
        : '';
    return textResult(heading(target), summary, hint, shown.length ? dataBlock(shown.map((e) => row(target, e))) : '');
  } finally {
    cancel.dispose();
  }
}

export interface GetInput {
  environment?: string;
  id?: string;
}

export async function getEngagement(deps: ChatDeps, input: GetInput) {
  const id = typeof input.id === 'string' ? input.id.trim() : '';
  if (!id || id.length > 200) throw new ToolRefusal(vscode.l10n.t('Give the id of one engagement.'));
  const target = await resolveTarget(deps, input.environment);
  const engagement = await target.api.engagements.get(id);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(withUnknownFields(engagement)))
    fields[key] = typeof value === 'string' ? clip(value, SINGLE_FIELD_LIMIT) : value;
  fields.link = engagementLink(target.env.label, engagement.id);
  return textResult(heading(target), dataBlock(fields));
}

// Every engagement of an environment for a tool: for the active one the tree's store and its
// whole-set reader (one read shared with the tree, reused while fresh); for another of the
// user's environments the client's same concurrent reader, kept here while fresh.
export interface WholeSet {
  items: readonly Engagement[];
  /** Read just now (false: reused while fresh). */
  read: boolean;
}

async function wholeSet(deps: ChatDeps, target: Target, signal?: AbortSignal): Promise<WholeSet> {
  const maxAge = wholeSetMaxAge();
  if (target.active) {
    const { store } = deps;
    const fresh = store.snapshot().complete && store.age() < maxAge;
    const loaded = await store.loadAll(maxAge);
    const shown = store.snapshot();
    if (!loaded) throw shown.error instanceof Error ? shown.error : new Error('Reading the engagements was cancelled.');
    return { items: shown.items, read: !fresh };
  }
  const kept = deps.wholeSets.get(target.env.id);
  if (kept && Date.now() - kept.readAt < maxAge) return { items: kept.items, read: false };
  const result = await target.api.engagements.listAll({ signal });
  deps.wholeSets.set(target.env.id, { items: result.items, readAt: Date.now() });
  return { items: result.items, read: true };
}

/** One engagement of an environment as last read, without reading (undefined when not read). */
export function knownEngagement(deps: ChatDeps, target: Target, id: string): Engagement | undefined {
  if (target.active) return deps.store.get(id);
  return deps.wholeSets.get(target.env.id)?.items.find((e) => e.id === id);
}

/** A write landed: what is kept for the environment shows it (the tree's store for the active one). */
export function keepWritten(deps: ChatDeps, target: Target, engagement: Engagement, created = false): void {
  if (target.active) {
    deps.store.upsert(engagement, created);
    return;
  }
  const kept = deps.wholeSets.get(target.env.id);
  if (!kept) return;
  const index = kept.items.findIndex((e) => e.id === engagement.id);
  if (index >= 0) kept.items[index] = engagement;
  else if (created) kept.items.unshift(engagement);
}
