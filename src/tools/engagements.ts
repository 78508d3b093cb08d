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
import type { SortField } from '../core/query';
import { naturalDirection, sortEngagements } from '../core/query';
import { pageData, pageOf, pageWords, queryOf, resume } from './cursor';
import { FIELD_LIMIT, type InputOf, MAX_UPDATED, SINGLE_FIELD_LIMIT, Tools } from './definitions';
import { type Target, type ToolContext, type ToolHost, ToolRefusal } from './host';
import { clip, dataBlock, dataResult, errorResult, failedIn, heading, type ToolResult, whereFrom } from './result';

type FindInput = InputOf<typeof Tools.findEngagements>;

/** The inputs a list of engagements depends on: a cursor lists for these. */
const FIND_QUERY = [
  'environment',
  'text',
  'status',
  'type',
  'createdAfter',
  'createdBefore',
  'updatedAfter',
  'updatedBefore',
  'sort',
  'direction',
] as const satisfies ReadonlyArray<keyof FindInput>;

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

export async function findEngagements(
  host: ToolHost,
  given: FindInput,
  context: ToolContext = {},
): Promise<ToolResult> {
  const { input, offset, readAt: listedFrom } = resume(given, FIND_QUERY);
  const target = await host.resolve(input.environment);
  const sort: SortField = input.sort ?? 'updated';
  const direction = input.direction ?? naturalDirection(sort);
  const { items, skipped, readAt } = await host.wholeSet(target, context);
  const found = sortEngagements(matching(items, input), sort, direction);
  const query = queryOf(input, FIND_QUERY);
  const page = pageOf(found, { offset, limit: input.limit ?? 20, query, readAt, listedFrom });
  const statusesSeen = unknownStatuses(items, input.status);
  const rows = page.items.map((e) => row(host, target, e));
  return dataResult(
    {
      ...whereFrom(target),
      ...pageData(page),
      total: items.length,
      sort,
      direction,
      ...(skipped ? { skipped } : {}),
      ...(statusesSeen ? { statusesSeen } : {}),
      engagements: rows,
    },
    heading(target),
    found.length === 0
      ? l10n.t('No engagement of the {0} matched.', items.length)
      : l10n.t(
          '{0} of the {1} engagements matched; listing {2} to {3}, sorted by {4} ({5}).',
          found.length,
          items.length,
          offset + 1,
          offset + rows.length,
          sort,
          direction,
        ),
    ...pageWords(page),
    statusesSeen
      ? l10n.t(
          'No engagement has the status {0}; the statuses they have: {1}.',
          (input.status ?? []).join(', '),
          statusesSeen.join(', '),
        )
      : '',
    leftOut(skipped),
    rows.length ? dataBlock(rows) : '',
  );
}

/** Rows without an id are not among them: said, so no one takes the list for all there is. */
function leftOut(skipped: number | undefined): string {
  if (!skipped) return '';
  return skipped === 1
    ? l10n.t('1 engagement the service sent without an id is left out: it cannot be read or changed.')
    : l10n.t('{0} engagements the service sent without an id are left out: they cannot be read or changed.', skipped);
}

/** The statuses the engagements have, when no engagement has any status asked for (a typo, most often). */
function unknownStatuses(items: readonly Engagement[], asked: readonly string[] | undefined): string[] | undefined {
  const wanted = list(asked);
  if (!wanted.length) return undefined;
  const seen = [...new Set(items.flatMap((e) => (e.status === undefined ? [] : [e.status])))].sort();
  if (seen.some((status) => wanted.includes(status.toLowerCase()))) return undefined;
  return seen.slice(0, 50);
}

export async function getEngagement(
  host: ToolHost,
  input: InputOf<typeof Tools.getEngagement>,
  context: ToolContext = {},
): Promise<ToolResult> {
  const id = input.id.trim();
  if (!id) throw new ToolRefusal(l10n.t('Give the id of one engagement.'));
  const target = await host.resolve(input.environment);
  const engagement = await target.api.engagements.get(id, { signal: context.signal });
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(withUnknownFields(engagement)))
    fields[key] = typeof value === 'string' ? clip(value, SINGLE_FIELD_LIMIT) : value;
  const link = host.link(target, engagement.id);
  if (link) fields.link = link;
  return dataResult({ ...whereFrom(target), engagement: fields }, heading(target), dataBlock(fields));
}

type CreateInput = InputOf<typeof Tools.createEngagement>;
export type UpdateInput = InputOf<typeof Tools.updateEngagements>;

/**
 * The versions an update was based on, by id as the tool reads it (trimmed, as `ids` reads
 * them): an id padded with spaces in `basedOn` is the same id, held to the same version.
 */
function basedOn(input: UpdateInput): Map<string, string> {
  const versions = new Map<string, string>();
  for (const [key, version] of Object.entries(input.basedOn ?? {})) {
    const id = key.trim();
    if (versions.has(id) && versions.get(id) !== version)
      throw new ToolRefusal(l10n.t('Nothing was sent: “basedOn” gives two versions of “{0}”.', id));
    versions.set(id, version);
  }
  return versions;
}

/** The ids to change, each once, as the tool reads them (trimmed). */
export function ids(input: Pick<UpdateInput, 'ids'>): string[] {
  const clean = [...new Set(input.ids.map((id) => id.trim()))].filter((id) => id !== '');
  if (clean.length === 0) throw new ToolRefusal(l10n.t('Give the ids of the engagements to change.'));
  if (clean.length > MAX_UPDATED)
    throw new ToolRefusal(l10n.t('At most {0} engagements can be changed at once.', MAX_UPDATED));
  return clean;
}

