// Billing periods (`YYYY-MM`, UTC): the arithmetic the dashboard needs. Pure.

const PERIOD = /^(\d{4})-(\d{2})$/;

export interface PeriodParts {
  year: number;
  /** 1–12 */
  month: number;
}

/** `YYYY-MM` with a month 01–12; anything else gives undefined. */
export function parsePeriod(text: string): PeriodParts | undefined {
  const match = PERIOD.exec(text);
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  return month >= 1 && month <= 12 ? { year, month } : undefined;
}

export function isPeriod(text: unknown): text is string {
  return typeof text === 'string' && parsePeriod(text) !== undefined;
}

function format(index: number): string {
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
}

function indexOf(period: string): number {
  const parts = parsePeriod(period);
  if (!parts) throw new RangeError(`Not a billing period: ${period}`);
  return parts.year * 12 + parts.month - 1;
}

/** The billing period of a moment, in UTC (the service's periods are UTC months). */
export function periodOf(time: number | Date): string {
  const date = new Date(time);
  return format(date.getUTCFullYear() * 12 + date.getUTCMonth());
}

export function currentPeriod(now: number = Date.now()): string {
  return periodOf(now);
}

/** The period `months` after (negative: before) `period`; years roll over both ways. */
export function shiftPeriod(period: string, months: number): string {
  const index = indexOf(period) + Math.trunc(months);
  if (index < 0 || index > 9999 * 12 + 11) throw new RangeError(`No billing period ${months} months from ${period}`);
  return format(index);
}

/** Negative when `a` is before `b`, 0 when equal, positive when after. */
export function comparePeriods(a: string, b: string): number {
  return indexOf(a) - indexOf(b);
}

export function isFuturePeriod(period: string, now: number = Date.now()): boolean {
  return comparePeriods(period, currentPeriod(now)) > 0;
}

export type PeriodChoice = { ok: true; period: string } | { ok: false; reason: 'invalid' | 'future' };

/** What the dashboard accepts as a period to show: a real `YYYY-MM`, not after the current one. */
export function choosePeriod(input: string, now: number = Date.now()): PeriodChoice {
  const text = input.trim();
  if (!parsePeriod(text)) return { ok: false, reason: 'invalid' };
  if (isFuturePeriod(text, now)) return { ok: false, reason: 'future' };
  return { ok: true, period: text };
}

/** `November 2026`, localised by Intl; an invalid period is returned as it came. */
export function periodLabel(period: string, locale?: string): string {
  const parts = parsePeriod(period);
  if (!parts) return period;
  try {
    return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(Date.UTC(parts.year, parts.month - 1, 1)),
    );
  } catch {
    return period;
  }
}
