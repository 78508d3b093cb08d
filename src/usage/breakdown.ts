// The breakdown of a period as the dashboard shows it: the period's records read whole, grouped
// by the column chosen (by key at first), day by day, and the day the calls passed their
// included amount; key ids as the per-key table shows them (masked), with the key's name.
import type { Crossing } from '../core/breakdown';
import { BREAKDOWN_CAP, breakdown, crossingDay, dailyBars, numericColumns } from '../core/breakdown';
import { parsePeriod } from '../core/period';
import { keyColumn, maskKeyId } from '../core/records';
import type { BreakdownChoice, BreakdownData } from './protocol';
import type { KeysByMask, ScanResult } from './sections';

export interface MadeBreakdown {
  data: BreakdownData;
  /** The masked ids of the key groups → the key, so a group chosen filters by its key. */
  groupKeys: KeysByMask;
}

/** The first column to group by: the key's when the records have one, else the first that is not an id. */
function firstColumn(columns: readonly string[]): string {
  return keyColumn(columns) ?? columns.find((c) => c.toLowerCase() !== 'id') ?? columns[0] ?? '';
}

export function breakdownOf(
  scan: ScanResult,
  choice: BreakdownChoice | undefined,
  keysByMask: KeysByMask,
  now: number,
  calls?: { used: number; included: number },
): MadeBreakdown {
  const { columns, records } = scan;
  const numeric = numericColumns(records, columns);
  const column = choice && columns.includes(choice.column) ? choice.column : firstColumn(columns);
  const sumColumn =
    choice?.sumColumn !== undefined && numeric.includes(choice.sumColumn) ? choice.sumColumn : undefined;
  const made = breakdown(records, column, sumColumn);
  const keyCol = keyColumn(columns);
  const maskOf = new Map([...keysByMask].map(([mask, key]) => [key.keyId, mask]));
  const nameOf = new Map([...keysByMask.values()].map((key) => [key.keyId, key.name]));
  const shownKey = (keyId: string) => maskOf.get(keyId) ?? maskKeyId(keyId);
  const labels: Record<string, string> = {};
  const groupKeys: KeysByMask = new Map();
  if (column === keyCol) {
    made.groups = made.groups.map((group) => {
      const mask = shownKey(group.value);
      const name = nameOf.get(group.value);
      if (name !== undefined) labels[mask] = name;
      groupKeys.set(mask, { keyId: group.value, name: name ?? mask });
      return { ...group, value: mask };
    });
  }
  const parts = parsePeriod(scan.period);
  const start = parts ? Date.UTC(parts.year, parts.month - 1, 1) : 0;
  const end = parts ? Date.UTC(parts.year, parts.month, 1) : 0;
  const daily = dailyBars(records, columns, { start, end }, now);
  for (const day of daily.days)
    if (day.cause?.key !== undefined) day.cause.key = nameOf.get(day.cause.key) ?? shownKey(day.cause.key);
  const complete = scan.missing === 0 && !scan.capped;
  const crossing: Crossing | undefined = calls ? crossingDay(daily, calls.used, calls.included, complete) : undefined;
  return {
    data: {
      period: scan.period,
      columns,
      numeric,
      breakdown: made,
      labels,
      daily,
      read: records.length,
      missing: scan.missing,
      cap: BREAKDOWN_CAP,
      capped: scan.capped,
      ...(crossing ? { crossing } : {}),
    },
    groupKeys,
  };
}
