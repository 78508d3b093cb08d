// Why a period used what it used, from its records read whole: the records grouped by any
// column (count, the sum of a numeric column, each group's share, the top groups and the rest
// as "other"), a bar per day (UTC, as billing periods are), the days far above the usual day
// marked with their largest group named, and the day a meter passed its included amount.
// Pure.
import type { OpenRecord } from './records';
import { groupValue, keyColumn, timeColumn, utcDay } from './records';

/** Groups shown by name; the rest are one "other" group. */
const TOP_GROUPS = 8;
/** A day is marked when it has at least this many times the usual day's records. */
const SPIKE_FACTOR = 3;
/** Records read for a breakdown at most (500 requests of 100): a period past it is broken down as far as read, and says so. */
export const BREAKDOWN_CAP = 50_000;

const DAY = 86_400_000;

export interface Group {
  /** The value as the records hold it (compact text); "" for an empty cell. */
  value: string;
  count: number;
  /** The sum of the chosen numeric column over the group (absent without one). */
  sum?: number;
  /** Its share of the period: of the sum when a column is summed, else of the count; 0–1. */
  share: number;
}

export interface Breakdown {
  column: string;
  sumColumn?: string;
  count: number;
  sum?: number;
  /** The top groups by share (then by value), largest first. */
  groups: Group[];
  /** The rest together, when there are more groups than shown; `groups`: how many. */
  other?: Group & { groups: number };
}

const asNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Columns whose values are numbers wherever they are set (at least one record has one). */
export function numericColumns(records: readonly OpenRecord[], columns: readonly string[]): string[] {
  return columns.filter((column) => {
    let seen = false;
    for (const record of records) {
      const value = record[column];
      if (value === undefined || value === null) continue;
      if (asNumber(value) === undefined) return false;
      seen = true;
    }
    return seen;
  });
}

