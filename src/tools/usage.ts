// The usage tool: the summary of a billing period (with the projection, an estimate, for the
// current one, and the 12-period trend), usage by key (key ids masked as the dashboard does),
// the usage records of a period filtered by key, status class and endpoint, in pages of at most
// 50 (a cursor lists the next), from the period's records read once while fresh; or where a
// period's calls went (its records grouped by a column or by day, the days far above the usual one).
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorText';
import type { UsageByKey, UsageRecord } from '../api/types';
import type { Daily } from '../core/breakdown';
import { BREAKDOWN_CAP, breakdown, dailyBars, numericColumns } from '../core/breakdown';
import { USAGE_METERS, projectPeriod } from '../core/meters';
import { currentPeriod, isPeriod } from '../core/period';
import type { RecordFilter } from '../core/records';
import { deriveColumns, filterRecords, groupValue, keyColumn, maskKeyId, maskKeyIds } from '../core/records';
import { l10n } from '../core/l10n';
import { pageData, pageOf, pageWords, queryOf, resume } from './cursor';
import { type InputOf, MAX_RECORDS, type Tools } from './definitions';
import { type RecordSet, type Target, type ToolContext, type ToolHost, ToolRefusal } from './host';
import { dataBlock, dataResult, heading, type ToolResult, whereFrom } from './result';

type UsageInput = InputOf<typeof Tools.usage>;

/** The inputs a list of records depends on: a cursor lists for these. */
const RECORDS_QUERY = [
  'environment',
  'view',
  'billingPeriod',
  'key',
  'statusClass',
  'endpoint',
] as const satisfies ReadonlyArray<keyof UsageInput>;

function period(input: UsageInput): string {
  const value = input.billingPeriod?.trim();
  if (!value) return currentPeriod();
  if (!isPeriod(value)) throw new ToolRefusal(l10n.t('A billing period is written YYYY-MM, e.g. 2026-03.'));
  return value;
}

/** The period against the current one (YYYY-MM compares as text). */
function when(billingPeriod: string, current: string): 'current' | 'past' | 'future' {
  return billingPeriod === current ? 'current' : billingPeriod < current ? 'past' : 'future';
}

export async function usage(host: ToolHost, given: UsageInput, context: ToolContext = {}): Promise<ToolResult> {
  const { input, offset, readAt } = resume(given, RECORDS_QUERY);
  const view = input.view ?? 'summary';
  if (view !== 'records' && given.cursor !== undefined)
    throw new ToolRefusal(l10n.t('Only the records are listed in pages; “cursor” goes with view “records”.'));
  const target = await host.resolve(input.environment);
  switch (view) {
    case 'summary':
      return summary(host, target, period(input), context);
    case 'byKey':
      return byKey(target, period(input), context);
    case 'records':
      return records(host, target, period(input), input, { offset, listedFrom: readAt }, context);
    case 'breakdown':
      return explain(host, target, period(input), input, context);
  }
}

