// Formatting of numbers, dates and durations for people. Pure: the caller passes `now` and
// the locale, so the same functions serve the tree, the tooltips and the webview.

const UNITS: Array<[limitSeconds: number, divisor: number, unit: Intl.RelativeTimeFormatUnit, short: string]> = [
  [60, 1, 'second', 's'],
  [3600, 60, 'minute', 'min'],
  [86400, 3600, 'hour', 'h'],
  [86400 * 30, 86400, 'day', 'd'],
  [86400 * 365, 86400 * 30, 'month', 'mo'],
  [Number.POSITIVE_INFINITY, 86400 * 365, 'year', 'y'],
];

// Intl formatters are costly to make (tens of µs each) and a tree of thousands of items asks
// for one per item: they are made once per locale and options, and reused.
const formatters = new Map<string, Intl.NumberFormat | Intl.RelativeTimeFormat>();

function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${locale ?? ''}|${JSON.stringify(options)}`;
  let format = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!format) formatters.set(key, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

function relativeTimeFormat(locale: string | undefined): Intl.RelativeTimeFormat {
  const key = `r|${locale ?? ''}`;
  let format = formatters.get(key) as Intl.RelativeTimeFormat | undefined;
  if (!format) formatters.set(key, (format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })));
  return format;
}

/** `3 d ago`, `in 5 min`, `just now`; an unreadable date gives `unknown`. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return 'unknown';
  const seconds = Math.round((now - time) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  for (const [limit, divisor, , short] of UNITS) {
    if (abs < limit) {
      const value = Math.max(1, Math.floor(abs / divisor));
      return seconds >= 0 ? `${value} ${short} ago` : `in ${value} ${short}`;
    }
  }
  return 'unknown';
}

/** Long form for tooltips: `3 days ago`, localised by Intl. */
export function relativeTimeLong(iso: string, now: number = Date.now(), locale?: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return 'unknown';
  const seconds = Math.round((time - now) / 1000);
  const abs = Math.abs(seconds);
  const format = relativeTimeFormat(locale);
  for (const [limit, divisor, unit] of UNITS) {
    if (abs < limit) return format.format(Math.trunc(seconds / divisor), unit);
  }
  return 'unknown';
}

/** `2026-11-19 14:03 UTC`; an unreadable date is returned as it came. */
export function absoluteTime(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  return `${new Date(time).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Counts with thousands separators: `12,345`. */
export function formatCount(value: number, locale = 'en-US'): string {
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}

/** Gigabytes with decimals: `7.35 GB`. */
export function formatGb(value: number, locale = 'en-US'): string {
  return `${numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value)} GB`;
}

/** `82 %`, `112.5 %`: whole numbers unless a fraction matters. */
export function formatPercent(value: number, locale = 'en-US'): string {
  const digits = Math.abs(value) < 10 && !Number.isInteger(value) ? 1 : 0;
  return `${numberFormat(locale, { maximumFractionDigits: digits }).format(value)} %`;
}

/** Cuts a text for a one-line place, adding an ellipsis. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, Math.max(0, max - 1)).join('')}…` : text;
}