/** The records grouped by `column`: each group's count, the sum of `sumColumn`, its share; the top `top`, then "other". */
export function breakdown(
  records: readonly OpenRecord[],
  column: string,
  sumColumn?: string,
  top = TOP_GROUPS,
): Breakdown {
  const groups = new Map<string, { count: number; sum: number }>();
  let sum = 0;
  for (const record of records) {
    const value = groupValue(record[column]);
    let group = groups.get(value);
    if (!group) groups.set(value, (group = { count: 0, sum: 0 }));
    group.count++;
    if (sumColumn !== undefined) {
      const n = asNumber(record[sumColumn]) ?? 0;
      group.sum += n;
      sum += n;
    }
  }
  const whole = sumColumn !== undefined ? sum : records.length;
  const measure = (g: { count: number; sum: number }) => (sumColumn !== undefined ? g.sum : g.count);
  const all: Group[] = [...groups.entries()]
    .map(([value, g]) => ({
      value,
      count: g.count,
      ...(sumColumn !== undefined ? { sum: tidy(g.sum) } : {}),
      share: whole > 0 ? measure(g) / whole : 0,
    }))
    .sort((a, b) => b.share - a.share || b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  const shown = all.length > top + 1 ? all.slice(0, top) : all;
  const rest = all.slice(shown.length);
  const result: Breakdown = {
    column,
    ...(sumColumn !== undefined ? { sumColumn, sum: tidy(sum) } : {}),
    count: records.length,
    groups: shown,
  };
  if (rest.length > 0) {
    const count = rest.reduce((n, g) => n + g.count, 0);
    const restSum = rest.reduce((n, g) => n + (g.sum ?? 0), 0);
    result.other = {
      value: '',
      count,
      ...(sumColumn !== undefined ? { sum: tidy(restSum) } : {}),
      share: rest.reduce((n, g) => n + g.share, 0),
      groups: rest.length,
    };
  }
  return result;
}

const tidy = (n: number): number => Math.round(n * 1000) / 1000;

// ---- day by day ----

/** The column naming an HTTP method (`method`, `http_method`, `httpMethod`, `verb`), if any. */
const norm = (c: string) => c.toLowerCase().replace(/[^a-z]/g, '');

function methodColumn(columns: readonly string[]): string | undefined {
  for (const wanted of ['method', 'httpmethod', 'verb']) {
    const found = columns.find((c) => norm(c) === wanted);
    if (found) return found;
  }
  return undefined;
}

/** The column naming the endpoint called (`endpoint`, `path`, `route`, `url`), if any. */
function endpointColumn(columns: readonly string[]): string | undefined {
  for (const wanted of ['endpoint', 'path', 'route', 'url', 'uri']) {
    const found = columns.find((c) => norm(c) === wanted);
    if (found) return found;
  }
  return undefined;
}

/** A marked day's largest group: the key, method and endpoint most of its records share. */
interface DayCause {
  key?: string;
  method?: string;
  endpoint?: string;
  count: number;
  /** Of the day's records, 0–1. */
  share: number;
}

export interface DayBar {
  /** YYYY-MM-DD, UTC. */
  day: string;
  count: number;
  /** count ÷ the usual day (absent when there is no usual day). */
  ratio?: number;
  marked: boolean;
  cause?: DayCause;
}

export interface Daily {
  timeZone: 'UTC';
  /** The usual day: the median of the days' record counts (days with none count as zero). */
  usual: number;
  factor: number;
  days: DayBar[];
  /** Records with no readable time in the period (not in any bar). */
  undated: number;
}

/**
 * A bar per UTC day of the period, up to `until` (the current period: today; a closed one:
 * its last day). A day is marked when it has at least `factor` × the usual day's records and
 * more than the usual day by at least 3 records (a day of 3 where the usual is 1 is noise).
 */
export function dailyBars(
  records: readonly OpenRecord[],
  columns: readonly string[],
  period: { start: number; end: number },
  until: number,
  factor = SPIKE_FACTOR,
): Daily {
  const time = timeColumn(columns);
  const last = Math.min(period.end, Math.max(period.start + 1, until));
  const days: string[] = [];
  for (let t = period.start; t < last; t += DAY) days.push(new Date(t).toISOString().slice(0, 10));
  const byDay = new Map<string, OpenRecord[]>(days.map((d) => [d, []]));
  let undated = 0;
  for (const record of records) {
    const day = time === undefined ? undefined : utcDay(record[time]);
    const list = day === undefined ? undefined : byDay.get(day);
    if (list) list.push(record);
    else undated++;
  }
  const counts = days.map((d) => byDay.get(d)?.length ?? 0);
  const usual = median(counts);
  const causeOf = dayCause(columns);
  return {
    timeZone: 'UTC',
    usual,
    factor,
    undated,
    days: days.map((day, i) => {
      const count = counts[i];
      const marked = usual > 0 && count >= factor * usual && count - usual >= 3;
      return {
        day,
        count,
        ...(usual > 0 ? { ratio: count / usual } : {}),
        marked,
        ...(marked ? { cause: causeOf(byDay.get(day) ?? []) } : {}),
      };
    }),
  };
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The largest group of a day's records by key, method and endpoint together (whichever of them the records have). */
function dayCause(columns: readonly string[]): (records: readonly OpenRecord[]) => DayCause | undefined {
  const key = keyColumn(columns);
  const method = methodColumn(columns);
  const endpoint = endpointColumn(columns);
  return (records) => {
    if (records.length === 0 || (key ?? method ?? endpoint) === undefined) return undefined;
    const groups = new Map<string, { cause: Omit<DayCause, 'count' | 'share'>; count: number }>();
    for (const record of records) {
      const cause = {
        ...(key ? { key: groupValue(record[key]) } : {}),
        ...(method ? { method: groupValue(record[method]) } : {}),
        ...(endpoint ? { endpoint: groupValue(record[endpoint]) } : {}),
      };
      const id = JSON.stringify(cause);
      const group = groups.get(id);
      if (group) group.count++;
      else groups.set(id, { cause, count: 1 });
    }
    let best: { cause: Omit<DayCause, 'count' | 'share'>; count: number } | undefined;
    for (const group of groups.values()) if (!best || group.count > best.count) best = group;
    return best && { ...best.cause, count: best.count, share: best.count / records.length };
  };
}

// ---- the day a meter passed its included amount ----

export interface Crossing {
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** True when the records account for the meter's use (one record a call, within 2 %): the day is the day of the call past the included amount; false: the day the records' daily shape, scaled to the use, passes it. */
  exact: boolean;
}

/**
 * The day a meter of `used` passed `included`, from the period's records read whole (none
 * when it did not, or when the records cannot tell: none dated, or not all of them read).
 */
export function crossingDay(daily: Daily, used: number, included: number, complete: boolean): Crossing | undefined {
  if (!complete || included <= 0 || used <= included) return undefined;
  const dated = daily.days.reduce((n, d) => n + d.count, 0);
  if (dated === 0) return undefined;
  const exact = Math.abs(dated - used) <= used * 0.02;
  const scale = exact ? 1 : used / dated;
  let running = 0;
  for (const bar of daily.days) {
    running += bar.count * scale;
    if (running > included + 1e-9) return { day: bar.day, exact };
  }
  return undefined;
}
