// The engagement tools, for both transports: find (the whole set, filtered and sorted here, at
// most 50 listed with the count of all that matched), read one (every field the service sent),
// create, and change the name, description or status of one or the status of several. Each
// engagement to change is read again first and nothing is written over a version other than
// the one it was based on; each change is sent with that version as its precondition. Where a
// write goes is the transport's to decide (VS Code: where its confirmation said). Free of `vscode`.
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorText';
import { changedFields, createBody, hasChanges, updateBody } from '../api/engagements';
import { type EngagementChanges, isAccepted } from '../api/types';
import type { Engagement } from '../core/engagement';
import { LIMITS, mapLimited } from '../core/concurrency';
import { unknownValue, withUnknownFields } from '../core/engagementText';
import { l10n } from '../core/l10n';
import type { SortDirection, SortField } from '../core/query';
import { SORT_FIELDS, naturalDirection, sortEngagements } from '../core/query';
import { FIELD_LIMIT, MAX_LISTED, MAX_UPDATED, SINGLE_FIELD_LIMIT, Tools } from './definitions';
import { type Target, type ToolHost, ToolRefusal } from './host';
import { clip, dataBlock, errorResult, heading, textResult, type ToolResult } from './result';

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
    throw new ToolRefusal(l10n.t('“{0}” must be an ISO date such as 2026-01-31 or 2026-01-31T12:00:00Z.', field));
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
    // A status or type the service sent none of readably matches none asked for.
    if (statuses.length && (e.status === undefined || !statuses.includes(e.status.toLowerCase()))) return false;
    if (types.length && (e.type === undefined || !types.includes(e.type.toLowerCase()))) return false;
    if (
      needle &&
      ![e.name ?? '', e.id, e.type ?? '', e.description ?? ''].some((field) => fold(field).includes(needle))
    )
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
function row(host: ToolHost, target: Target, e: Engagement): Record<string, unknown> {
  const shown = withUnknownFields(e);
  const out: Record<string, unknown> = {
    id: e.id,
    name: e.name === undefined ? shown.name : clip(e.name, FIELD_LIMIT),
    status: shown.status,
    type: shown.type,
    evaluationCount: shown.evaluationCount,
    createdAt: shown.createdAt,
    updatedAt: shown.updatedAt,
  };
  if (e.description) out.description = clip(e.description, FIELD_LIMIT);
  const link = host.link(target, e.id);
  if (link) out.link = link;
  return out;
}

export async function findEngagements(host: ToolHost, input: FindInput, signal?: AbortSignal): Promise<ToolResult> {
  const target = await host.resolve(input.environment);
  const sort = SORT_FIELDS.includes(input.sort as SortField) ? (input.sort as SortField) : 'updated';
  const direction = input.direction === 'asc' || input.direction === 'desc' ? input.direction : naturalDirection(sort);
  const limit = Math.min(MAX_LISTED, Math.max(1, Math.floor(Number(input.limit ?? 20)) || 20));
  const { items, skipped } = await host.wholeSet(target, signal);
  const found = sortEngagements(matching(items, input), sort, direction);
  const shown = found.slice(0, limit);
  const summary =
    found.length === 0
      ? l10n.t('No engagement of the {0} matched.', items.length)
      : l10n.t(
          '{0} of the {1} engagements matched; listing {2}, sorted by {3} ({4}).',
          found.length,
          items.length,
          shown.length,
          sort,
          direction,
        );
  const hint =
    found.length > shown.length
      ? l10n.t(
          'More matched than are listed: narrow with text, status, type or a date range (at most {0} are listed).',
          MAX_LISTED,
        )
      : '';
  // Rows without an id are not among them: said, so no one takes the list for all there is.
  const leftOut = !skipped
    ? ''
    : skipped === 1
      ? l10n.t('1 engagement the service sent without an id is left out: it cannot be read or changed.')
      : l10n.t('{0} engagements the service sent without an id are left out: they cannot be read or changed.', skipped);
  return textResult(
    heading(target),
    summary,
    hint,
    leftOut,
    shown.length ? dataBlock(shown.map((e) => row(host, target, e))) : '',
  );
}

export interface GetInput {
  environment?: string;
  id?: string;
}

export async function getEngagement(host: ToolHost, input: GetInput): Promise<ToolResult> {
  const id = typeof input.id === 'string' ? input.id.trim() : '';
  if (!id || id.length > 200) throw new ToolRefusal(l10n.t('Give the id of one engagement.'));
  const target = await host.resolve(input.environment);
  const engagement = await target.api.engagements.get(id);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(withUnknownFields(engagement)))
    fields[key] = typeof value === 'string' ? clip(value, SINGLE_FIELD_LIMIT) : value;
  const link = host.link(target, engagement.id);
  if (link) fields.link = link;
  return textResult(heading(target), dataBlock(fields));
}

export interface CreateInput {
  environment?: string;
  name?: string;
  type?: string;
  description?: string;
}

export interface UpdateInput {
  environment?: string;
  ids?: string[];
  name?: string;
  description?: string;
  status?: string;
  /** For each id, the `updatedAt` it was read with. */
  basedOn?: Record<string, unknown>;
}

