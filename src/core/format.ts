// Formatting of numbers, dates and durations for people, with Intl in the user's locale: the
// caller may pass a locale; otherwise the one the translation seam was given (VS Code's display
// language in the extension, the host's in the webviews; English until then). Pure otherwise:
// the caller passes `now`, so the same functions serve the tree, the tooltips and the webviews.
import { currentLocale, l10n } from './l10n';

const UNITS: Array<[limitSeconds: number, divisor: number, unit: Intl.RelativeTimeFormatUnit]> = [
  [60, 1, 'second'],
  [3600, 60, 'minute'],
  [86400, 3600, 'hour'],
  [86400 * 30, 86400, 'day'],
  [86400 * 365, 86400 * 30, 'month'],
  [Number.POSITIVE_INFINITY, 86400 * 365, 'year'],
];

// Intl formatters are costly to make (tens of µs each) and a tree of thousands of items asks
// for one per item: they are made once per locale and options, and reused.
const formatters = new Map<string, Intl.NumberFormat | Intl.RelativeTimeFormat | Intl.DateTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.RelativeTimeFormat | Intl.DateTimeFormat>(
  kind: string,
  locale: string,
  options: object,
  make: () => T,
): T {
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let format = formatters.get(key) as T | undefined;
  if (!format) formatters.set(key, (format = make()));
  return format;
}

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return cached('n', locale, options, () => new Intl.NumberFormat(locale, options));
}

function relativeTimeFormat(locale: string, options: Intl.RelativeTimeFormatOptions): Intl.RelativeTimeFormat {
  return cached('r', locale, options, () => new Intl.RelativeTimeFormat(locale, options));
}

function localeOr(locale: string | undefined): string {
  return locale || currentLocale() || 'en';
}

function relative(iso: string, now: number, locale: string | undefined, style: Intl.RelativeTimeFormatStyle): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return l10n.t('unknown');
  const seconds = Math.round((time - now) / 1000);
  const abs = Math.abs(seconds);
  // Under 45 s is "now": clocks of two machines disagree by that much.
  if (abs < 45) return relativeTimeFormat(localeOr(locale), { style, numeric: 'auto' }).format(0, 'second');
  // In words ("yesterday", "last month") when long; in figures ("1 day ago") when short.
  const format = relativeTimeFormat(localeOr(locale), { style, numeric: style === 'long' ? 'auto' : 'always' });
  const [, divisor, unit] = UNITS.find(([limit]) => abs < limit) ?? UNITS[UNITS.length - 1];
  return format.format(Math.sign(seconds) * Math.max(1, Math.floor(abs / divisor)), unit);
}

/** Briefly, for a tree item or a table cell: `3 days ago`, `1 mo. ago`, `in 5 min.`, `now` (in English); unknown without a time. */
export function relativeTime(iso: string | undefined, now: number = Date.now(), locale?: string): string {
  return relative(iso ?? '', now, locale, 'short');
}

/** In words, for tooltips and headers: `3 days ago`, `in 5 minutes`, `yesterday`. */
export function relativeTimeLong(iso: string, now: number = Date.now(), locale?: string): string {
  return relative(iso, now, locale, 'long');
}

/**
 * `Nov 19, 2026, 2:03 PM UTC` (`19. Nov. 2026, 14:03 UTC` in German); an unreadable date is
 * returned as it came; none (the service sent none readably) is unknown.
 */
export function absoluteTime(iso: string | undefined, locale?: string): string {
  if (iso === undefined) return l10n.t('unknown');
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  };
  const chosen = localeOr(locale);
  return cached('d', chosen, options, () => new Intl.DateTimeFormat(chosen, options)).format(time);
}

/** Counts with the locale's grouping: `12,345` (`12.345` in German). */
export function formatCount(value: number, locale?: string): string {
  return numberFormat(localeOr(locale), { maximumFractionDigits: 0 }).format(value);
}

/** Gigabytes with two decimals and the locale's unit: `7.35 GB` (`7,35 GB`). */
export function formatGb(value: number, locale?: string): string {
  return numberFormat(localeOr(locale), {
    style: 'unit',
    unit: 'gigabyte',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(value);
}

/** A percentage given as 0–100+: `82%`, `7.3%` (`82 %`, `7,3 %`): whole numbers unless a fraction matters. */
export function formatPercent(value: number, locale?: string, fractionDigits?: number): string {
  const digits = fractionDigits ?? (Math.abs(value) < 10 && !Number.isInteger(value) ? 1 : 0);
  return numberFormat(localeOr(locale), { style: 'percent', maximumFractionDigits: digits }).format(value / 100);
}

/** A billing period (YYYY-MM) as a short month and year ("Nov 2026"), in UTC as periods are; the period itself if it cannot be. */
export function shortPeriod(period: string, locale?: string): string {
  const [year, month] = period.split('-').map(Number);
  try {
    return new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(Date.UTC(year, month - 1, 1)),
    );
  } catch {
    return period;
  }
}

/** Cuts a text for a one-line place, adding an ellipsis. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, Math.max(0, max - 1)).join('')}…` : text;
}
