// Usage history: the last billing periods of each meter, the change against the period
// before, and which periods count as "no data" (before the account existed). Pure.
import { type MeterInput, type UsageMeterName, USAGE_METERS } from './meters';
import { comparePeriods, shiftPeriod } from './period';

/** One key's calls in one period (by-key's figures). */
export interface KeyCalls {
  keyId: string;
  name: string;
  calls: number;
}

/** How many billing periods the trend shows, the current one included. */
const TREND_PERIODS = 12;

/** One meter in one period: what was used against what was included. */
interface TrendValue {
  used: number;
  included: number;
}

/**
 * One period of the trend: its figures (zero usage is data), "no data" (a period the service
 * does not know, 404 or an empty answer: before the account existed), or a read that failed.
 */
export type TrendPoint =
  | {
      period: string;
      status: 'data';
      tier: string;
      meters: Record<UsageMeterName, TrendValue>;
      /** Each key's calls in the period, when its keys were read too (the per-key trends). */
      keys?: KeyCalls[];
    }
  | { period: string; status: 'noData' }
  | { period: string; status: 'error'; message: string };

/** The `count` periods ending with `current`, oldest first. */
export function trendPeriods(current: string, count = TREND_PERIODS): string[] {
  return Array.from({ length: count }, (_, i) => shiftPeriod(current, i - count + 1));
}

/** A period is closed (its figures can no longer change) once the current one is later. */
export function isClosedPeriod(period: string, current: string): boolean {
  return comparePeriods(period, current) < 0;
}

const clean = (value: number): number => (Number.isFinite(value) ? Math.max(0, Math.round(value * 1000) / 1000) : 0);

/** A summary's meters as a trend point; a period that used nothing is data too (zero), never "no data". */
export function trendPoint(period: string, tier: string, usage: Record<UsageMeterName, MeterInput>): TrendPoint {
  const meters = Object.fromEntries(
    USAGE_METERS.map((name) => [name, { used: clean(usage[name].used), included: clean(usage[name].included) }]),
  ) as Record<UsageMeterName, TrendValue>;
  return { period, status: 'data', tier, meters };
}

export interface MeterChange {
  /** The earlier period compared against. */
  from: string;
  /** Used now minus used then. */
  delta: number;
  /** delta / then × 100; undefined when the earlier period used nothing. */
  percent: number | undefined;
}

/** How a meter moved from the period before `period`; undefined when either has no data. */
export function meterChange(
  points: readonly TrendPoint[],
  period: string,
  meter: UsageMeterName,
): MeterChange | undefined {
  const index = points.findIndex((p) => p.period === period);
  if (index <= 0) return undefined;
  const now = points[index];
  const before = points[index - 1];
  if (now.status !== 'data' || before.status !== 'data') return undefined;
  const a = before.meters[meter].used;
  const b = now.meters[meter].used;
  const delta = Math.round((b - a) * 1000) / 1000;
  return { from: before.period, delta, percent: a > 0 ? (delta / a) * 100 : undefined };
}

/** The highest value a meter's chart must show (used or included), at least 1. */
export function chartMax(points: readonly TrendPoint[], meter: UsageMeterName): number {
  let max = 0;
  for (const p of points) if (p.status === 'data') max = Math.max(max, p.meters[meter].used, p.meters[meter].included);
  return max > 0 ? max : 1;
}