/** The versions an update was based on, as its input gives them. */
function basedOn(input: UpdateInput): Map<string, string> {
  const given = input.basedOn && typeof input.basedOn === 'object' ? Object.entries(input.basedOn) : [];
  return new Map(given.filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export function ids(input: UpdateInput): string[] {
  const list = Array.isArray(input.ids) ? input.ids : [];
  const clean = [...new Set(list.filter((id): id is string => typeof id === 'string').map((id) => id.trim()))].filter(
    (id) => id !== '' && id.length <= 200,
  );
  if (clean.length === 0) throw new ToolRefusal(l10n.t('Give the ids of the engagements to change.'));
  if (clean.length > MAX_UPDATED)
    throw new ToolRefusal(l10n.t('At most {0} engagements can be changed at once.', MAX_UPDATED));
  return clean;
}

export function wanted(input: UpdateInput, count: number): EngagementChanges {
  const changes: EngagementChanges = {};
  if (typeof input.name === 'string') changes.name = input.name;
  if (typeof input.description === 'string') changes.description = input.description;
  if (typeof input.status === 'string') changes.status = input.status;
  if (count > 1 && (changes.name !== undefined || changes.description !== undefined))
    throw new ToolRefusal(
      l10n.t('Only the status can be changed for several engagements at once; name and description one at a time.'),
    );
  // Refused here as the service would: an empty name or status, nothing to change.
  updateBody(changes);
  return changes;
}

/** Creates an engagement in `target` (the one its confirmation named, in VS Code). */
export async function createEngagement(host: ToolHost, target: Target, input: CreateInput): Promise<ToolResult> {
  const body = createBody({
    name: String(input.name ?? ''),
    type: String(input.type ?? ''),
    description: input.description,
  });
  let outcome: Awaited<ReturnType<typeof target.api.engagements.create>>;
  try {
    outcome = await target.api.engagements.create(body);
  } catch (error) {
    // Said for the environment it was sent to, which need not be the active one.
    host.logFailure(Tools.createEngagement, error);
    return errorResult(error, { label: target.env.label, replaceKey: host.replaceKey }, heading(target));
  }
  if (isAccepted(outcome)) {
    host.accepted(target, outcome);
    return textResult(
      heading(target),
      l10n.t('The service accepted the new engagement for processing; it does not show it yet.'),
      dataBlock(body),
    );
  }
  host.written(target, outcome.engagement, true);
  return textResult(
    heading(target),
    l10n.t('Created the engagement.'),
    dataBlock({
      ...withUnknownFields(outcome.engagement),
      link: host.link(target, outcome.engagement.id),
    }),
  );
}

type Outcome =
  | { id: string; result: 'changed'; engagement: Engagement }
  | { id: string; result: 'accepted' }
  | { id: string; result: 'unchanged' }
  | { id: string; result: 'changedMeanwhile'; fields: string }
  | { id: string; result: 'failed'; error: unknown };

/**
 * Changes the engagements of `input` in `target`: each read again first, and not written over a
 * version other than the one it was based on (`versions`: what a person's confirmation showed,
 * in VS Code; else `input.basedOn`).
 */
export async function updateEngagements(
  host: ToolHost,
  target: Target,
  input: UpdateInput,
  versions?: ReadonlyMap<string, string>,
): Promise<ToolResult> {
  const list = ids(input);
  const changes = wanted(input, list.length);
  const shown = new Map([...basedOn(input), ...(versions ?? [])]);
  const outcomes = await mapLimited(list, LIMITS.perEngagement, (id) => updateOne(host, target, id, changes, shown));
  const rows = outcomes.map((r, i): Outcome =>
    r.status === 'fulfilled' ? r.value : { id: list[i], result: 'failed', error: r.reason },
  );
  return report(host, target, rows);
}

async function updateOne(
  host: ToolHost,
  target: Target,
  id: string,
  wantedChanges: EngagementChanges,
  shown: ReadonlyMap<string, string>,
): Promise<Outcome> {
  const fresh = await target.api.engagements.get(id);
  const confirmed = shown.get(id);
  if (confirmed !== undefined && confirmed !== fresh.updatedAt)
    return { id, result: 'changedMeanwhile', fields: fresh.updatedAt ?? unknownValue() };
  const changes = changedFields(fresh, wantedChanges);
  if (!hasChanges(changes)) return { id, result: 'unchanged' };
  let engagement: Engagement;
  try {
    const outcome = await target.api.engagements.update(id, changes, { expectedUpdatedAt: fresh.updatedAt });
    if (isAccepted(outcome)) {
      host.accepted(target, outcome);
      return { id, result: 'accepted' };
    }
    engagement = outcome.engagement;
  } catch (error) {
    if (!isApiError(error) || !error.writeOutcome) throw error;
    // Made, or perhaps made: look before calling it failed.
    const check = await target.api.engagements.checkUpdate(id, changes).catch(() => undefined);
    if (!check?.applied) throw error;
    engagement = check.engagement;
  }
  host.written(target, engagement);
  return { id, result: 'changed', engagement };
}

function report(host: ToolHost, target: Target, rows: Outcome[]): ToolResult {
  const count = (kind: Outcome['result']) => rows.filter((r) => r.result === kind).length;
  const summary = l10n.t(
    'Changed {0}, accepted for processing {1}, already so (nothing sent) {2}, changed by someone else since it was read or confirmed (nothing sent) {3}, failed {4}.',
    count('changed'),
    count('accepted'),
    count('unchanged'),
    count('changedMeanwhile'),
    count('failed'),
  );
  const hint = count('changedMeanwhile')
    ? l10n.t('Read the engagements changed meanwhile again and ask the user before changing them.')
    : '';
  const data = rows.map((r) => {
    const link = host.link(target, r.id);
    switch (r.result) {
      case 'changed':
        return {
          id: r.id,
          result: r.result,
          name: r.engagement.name ?? unknownValue(),
          status: r.engagement.status ?? unknownValue(),
          updatedAt: r.engagement.updatedAt ?? unknownValue(),
          link,
        };
      case 'failed':
        return { id: r.id, result: r.result, error: describeError(r.error, target.env.label) };
      case 'changedMeanwhile':
        return { id: r.id, result: r.result, updatedAt: r.fields, link };
      default:
        return { id: r.id, result: r.result, link };
    }
  });
  return textResult(heading(target), summary, hint, dataBlock(data));
}
