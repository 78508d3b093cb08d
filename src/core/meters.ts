// The usage meters: how full each one is, its level, its overage, and where it is heading by
// the period's end (the projection). Pure.
import { formatCount, formatGb, formatPercent } from './format';
import { parsePeriod } from './period';

export type UsageMeterName = 'calls' | 'webhooks' | 'storage_gb';
export const USAGE_METERS: readonly UsageMeterName[] = ['calls', 'webhooks', 'storage_gb'];

/** From this share of the included amount a meter warns. */
const WARNING_PERCENT = 80;

export type MeterLevel = 'normal' | 'warning' | 'error';

export interface MeterInput {
  used: number;
  included: number;
  overage: number;
}

export interface MeterFigures {
  name: UsageMeterName;
  unit: 'count' | 'gb';
  used: number;
  included: number;
  /** Amount beyond the included amount (0 when within it). */
  overage: number;
  /** used / included × 100; undefined when nothing is included but something was used. */
  percent: number | undefined;
  /** How much of the bar is filled, 0–1. */
  fill: number;
  level: MeterLevel;
}

/** Storage is fractional: figures are rounded to a thousandth so float noise never shows. */
function tidy(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function meterFigures(name: UsageMeterName, meter: MeterInput): MeterFigures {
  const used = Math.max(0, tidy(meter.used));
  const included = Math.max(0, tidy(meter.included));
  const computed = tidy(used - included);
  // The service reports the overage; if it says less than the figures show, trust the figures.
  const overage = Math.max(0, tidy(meter.overage), computed);
  let percent: number | undefined;
  if (included > 0) percent = (used / included) * 100;
  else percent = used > 0 ? undefined : 0;
  const over = used > included;
  const level: MeterLevel = over ? 'error' : percent !== undefined && percent >= WARNING_PERCENT ? 'warning' : 'normal';
  const fill = included > 0 ? Math.min(1, used / included) : used > 0 ? 1 : 0;
  return { name, unit: name === 'storage_gb' ? 'gb' : 'count', used, included, overage, percent, fill, level };
}

export function formatAmount(value: number, unit: MeterFigures['unit'], locale?: string): string {
  return unit === 'gb' ? formatGb(value, locale) : formatCount(value, locale);
}

export interface MeterTexts {
  used: string;
  included: string;
  /** `82 %`; `—` when nothing is included. */
  percent: string;
  /** `+8,450` or `+0.35 GB`; undefined within the included amount. */
  overage?: string;
}

export function meterTexts(figures: MeterFigures, locale?: string): MeterTexts {
  const texts: MeterTexts = {
    used: formatAmount(figures.used, figures.unit, locale),
    included: formatAmount(figures.included, figures.unit, locale),
    percent: figures.percent === undefined ? '—' : percentText(figures.percent, locale),
  };
  if (figures.overage > 0) texts.overage = `+${formatAmount(figures.overage, figures.unit, locale)}`;
  return texts;
}

/** Whole percent, except that 99.6 % stays below 100 and 100.2 % above it (the levels must agree). */
export function roundPercent(percent: number): number {
  const rounded = Math.round(percent);
  if (rounded === 100 && percent !== 100) return percent < 100 ? 99 : 101;
  if (rounded === WARNING_PERCENT && percent < WARNING_PERCENT) return WARNING_PERCENT - 1;
  return rounded;
}

/**
 * The percentage as shown. Just past 100 % it keeps as many decimals (up to three, cut, never
 * rounded up) as it takes to read above 100: half a gigabyte over 100 GB is "100.5%", not
 * "101%", which would claim a whole percent more than was used.
 */
function percentText(percent: number, locale?: string): string {
  if (percent > 100 && percent < 101) {
    for (let digits = 1; digits <= 3; digits++) {
      const scale = 10 ** digits;
      // The nudge keeps float noise (100.5 GB of 100 is 100.49999…) from cutting a digit.
      const cut = Math.floor(percent * scale + 1e-6) / scale;
      if (cut > 100) return formatPercent(cut, locale, digits);
    }
    return formatPercent(100.001, locale, 3);
  }
  return formatPercent(roundPercent(percent), locale);
}

// Where a meter of the current billing period is heading: used so far, days elapsed and
// left, and the amount at the period's end at the current pace. An estimate of this
// extension (the service has no projection); labelled so wherever it is shown. Pure.
const DAY = 86_400_000;

type ProjectionMethod = 'linear' | 'daily';

export interface PeriodProgress {
  /** First millisecond of the period and of the next one (UTC). */
  start: number;
  end: number;
  /** Days elapsed (fractional) and left. */
  elapsedDays: number;
  daysLeft: number;
  totalDays: number;
}

export interface Projection {
  meter: UsageMeterName;
  used: number;
  included: number;
  /** The amount expected at the period's end. */
  projected: number;
  method: ProjectionMethod;
  /**
   * Set when the projection passes `included`: by how much, and the day (ISO date) it is expected
   * to; no such day once it has passed it (when it did is in the records, see `crossingDay`).
   */
  overBy?: number;
  exceedsOn?: string;
}

export function periodProgress(period: string, now: number): PeriodProgress | undefined {
  const parts = parsePeriod(period);
  if (!parts) return undefined;
  const start = Date.UTC(parts.year, parts.month - 1, 1);
  const end = Date.UTC(parts.year, parts.month, 1);
  if (now < start || now >= end) return undefined;
  const totalDays = (end - start) / DAY;
  const elapsedDays = (now - start) / DAY;
  return { start, end, elapsedDays, daysLeft: totalDays - elapsedDays, totalDays };
}

/**
 * Daily amounts read from records, when they are readable: timestamps in the period, and
 * together they account for what the meter used (within 2 %). Otherwise undefined, and the
 * projection is linear from the period's start.
 */
export function dailyPace(
  timestamps: readonly string[],
  used: number,
  progress: PeriodProgress,
  now: number,
): number | undefined {
  if (used <= 0 || timestamps.length === 0 || Math.abs(timestamps.length - used) > used * 0.02) return undefined;
  const days = Math.floor(progress.elapsedDays);
  if (days < 3) return undefined;
  // The last seven whole days (or fewer early in the month).
  const window = Math.min(7, days);
  const from = progress.start + (days - window) * DAY;
  const until = progress.start + days * DAY;
  let count = 0;
  for (const iso of timestamps) {
    const t = Date.parse(iso);
    if (Number.isNaN(t) || t < progress.start || t > now) return undefined;
    if (t >= from && t < until) count++;
  }
  return count / window;
}

/**
 * The projection of one meter. Linear: used ÷ days elapsed × days in the period. Daily: used
 * so far plus the mean of the last whole days × days left (when `perDay` is given).
 */
export function projectMeter(
  meter: UsageMeterName,
  used: number,
  included: number,
  progress: PeriodProgress,
  perDay?: number,
): Projection {
  const method: ProjectionMethod = perDay !== undefined ? 'daily' : 'linear';
  const rate = perDay ?? (progress.elapsedDays > 0 ? used / progress.elapsedDays : 0);
  const projected =
    Math.round((method === 'daily' ? used + rate * progress.daysLeft : rate * progress.totalDays) * 1000) / 1000;
  const projection: Projection = { meter, used, included, projected, method };
  if (included > 0 && projected > included) {
    projection.overBy = Math.round((projected - included) * 1000) / 1000;
    const now = progress.start + progress.elapsedDays * DAY;
    if (used < included) {
      const at = rate > 0 ? now + ((included - used) / rate) * DAY : progress.end - 1;
      projection.exceedsOn = new Date(Math.min(at, progress.end - 1)).toISOString().slice(0, 10);
    }
  }
  return projection;
}

/** The estimate of a period's meters: how far the period is, and each meter's projection. */
export interface PeriodProjection {
  period: string;
  elapsedDays: number;
  daysLeft: number;
  totalDays: number;
  /** `daily` when any meter could be projected from daily records, else `linear`. */
  method: ProjectionMethod;
  meters: Projection[];
}

/**
 * The projection of the current period's meters at `now`; undefined when `now` is not in the
 * period (a closed period has no estimate). `callTimestamps`: the times of the period's call
 * records, when every record of the period was read.
 */
export function projectPeriod(
  period: string,
  meters: ReadonlyArray<{ name: UsageMeterName; used: number; included: number }>,
  now: number,
  callTimestamps?: readonly string[],
): PeriodProjection | undefined {
  const progress = periodProgress(period, now);
  if (!progress) return undefined;
  const projections = meters.map((m) =>
    projectMeter(
      m.name,
      m.used,
      m.included,
      progress,
      m.name === 'calls' && callTimestamps ? dailyPace(callTimestamps, m.used, progress, now) : undefined,
    ),
  );
  return {
    period,
    elapsedDays: progress.elapsedDays,
    daysLeft: progress.daysLeft,
    totalDays: progress.totalDays,
    method: projections.some((p) => p.method === 'daily') ? 'daily' : 'linear',
    meters: projections,
  };
}
