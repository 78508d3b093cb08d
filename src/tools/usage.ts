// The usage tool: the summary of a billing period (with the projection, an estimate, for the
// current one, and the 12-period trend), usage by key (key ids masked as the dashboard does),
// the usage records of a period filtered by key, status class and endpoint, at most 50, or where
// a period's calls went (its records grouped by a column or by day, the days far above the usual one).
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorText';
import type { UsageByKey, UsageRecord } from '../api/types';
import type { Daily } from '../core/breakdown';
import { BREAKDOWN_CAP, breakdown, dailyBars, numericColumns } from '../core/breakdown';
import { USAGE_METERS, projectPeriod } from '../core/meters';
import { currentPeriod, isPeriod } from '../core/period';
import type { RecordFilter, StatusClass } from '../core/records';
import {
  STATUS_CLASSES,
  deriveColumns,
  filterRecords,
  groupValue,
  keyColumn,
  maskKeyId,
  maskKeyIds,
} from '../core/records';
import { l10n } from '../core/l10n';
import { MAX_RECORDS } from './definitions';
import { type Target, type ToolHost, ToolRefusal } from './host';
import { dataBlock, heading, textResult, type ToolResult } from './result';

export interface UsageInput {
  environment?: string;
  view?: 'summary' | 'byKey' | 'records' | 'breakdown';
  /** breakdown: the column to group by (default the key's), or "day". */
  by?: string;
  /** breakdown: a numeric column to sum per group. */
  sum?: string;
  billingPeriod?: string;
  key?: string;
  statusClass?: string;
  endpoint?: string;
  limit?: number;
}

function period(input: UsageInput): string {
  const value = input.billingPeriod?.trim();
  if (!value) return currentPeriod();
  if (!isPeriod(value)) throw new ToolRefusal(l10n.t('A billing period is written YYYY-MM, e.g. 2026-03.'));
  return value;
}

export async function usage(host: ToolHost, input: UsageInput): Promise<ToolResult> {
  const target = await host.resolve(input.environment);
  switch (input.view ?? 'summary') {
    case 'summary':
      return summary(host, target, period(input));
    case 'byKey':
      return byKey(target, period(input));
    case 'records':
      return records(target, period(input), input);
    case 'breakdown':
      return explain(target, period(input), input);
    default:
      throw new ToolRefusal(l10n.t('“view” is one of summary, byKey, records, breakdown.'));
  }
}

async function summary(host: ToolHost, target: Target, billingPeriod: string) {
  const current = currentPeriod();
  const [read, trend] = await Promise.all([
    target.api.usage.summary(billingPeriod),
    host.readTrend(target, current).catch((error: unknown) => ({ error })),
  ]);
  const meters = USAGE_METERS.map((name) => ({ name, ...read.usage[name] }));
  const projection = billingPeriod === current ? projectPeriod(billingPeriod, meters, Date.now()) : undefined;
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
        ? describeError(trend.error, target.env.label)
        : trend.data.points.map((p) =>
            p.status === 'data'
              ? { period: p.period, ...Object.fromEntries(USAGE_METERS.map((m) => [m, p.meters[m].used])) }
              : { period: p.period, [p.status]: p.status === 'error' ? p.message : true },
          ),
  };
  const over = projection?.meters.filter((p) => p.overBy !== undefined).map((p) => p.meter) ?? [];
  const words =
    billingPeriod !== current
      ? l10n.t('Usage of {0} (a closed period: no estimate).', billingPeriod)
      : over.length
        ? l10n.t(
            'Usage of {0}. At the current pace (an estimate) these meters pass what is included: {1}.',
            billingPeriod,
            over.join(', '),
          )
        : l10n.t('Usage of {0}. At the current pace (an estimate) no meter passes what is included.', billingPeriod);
  return textResult(heading(target), words, dataBlock(data));
}