async function summary(host: ToolHost, target: Target, billingPeriod: string, context: ToolContext) {
  const current = currentPeriod();
  const [read, trend] = await Promise.all([
    target.api.usage.summary(billingPeriod, { signal: context.signal }),
    host.readTrend(target, current, context.signal).catch((error: unknown) => ({ error })),
  ]);
  const meters = USAGE_METERS.map((name) => ({ name, ...read.usage[name] }));
  const periodIs = when(billingPeriod, current);
  const projection = periodIs === 'current' ? projectPeriod(billingPeriod, meters, Date.now()) : undefined;
  const data = {
    billingPeriod: read.billingPeriod,
    tier: read.tier,
    meters: Object.fromEntries(meters.map((m) => [m.name, { used: m.used, included: m.included, overage: m.overage }])),
    estimate: projection && {
      note: 'estimate by this extension at the current pace, not a figure of the service',
      daysLeft: Math.round(projection.daysLeft * 10) / 10,
      meters: Object.fromEntries(
        projection.meters.map((p) => [
          p.meter,
          { projected: Math.round(p.projected * 100) / 100, overBy: p.overBy, exceedsOn: p.exceedsOn },
        ]),
      ),
    },
    trend:
      'error' in trend
        ? describeError(trend.error, target.env.label, host.place)
        : trend.data.points.map((p) =>
            p.status === 'data'
              ? { period: p.period, ...Object.fromEntries(USAGE_METERS.map((m) => [m, p.meters[m].used])) }
              : { period: p.period, [p.status]: p.status === 'error' ? p.message : true },
          ),
  };
  const over = projection?.meters.filter((p) => p.overBy !== undefined).map((p) => p.meter) ?? [];
  const words =
    periodIs === 'past'
      ? l10n.t('Usage of {0} (a closed period: no estimate).', billingPeriod)
      : periodIs === 'future'
        ? l10n.t('Usage of {0} (a period that has not begun: no estimate).', billingPeriod)
        : over.length
          ? l10n.t(
              'Usage of {0}. At the current pace (an estimate) these meters pass what is included: {1}.',
              billingPeriod,
              over.join(', '),
            )
          : l10n.t('Usage of {0}. At the current pace (an estimate) no meter passes what is included.', billingPeriod);
  return dataResult(
    { ...whereFrom(target), view: 'summary', period: periodIs, ...data },
    heading(target),
    words,
    dataBlock(data),
  );
}

async function byKey(target: Target, billingPeriod: string, context: ToolContext) {
  const read = await target.api.usage.byKey(billingPeriod, { signal: context.signal });
  const keys = [...read.keys].sort((a, b) => b.calls - a.calls);
  const masks = maskKeyIds(keys.map((k) => k.keyId));
  const total = keys.reduce((sum, k) => sum + Math.max(0, k.calls), 0);
  const shown = keys.slice(0, MAX_RECORDS).map((k, i) => ({
    name: k.name,
    keyId: masks[i],
    calls: k.calls,
    share: total ? Math.round((Math.max(0, k.calls) / total) * 1000) / 10 : 0,
    lastUsedAt: k.lastUsedAt,
  }));
  return dataResult(
    { ...whereFrom(target), view: 'byKey', billingPeriod, keyCount: keys.length, calls: total, keys: shown },
    heading(target),
    l10n.t('Calls by API key in {0}: {1} keys, {2} calls (key ids shown masked).', billingPeriod, keys.length, total),
    dataBlock(shown),
  );
}

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');

async function records(
  host: ToolHost,
  target: Target,
  billingPeriod: string,
  input: UsageInput,
  paging: { offset: number; listedFrom?: number },
  context: ToolContext,
) {
  const filter: RecordFilter = {};
  if (input.statusClass) filter.status = input.statusClass;
  if (input.key?.trim()) filter.keyId = await keyIdOf(target, billingPeriod, input.key.trim(), context);
  const read = await recordsOf(host, target, billingPeriod, context);
  const { items: all, readAt } = read ?? { items: [], readAt: Date.now() };
  const columns = deriveColumns(all);
  if (input.endpoint?.trim()) {
    filter.column = columns.find((c) => ['endpoint', 'path', 'route'].includes(normalise(c)));
    if (!filter.column) throw new ToolRefusal(l10n.t('These usage records name no endpoint.'));
    filter.text = input.endpoint.trim();
  }
  const found = filterRecords([...all], columns, filter);
  const keyCol = keyColumn(columns);
  const query = queryOf({ ...input, view: 'records' }, RECORDS_QUERY);
  const page = pageOf(found, {
    offset: paging.offset,
    limit: input.limit ?? 20,
    query,
    readAt,
    listedFrom: paging.listedFrom,
  });
  const shown = page.items.map((r) =>
    keyCol && typeof r[keyCol] === 'string' ? { ...r, [keyCol]: maskKeyId(r[keyCol]) } : r,
  );
  const notRead = read?.notRead ?? 0;
  return dataResult(
    {
      ...whereFrom(target),
      view: 'records',
      billingPeriod,
      ...pageData(page),
      total: all.length + notRead,
      ...(notRead > 0 ? { notRead, cap: BREAKDOWN_CAP } : {}),
      records: shown,
    },
    heading(target),
    ...recordsWords(billingPeriod, read, found.length, { from: page.offset + 1, to: page.offset + shown.length }),
    ...pageWords(page),
    shown.length ? dataBlock(shown) : '',
  );
}

