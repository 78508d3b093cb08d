// The records' table: columns from the records, timestamps in the user's locale and time
// zone, long values shortened (in full on hover), and a placeholder of the same height while
// a page loads.
import { compactValue, fullValue } from '../../core/records';
import type { DashboardState } from '../protocol';
import { getLocale, t } from './context';
import { h } from '../../webview/dom';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** An ISO timestamp in the user's locale and time zone; anything else undefined. */
function localTime(value: unknown): string | undefined {
  if (typeof value !== 'string' || !ISO_TIME.test(value)) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return undefined;
  const locale = getLocale() ?? '';
  let format = timeFormats.get(locale);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(locale || undefined, { dateStyle: 'medium', timeStyle: 'medium' });
    } catch {
      format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
    }
    timeFormats.set(locale, format);
  }
  return format.format(time);
}

/** One value: a timestamp as a `<time>`, anything else as compact text with the full value as its title. */
function cell(value: unknown): HTMLElement {
  const local = localTime(value);
  if (local !== undefined)
    return h(
      'td',
      { class: 'time', attrs: { title: String(value) } },
      h('time', { attrs: { datetime: String(value) } }, local),
    );
  const text = compactValue(value);
  const full = fullValue(value);
  return h(
    'td',
    {
      class: typeof value === 'number' ? 'numeric' : undefined,
      attrs: { title: full !== text ? full : undefined },
    },
    text,
  );
}

/** Rows the table last showed: the placeholder has as many (plus the header's place), so it does not jump. */
let lastRows: number | undefined;

function skeletonRows(pageSize: number): HTMLElement[] {
  return Array.from({ length: lastRows ?? Math.min(pageSize, 25) + 1 }, () =>
    h(
      'tr',
      { class: 'skeleton-row', attrs: { 'aria-hidden': 'true' } },
      ...[1, 2, 3, 4].map(() => h('td', {}, h('span', { class: 'skeleton skeleton-text' }))),
    ),
  );
}

export function recordsTable(state: DashboardState): HTMLElement {
  const section = state.details;
  const data = section.data;
  const loading = section.status === 'loading';
  const attrs = { id: 'details-table', 'aria-busy': loading ? 'true' : undefined };
  if (!data) return h('table', { class: 'details', attrs }, h('tbody', {}, ...skeletonRows(state.view.pageSize)));
  lastRows = Math.max(1, data.records.length + 1);
  if (data.records.length === 0) {
    return h(
      'table',
      { class: 'details', attrs },
      h('tbody', {}, h('tr', {}, h('td', { class: 'empty' }, data.filtered ? t('filterNoMatch') : t('detailsEmpty')))),
    );
  }
  return h(
    'table',
    { class: `details${loading ? ' stale' : ''}`, attrs },
    h('caption', { class: 'sr-only' }, t('detailsHeading')),
    h('thead', {}, h('tr', {}, ...data.columns.map((column) => h('th', { attrs: { scope: 'col' } }, column)))),
    h('tbody', {}, ...data.records.map((record) => h('tr', {}, ...data.columns.map((column) => cell(record[column]))))),
  );
}