export function wanted(input: UpdateInput, count: number): EngagementChanges {
  const changes: EngagementChanges = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.status !== undefined) changes.status = input.status;
  if (count > 1 && (changes.name !== undefined || changes.description !== undefined))
    throw new ToolRefusal(
      l10n.t('Only the status can be changed for several engagements at once; name and description one at a time.'),
    );
  // Refused here as the service would: an empty name or status, nothing to change.
  updateBody(changes);
  return changes;
}

/** Creates an engagement in `target` (the one its confirmation named, in VS Code). */
export async function createEngagement(
  host: ToolHost,
  target: Target,
  input: CreateInput,
  context: ToolContext = {},
): Promise<ToolResult> {
  const body = createBody({ name: input.name, type: input.type, description: input.description });
  let outcome: Awaited<ReturnType<typeof target.api.engagements.create>>;
  try {
    outcome = await target.api.engagements.create(body, { signal: context.signal });
  } catch (error) {
    // Said for the environment it was sent to, which need not be the active one.
    host.logFailure(Tools.createEngagement, error);
    return errorResult(error, failedIn(host, target.env.label), heading(target));
  }
  if (isAccepted(outcome)) {
    host.accepted(target, outcome);
    return dataResult(
      { ...whereFrom(target), result: 'accepted', sent: body },
      heading(target),
      l10n.t('The service accepted the new engagement for processing; it does not show it yet.'),
      dataBlock(body),
    );
  }
  host.written(target, outcome.engagement, true);
  const link = host.link(target, outcome.engagement.id);
  const engagement = { ...withUnknownFields(outcome.engagement), ...(link ? { link } : {}) };
  return dataResult(
    { ...whereFrom(target), result: 'created', engagement },
    heading(target),
    l10n.t('Created the engagement.'),
    dataBlock(engagement),
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
  options: { versions?: ReadonlyMap<string, string>; versionsRequired?: boolean; signal?: AbortSignal } = {},
): Promise<ToolResult> {
  const list = ids(input);
  const changes = wanted(input, list.length);
  const shown = new Map([...basedOn(input), ...(options.versions ?? [])]);
  const missing = list.filter((id) => !shown.has(id));
  if (options.versionsRequired && missing.length)
    throw new ToolRefusal(
      l10n.t(
        'Nothing was sent: give in “basedOn” the updatedAt each engagement was read with (read it with {0}), so that a change made since is not written over. Missing for: {1}.',
        Tools.getEngagement,
        missing.slice(0, 10).join(', '),
      ),
    );
  const outcomes = await mapLimited(list, LIMITS.perEngagement, (id) =>
    updateOne(host, target, id, changes, shown, options.signal),
  );
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
  signal?: AbortSignal,
): Promise<Outcome> {
  const fresh = await target.api.engagements.get(id, { signal });
  const confirmed = shown.get(id);
  if (confirmed !== undefined && confirmed !== fresh.updatedAt)
    return { id, result: 'changedMeanwhile', fields: fresh.updatedAt ?? unknownValue() };
  const changes = changedFields(fresh, wantedChanges);
  if (!hasChanges(changes)) return { id, result: 'unchanged' };
  let engagement: Engagement;
  try {
    const outcome = await target.api.engagements.update(id, changes, { expectedUpdatedAt: fresh.updatedAt, signal });
    if (isAccepted(outcome)) {
      host.accepted(target, outcome);
      return { id, result: 'accepted' };
    }
    engagement = outcome.engagement;
  } catch (error) {
    if (!isApiError(error) || !error.writeOutcome) throw error;
    // Made, or perhaps made: look before calling it failed.
    const check = await target.api.engagements.checkUpdate(id, changes, { signal }).catch(() => undefined);
    if (!check?.applied) throw error;
    engagement = check.engagement;
  }
  host.written(target, engagement);
  return { id, result: 'changed', engagement };
}

function report(host: ToolHost, target: Target, rows: Outcome[]): ToolResult {
  const count = (kind: Outcome['result']) => rows.filter((r) => r.result === kind).length;
  const counts = {
    changed: count('changed'),
    accepted: count('accepted'),
    unchanged: count('unchanged'),
    changedMeanwhile: count('changedMeanwhile'),
    failed: count('failed'),
  };
  const summary = l10n.t(
    'Changed {0}, accepted for processing {1}, already so (nothing sent) {2}, changed by someone else since it was read or confirmed (nothing sent) {3}, failed {4}.',
    counts.changed,
    counts.accepted,
    counts.unchanged,
    counts.changedMeanwhile,
    counts.failed,
  );
  const hint = counts.changedMeanwhile
    ? l10n.t('Read the engagements changed meanwhile again and ask the user before changing them.')
    : '';
  const results = rows.map((r) => {
    const link = host.link(target, r.id);
    const linked = link ? { link } : {};
    switch (r.result) {
      case 'changed':
        return {
          id: r.id,
          result: r.result,
          name: r.engagement.name ?? unknownValue(),
          status: r.engagement.status ?? unknownValue(),
          updatedAt: r.engagement.updatedAt ?? unknownValue(),
          ...linked,
        };
      case 'failed':
        return { id: r.id, result: r.result, error: describeError(r.error, target.env.label, host.place) };
      case 'changedMeanwhile':
        return { id: r.id, result: r.result, updatedAt: r.fields, ...linked };
      default:
        return { id: r.id, result: r.result, ...linked };
    }
  });
  const answer = dataResult(
    { ...whereFrom(target), ...counts, results },
    heading(target),
    summary,
    hint,
    dataBlock(results),
  );
  // Nothing asked for was done: no engagement changed, none accepted, none already so.
  const done = counts.changed + counts.accepted + counts.unchanged;
  return done === 0 ? { ...answer, isError: true } : answer;
}