/** What a page of records says: how many of the period's matched, which are listed, and the cap when reached. */
function recordsWords(
  billingPeriod: string,
  read: RecordSet | undefined,
  found: number,
  listing: { from: number; to: number },
): string[] {
  if (!read) return [l10n.t('The service has no usage records for {0}.', billingPeriod)];
  const all = read.items.length;
  return [
    found === 0
      ? l10n.t('None of the {0} usage records of {1} matched.', all, billingPeriod)
      : l10n.t(
          '{0} of the {1} usage records of {2} matched; listing {3} to {4}.',
          found,
          all,
          billingPeriod,
          listing.from,
          listing.to,
        ),
    read.notRead > 0
      ? l10n.t('Read up to the cap of {0} records: {1} more are not listed or filtered.', BREAKDOWN_CAP, read.notRead)
      : '',
  ];
}

/** Every record of a period, or undefined when the service has none for it (404). */
async function recordsOf(host: ToolHost, target: Target, billingPeriod: string, context: ToolContext) {
  try {
    return await host.records(target, billingPeriod, context);
  } catch (error) {
    if (isApiError(error) && error.kind === 'notFound') return undefined;
    throw error;
  }
}

/** The key a filter names: by its name or its id, as usage by key lists it. */
async function keyIdOf(target: Target, billingPeriod: string, named: string, context: ToolContext): Promise<string> {
  const { keys } = await target.api.usage.byKey(billingPeriod, { signal: context.signal });
  const masks = maskKeyIds(keys.map((k) => k.keyId));
  const index = keys.findIndex(
    (k, i) => k.keyId === named || masks[i] === named || k.name.toLowerCase() === named.toLowerCase(),
  );
  if (index < 0) throw new ToolRefusal(l10n.t('No API key “{0}” used the service in {1}.', named, billingPeriod));
  return keys[index].keyId;
}

/** Key ids as the dashboard shows them (masked), with the key's name where usage by key names it. */
function keyNamer(keys: UsageByKey['keys'], ids: readonly string[]): (id: string) => string {
  const all = [...new Set([...keys.map((k) => k.keyId), ...ids])];
  const masked = maskKeyIds(all);
  const masks = new Map(all.map((id, i) => [id, masked[i]]));
  const names = new Map(keys.map((k) => [k.keyId, k.name]));
  return (id) => (names.has(id) ? `${names.get(id)} (${masks.get(id)})` : (masks.get(id) ?? id));
}

/** The top groups of a column with their count, sum and share (%), then the rest as one. */
function groupRows(all: readonly UsageRecord[], by: string, sum: string | undefined, shown: (v: string) => string) {
  const made = breakdown(all, by, sum);
  const row = (value: string, g: { count: number; sum?: number; share: number }) => ({
    value,
    records: g.count,
    ...(sum !== undefined ? { [sum]: g.sum } : {}),
    share: Math.round(g.share * 1000) / 10,
  });
  const rows = made.groups.map((g) => row(shown(g.value), g));
  if (made.other) rows.push(row(l10n.t('other ({0} groups)', made.other.groups), made.other));
  return rows;
}

/** The days far above the usual day, each with its largest group (key, method, endpoint) and its share of the day. */
function markedDays(daily: Daily, shownKey: (id: string) => string) {
  return daily.days
    .filter((d) => d.marked)
    .slice(0, MAX_RECORDS)
    .map((d) => ({
      day: d.day,
      records: d.count,
      timesTheUsualDay: Math.round((d.ratio ?? 0) * 10) / 10,
      largestGroup: d.cause && {
        ...(d.cause.key !== undefined ? { key: shownKey(d.cause.key) } : {}),
        ...(d.cause.method !== undefined ? { method: d.cause.method } : {}),
        ...(d.cause.endpoint !== undefined ? { endpoint: d.cause.endpoint } : {}),
        shareOfTheDay: Math.round(d.cause.share * 1000) / 10,
      },
    }));
}

