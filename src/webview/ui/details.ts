// The detail records: a paged table whose columns come from the records, page size up to
// 100, and export of the whole period to CSV or JSON.
import { formatCount } from '../../core/format';
import { compactValue, fullValue } from '../../core/records';
import { DETAILS_PAGE_SIZES, type DashboardState, type DetailsData } from '../protocol';
import { getLocale, send, t } from './context';
import { h } from './dom';
import { errorBox, renderExport } from './states';

function toolbar(state: DashboardState, data: DetailsData | undefined): HTMLElement {
  const { page, pageSize } = state.view;
  const total = data?.totalCount ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const locale = getLocale();
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const exporting = state.export?.phase === 'running';
  const sizes = DETAILS_PAGE_SIZES.includes(pageSize) ? DETAILS_PAGE_SIZES : [...DETAILS_PAGE_SIZES, pageSize].sort((a, b) => a - b);
  const select = h(
    'select',
    { focusKey: 'page-size', attrs: { id: 'page-size' }, on: { change: (event) => send({ type: 'setPageSize', pageSize: Number((event.target as HTMLSelectElement).value) }) } },
    ...sizes.map((size) => h('option', { attrs: { value: size, selected: size === pageSize } }, String(size))),
  );
  return h(
    'div',
    { class: 'toolbar' },
    h(
      'div',
      { class: 'pager', attrs: { role: 'group', 'aria-label': t('detailsHeading') } },
      h('button', { class: 'icon-button', focusKey: 'prev-page', attrs: { type: 'button', 'aria-label': t('previousPage'), title: t('previousPage'), disabled: page <= 1 || !data }, on: { click: () => send({ type: 'setPage', page: page - 1 }) } }, '‹'),
      h('span', { attrs: { id: 'page-of' } }, t('pageOf', formatCount(page, locale), formatCount(pages, locale))),
      h('button', { class: 'icon-button', focusKey: 'next-page', attrs: { type: 'button', 'aria-label': t('nextPage'), title: t('nextPage'), disabled: page >= pages || !data }, on: { click: () => send({ type: 'setPage', page: page + 1 }) } }, '›'),
      h('span', { class: 'range', attrs: { id: 'records-range' } }, data ? t('recordsRange', formatCount(from, locale), formatCount(to, locale), formatCount(total, locale)) : ''),
    ),
    h('label', { class: 'page-size', attrs: { for: 'page-size' } }, t('pageSize')),
    select,
    h('span', { class: 'spacer' }),
    h('button', { class: 'secondary', focusKey: 'export-csv', attrs: { type: 'button', id: 'export-csv', disabled: exporting || total === 0 }, on: { click: () => send({ type: 'export', format: 'csv' }) } }, t('exportCsv')),
    h('button', { class: 'secondary', focusKey: 'export-json', attrs: { type: 'button', id: 'export-json', disabled: exporting || total === 0 }, on: { click: () => send({ type: 'export', format: 'json' }) } }, t('exportJson')),
  );
}

/** Rows the table last showed: the placeholder has as many (plus the header's place), so it does not jump. */
let lastRows: number | undefined;

function table(state: DashboardState): HTMLElement {
  const section = state.details;
  const data = section.data;
  const loading = section.status === 'loading';
  const attrs = { id: 'details-table', 'aria-busy': loading ? 'true' : undefined };
  if (!data) {
    const rows = Array.from({ length: lastRows ?? Math.min(state.view.pageSize, 25) + 1 }, () => h('tr', { class: 'skeleton-row', attrs: { 'aria-hidden': 'true' } }, ...[1, 2, 3, 4].map(() => h('td', {}, h('span', { class: 'skeleton skeleton-text' })))));
    return h('table', { class: 'details', attrs }, h('tbody', {}, ...rows));
  }
  lastRows = Math.max(1, data.records.length + 1);
  if (data.records.length === 0) {
    return h('table', { class: 'details', attrs }, h('tbody', {}, h('tr', {}, h('td', { class: 'empty' }, t('detailsEmpty')))));
  }
  return h(
    'table',
    { class: `details${loading ? ' stale' : ''}`, attrs },
    h('caption', { class: 'sr-only' }, t('detailsHeading')),
    h('thead', {}, h('tr', {}, ...data.columns.map((column) => h('th', { attrs: { scope: 'col' } }, column)))),
    h(
      'tbody',
      {},
      ...data.records.map((record) =>
        h(
          'tr',
          {},
          ...data.columns.map((column) => {
            const value = record[column];
            const text = compactValue(value);
            const full = fullValue(value);
            return h('td', { class: typeof value === 'number' ? 'numeric' : undefined, attrs: { title: full !== text ? full : undefined } }, text);
          }),
        ),
      ),
    ),
  );
}

export function renderDetails(state: DashboardState): HTMLElement[] {
  const section = state.details;
  return [
    h('h2', {}, t('detailsHeading')),
    toolbar(state, section.data),
    renderExport(state.export),
    section.status === 'error' ? errorBox(section.error) : null,
    h('div', { class: 'table-wrap' }, table(state)),
  ].filter((x): x is HTMLElement => x !== null);
}