async function byKey(target: Target, billingPeriod: string) {
  const read = await target.api.usage.byKey(billingPeriod);
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
  return textResult(
    heading(target),
    l10n.t('Calls by API key in {0}: {1} keys, {2} calls (key ids shown masked).', billingPeriod, keys.length, total),
    dataBlock(shown),
  );
}

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');

async function records(target: Target, billingPeriod: string, input: UsageInput) {
  const status = input.statusClass?.trim().toLowerCase();
  if (status && !STATUS_CLASSES.includes(status as StatusClass))
    throw new ToolRefusal(l10n.t('“statusClass” is one of {0}.', STATUS_CLASSES.join(', ')));
  const limit = Math.min(MAX_RECORDS, Math.max(1, Math.floor(Number(input.limit ?? 20)) || 20));
  const filter: RecordFilter = {};
  if (status) filter.status = status as StatusClass;
  if (input.key?.trim()) filter.keyId = await keyIdOf(target, billingPeriod, input.key.trim());
  let all: UsageRecord[];
  try {
    all = (await target.api.usage.detailsAll(billingPeriod)).items;
  } catch (error) {
    if (isApiError(error) && error.kind === 'notFound')
      return textResult(heading(target), l10n.t('The service has no usage records for {0}.', billingPeriod));
    throw error;
  }
  const columns = deriveColumns(all);
  if (input.endpoint?.trim()) {
    filter.column = columns.find((c) => ['endpoint', 'path', 'route'].includes(normalise(c)));
    if (!filter.column) throw new ToolRefusal(l10n.t('These usage records name no endpoint.'));
    filter.text = input.endpoint.trim();
  }
  const found = filterRecords(all, columns, filter);
  const keyCol = keyColumn(columns);
  const shown = found
    .slice(0, limit)
    .map((r) => (keyCol && typeof r[keyCol] === 'string' ? { ...r, [keyCol]: maskKeyId(r[keyCol]) } : r));
  const hint =
    found.length > shown.length
      ? l10n.t(
          'More matched than are listed: narrow by key, status class or endpoint (at most {0} are listed).',
          MAX_RECORDS,
        )
      : '';
  return textResult(
    heading(target),
    l10n.t(
      '{0} of the {1} usage records of {2} matched; listing {3}.',
      found.length,
      all.length,
      billingPeriod,
      shown.length,
    ),
    hint,
    shown.length ? dataBlock(shown) : '',
  );
}

/** The key a filter names: by its name or its id, as usage by key lists it. */
async function keyIdOf(target: Target, billingPeriod: string, named: string): Promise<string> {
  const { keys } = await target.api.usage.byKey(billingPeriod);
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
async function explain(target: Target, billingPeriod: string, input: UsageInput) {
  let read;
  try {
    read = await target.api.usage.detailsAll(billingPeriod, { limit: BREAKDOWN_CAP });
  } catch (error) {
    if (isApiError(error) && error.kind === 'notFound')
      return textResult(heading(target), l10n.t('The service has no usage records for {0}.', billingPeriod));
    throw error;
  }
  const all = read.items;
  const columns = deriveColumns(all);
  const { byDay, by, sum } = breakdownChoice(all, columns, input);
  const keyCol = keyColumn(columns);
  const { keys } = await target.api.usage.byKey(billingPeriod).catch(() => ({ keys: [] as UsageByKey['keys'] }));
  const shownKey = keyNamer(keys, keyCol ? all.map((r) => groupValue(r[keyCol])) : []);
  const [year, month] = billingPeriod.split('-').map(Number);
  const bounds = { start: Date.UTC(year, month - 1, 1), end: Date.UTC(year, month, 1) };
  const daily = dailyBars(all, columns, bounds, Math.min(Date.now(), bounds.end));
  const marked = markedDays(daily, shownKey);
  const missing = read.stop || all.length >= BREAKDOWN_CAP ? Math.max(0, read.totalCount - all.length) : 0;
  const data = {
    billingPeriod,
    records: all.length,
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
  return textResult(heading(target), words.filter(Boolean).join(' '), dataBlock(data));
}