/** The column and the sum a breakdown asks for, checked against the records' columns. */
function breakdownChoice(all: readonly UsageRecord[], columns: string[], input: UsageInput) {
  const byDay = input.by?.trim().toLowerCase() === 'day';
  const by = byDay ? undefined : input.by?.trim() || keyColumn(columns) || columns.find((c) => c !== 'id');
  if (by !== undefined && !columns.includes(by))
    throw new ToolRefusal(l10n.t('The usage records have no column “{0}”; they have: {1}.', by, columns.join(', ')));
  const sum = input.sum?.trim() || undefined;
  const numeric = numericColumns(all, columns);
  if (sum !== undefined && !numeric.includes(sum))
    throw new ToolRefusal(l10n.t('“sum” names a numeric column of the records: {0}.', numeric.join(', ')));
  return { byDay, by, sum };
}

/**
 * Where a period's calls went: its records read whole (at most the cap, said when reached),
 * grouped by a column (the key's at first; any column the records have) with a count, a sum and
 * each share, the top groups then the rest; with `by: "day"`, a count per UTC day; and always
 * the days far above the usual (median) day with their largest group. Key ids masked.
 */
async function explain(host: ToolHost, target: Target, billingPeriod: string, input: UsageInput, context: ToolContext) {
  const read = await recordsOf(host, target, billingPeriod, context);
  if (!read)
    return dataResult(
      { ...whereFrom(target), view: 'breakdown', billingPeriod, recordsRead: 0 },
      heading(target),
      l10n.t('The service has no usage records for {0}.', billingPeriod),
    );
  const all = read.items;
  const columns = deriveColumns(all);
  const { byDay, by, sum } = breakdownChoice(all, columns, input);
  const keyCol = keyColumn(columns);
  const { keys } = await target.api.usage
    .byKey(billingPeriod, { signal: context.signal })
    .catch(() => ({ keys: [] as UsageByKey['keys'] }));
  const shownKey = keyNamer(keys, keyCol ? all.map((r) => groupValue(r[keyCol])) : []);
  const [year, month] = billingPeriod.split('-').map(Number);
  const bounds = { start: Date.UTC(year, month - 1, 1), end: Date.UTC(year, month, 1) };
  const daily = dailyBars(all, columns, bounds, Math.min(Date.now(), bounds.end));
  const marked = markedDays(daily, shownKey);
  const missing = read.notRead;
  const data = {
    billingPeriod,
    recordsRead: all.length,
    ...(missing > 0 ? { notRead: missing, cap: BREAKDOWN_CAP } : {}),
    ...(by !== undefined
      ? {
          groupedBy: by,
          ...(sum !== undefined ? { summed: sum } : {}),
          groups: groupRows(all, by, sum, (v) => (by === keyCol ? shownKey(v) : v)),
        }
      : {}),
    ...(byDay ? { days: daily.days.map((d) => ({ day: d.day, records: d.count })) } : {}),
    timeZone: daily.timeZone,
    usualDay: { records: daily.usual, definition: 'the median day of the period' },
    markedDays: { rule: `at least ${daily.factor}× the usual day`, days: marked },
  };
  const words = [
    l10n.t('Where the {0} usage records of {1} went (days in UTC).', all.length, billingPeriod),
    marked.length
      ? l10n.t('{0} days far above the usual day ({1} records, the median).', marked.length, daily.usual)
      : l10n.t('No day far above the usual day ({0} records, the median).', daily.usual),
    missing > 0 ? l10n.t('Read up to the cap of {0} records: {1} more are not counted.', BREAKDOWN_CAP, missing) : '',
  ];
  return dataResult(
    { ...whereFrom(target), view: 'breakdown', ...data },
    heading(target),
    words.filter(Boolean).join(' '),
    dataBlock(data),
  );
}
