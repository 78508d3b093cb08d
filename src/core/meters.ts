// The usage meters: how full each one is, its level, and its overage. Pure.
import { formatCount, formatGb, formatPercent } from './format';

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
