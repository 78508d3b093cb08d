// Billing periods ("YYYY-MM", UTC) and the small date arithmetic the service needs.

const PERIOD = /^(\d{4})-(\d{2})$/;

/** The period a date falls in, in UTC. */
export function periodOf(date: Date): string {
  return `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Parses "YYYY-MM" with a month 01–12; anything else gives undefined. */
export function parsePeriod(text: string): { year: number; month: number } | undefined {
  const match = PERIOD.exec(text);
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  return month >= 1 && month <= 12 ? { year, month } : undefined;
}

/** The period `months` months after (negative: before) the given one. */
export function shiftPeriod(period: string, months: number): string {
  const parsed = parsePeriod(period);
  if (!parsed) throw new Error(`Not a billing period: ${period}`);
  const index = parsed.year * 12 + (parsed.month - 1) + months;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** First millisecond of the period and first millisecond of the next one (UTC epoch ms). */
export function periodBounds(period: string): { start: number; end: number } {
  const parsed = parsePeriod(period);
  if (!parsed) throw new Error(`Not a billing period: ${period}`);
  return {
    start: Date.UTC(parsed.year, parsed.month - 1, 1),
    end: Date.UTC(parsed.year, parsed.month, 1),
  };
}
