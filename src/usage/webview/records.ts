// The detail records: the filter bar, the toolbar (pager, page size up to 100, export of the
// whole period to CSV or JSON), the progress of a scan for a filter, and the paged table.
import { formatCount } from '../../core/format';
import type { RecordFilter, StatusClass } from '../../core/records';
import { STATUS_CLASSES, columnTitle, compactValue, fullValue, statusColumn } from '../../core/records';
import { h, iconButton } from '../../webview/dom';
import type { DashboardState, DetailsData } from '../protocol';
import { DETAILS_PAGE_SIZES } from '../protocol';
import { getLocale, send, t } from './context';
import { errorBox, renderExport } from './states';

function scanBar(state: DashboardState): HTMLElement | null {
  const scan = state.scan;
  if (!scan || scan.purpose !== 'filter') return null;
  return h(
    'div',
    { class: 'export-bar', attrs: { role: 'status', id: 'scan-progress' } },
    h('progress', {
      attrs: { max: Math.max(1, scan.total), value: scan.loaded, 'aria-label': t('scanning', scan.loaded, scan.total) },
    }),
    h('span', {}, t('scanning', formatCount(scan.loaded, getLocale()), formatCount(scan.total, getLocale()))),
    h(
      'button',
      {
        class: 'secondary',
        focusKey: 'cancel-scan',
        attrs: { type: 'button', id: 'cancel-scan' },
        on: { click: () => send({ type: 'cancelScan' }) },
      },
      t('cancel'),
    ),
  );
}

export function renderDetails(state: DashboardState): HTMLElement[] {
  const section = state.details;
  return [
    h('h2', {}, t('detailsHeading')),
    filterBar(state, section.data),
    toolbar(state, section.data),
    scanBar(state),
    renderExport(state.export),
    section.status === 'error' ? errorBox(section.error) : null,
    // Focusable, so a keyboard can scroll wide records sideways inside their frame.
    h(
      'div',
      { class: 'table-wrap', attrs: { tabindex: 0, role: 'region', 'aria-label': t('detailsHeading') } },
      recordsTable(state),
    ),
  ].filter((x): x is HTMLElement => x !== null);
}

// The records' filter: column, text and status class, applied to every record of the period,
// and the key chip when the records are filtered by key.
/** "Key: NAME ×": the key the records are filtered by, and the button that drops it. */
function keyChip(state: DashboardState, filter: RecordFilter): HTMLElement | null {
  if (filter.keyId === undefined) return null;
  return h(
    'span',
    { class: 'chip', attrs: { id: 'filter-key' } },
    t('filterKey', state.filterKeyName ?? filter.keyId),
    h(
      'button',
      {
        class: 'link',
        focusKey: 'clear-key',
        attrs: { type: 'button', 'aria-label': t('clearFilter') },
        on: { click: () => send({ type: 'setFilter', filter: { ...filter, keyId: undefined } }) },
      },
      '×',
    ),
  );
}

/** "Endpoint: /v1/engagements ×", "Day: Nov 17 ×": a group or day of the breakdown the records are filtered by. */
function breakdownChips(filter: RecordFilter): HTMLElement[] {
  const chips: HTMLElement[] = [];
  const chip = (id: string, text: string, without: RecordFilter) =>
    h(
      'span',
      { class: 'chip', attrs: { id } },
      text,
      h(
        'button',
        {
          class: 'link',
          focusKey: `clear-${id}`,
          attrs: { type: 'button', 'aria-label': `${t('clearFilter')}: ${text}` },
          on: { click: () => send({ type: 'setFilter', filter: without }) },
        },
        '×',
      ),
    );
  if (filter.group)
    chips.push(
      chip('filter-group', t('filterGroup', columnTitle(filter.group.column), filter.group.value), {
        ...filter,
        group: undefined,
      }),
    );
  if (filter.day) chips.push(chip('filter-day', t('filterDay', filter.day), { ...filter, day: undefined }));
  return chips;
}

function columnSelect(filter: RecordFilter, columns: readonly string[]): HTMLSelectElement {
  return h(
    'select',
    { focusKey: 'filter-column', attrs: { id: 'filter-column', 'aria-label': t('filterColumn') } },
    h('option', { attrs: { value: '', selected: filter.column === undefined } }, t('filterAnyColumn')),
    ...columns.map((c) =>
      h('option', { attrs: { value: c, selected: filter.column === c, title: c } }, columnTitle(c)),
    ),
  );
}

function textInput(filter: RecordFilter): HTMLInputElement {
  return h('input', {
    focusKey: 'filter-text',
    attrs: {
      id: 'filter-text',
      type: 'search',
      value: filter.text ?? '',
      placeholder: t('filterText'),
      'aria-label': t('filterText'),
      maxlength: 200,
    },
  });
}

/** Status classes; offered only when the records have a status column (or one is chosen already). */
function statusSelect(filter: RecordFilter, columns: readonly string[]): HTMLSelectElement {
  const hasStatus = statusColumn(columns) !== undefined;
  return h(
    'select',
    {
      focusKey: 'filter-status',
      attrs: {
        id: 'filter-status',
        'aria-label': t('filterStatus'),
        disabled: !hasStatus && filter.status === undefined,
      },
    },
    h('option', { attrs: { value: '', selected: filter.status === undefined } }, t('filterAnyStatus')),
    ...STATUS_CLASSES.map((c) => h('option', { attrs: { value: c, selected: filter.status === c } }, c)),
  );
}

function clearButton(filter: RecordFilter): HTMLElement | null {
  const active =
    filter.keyId !== undefined ||
    (filter.text ?? '') !== '' ||
    filter.status !== undefined ||
    filter.group !== undefined ||
    filter.day !== undefined;
  if (!active) return null;
  return h(
    'button',
    {
      class: 'link',
      focusKey: 'clear-filter',
      attrs: { type: 'button', id: 'clear-filter' },
      on: { click: () => send({ type: 'setFilter', filter: {} }) },
    },
    t('clearFilter'),
  );
}

function filterBar(state: DashboardState, data: DetailsData | undefined): HTMLElement {
  const filter: RecordFilter = state.view.filter ?? {};
  const columns = data?.columns ?? [];
  const column = columnSelect(filter, columns);
  const text = textInput(filter);
  const status = statusSelect(filter, columns);
  const apply = (): void => {
    const next: RecordFilter = {
      ...(filter.keyId !== undefined ? { keyId: filter.keyId } : {}),
      ...(filter.group !== undefined ? { group: filter.group } : {}),
      ...(filter.day !== undefined ? { day: filter.day } : {}),
    };
    if (column.value) next.column = column.value;
    if (text.value.trim()) next.text = text.value.trim().slice(0, 200);
    if (status.value) next.status = status.value as StatusClass;
    send({ type: 'setFilter', filter: next });
  };
  return h(
    'form',
    {
      class: 'filter-bar',
      attrs: { role: 'search', 'aria-label': t('filterHeading'), id: 'records-filter' },
      on: {
        submit: (event) => {
          event.preventDefault();
          apply();
        },
      },
    },
    keyChip(state, filter),
    ...breakdownChips(filter),
    column,
    text,
    status,
    h(
      'button',
      { class: 'secondary', focusKey: 'apply-filter', attrs: { type: 'submit', id: 'apply-filter' } },
      t('applyFilter'),
    ),
    clearButton(filter),
  );
}

// The records' toolbar: the pager (previous / "page N of M" / next, the range shown and, when
// filtered, how many records match), the page size and export of the whole period.
function pager(page: number, pageSize: number, data: DetailsData | undefined): HTMLElement {
  // A total is shown only as the service said it or as counted: until the end is known, the
  // range has no "of N" and the pages no "of M".
  const total = data?.totalCount;
  const locale = getLocale();
  // The range tells the rows on screen: while the next page is read, it is still the page shown.
  const shown = data?.records.length ?? 0;
  const first = ((data?.page ?? page) - 1) * pageSize;
  const from = shown === 0 ? 0 : first + 1;
  const to = shown === 0 ? 0 : first + shown;
  const pages = total === undefined ? undefined : Math.max(1, Math.ceil(total / pageSize));
  const hasNext = data?.hasNext ?? (pages !== undefined && page < pages);
  const range = !data
    ? ''
    : total === undefined
      ? t('recordsRangeOpen', formatCount(from, locale), formatCount(to, locale))
      : t('recordsRange', formatCount(from, locale), formatCount(to, locale), formatCount(total, locale));
  return h(
    'div',
    { class: 'pager', attrs: { role: 'group', 'aria-label': t('detailsHeading') } },
    iconButton('‹', t('previousPage'), 'prev-page', page <= 1 || !data, () =>
      send({ type: 'setPage', page: page - 1 }),
    ),
    h(
      'span',
      { attrs: { id: 'page-of' } },
      pages === undefined
        ? t('pageOnly', formatCount(page, locale))
        : t('pageOf', formatCount(page, locale), formatCount(pages, locale)),
    ),
    iconButton('›', t('nextPage'), 'next-page', !hasNext || !data, () => send({ type: 'setPage', page: page + 1 })),
    h('span', { class: 'range', attrs: { id: 'records-range' } }, range),
    data?.filtered
      ? h(
          'span',
          { class: 'range filtered-count', attrs: { id: 'filtered-count' } },
          t('filteredCount', formatCount(data.filtered.matched, locale), formatCount(data.filtered.total, locale)),
        )
      : null,
  );
}

/** The sizes offered, with the chosen one among them even when it is not a usual size. */
function pageSizeSelect(chosen: number): HTMLSelectElement {
  const sizes = DETAILS_PAGE_SIZES.includes(chosen)
    ? DETAILS_PAGE_SIZES
    : [...DETAILS_PAGE_SIZES, chosen].sort((a, b) => a - b);
  return h(
    'select',
    {
      focusKey: 'page-size',
      attrs: { id: 'page-size' },
      on: {
        change: (event) => send({ type: 'setPageSize', pageSize: Number((event.target as HTMLSelectElement).value) }),
      },
    },
    ...sizes.map((size) => h('option', { attrs: { value: size, selected: size === chosen } }, String(size))),
  );
}

function exportButton(format: 'csv' | 'json', disabled: boolean, title: string | undefined, text: string): HTMLElement {
  const id = `export-${format}`;
  return h(
    'button',
    {
      class: 'secondary',
      focusKey: id,
      attrs: { type: 'button', id, disabled, title },
      on: { click: () => send({ type: 'export', format }) },
    },
    text,
  );
}

function toolbar(state: DashboardState, data: DetailsData | undefined): HTMLElement {
  // Pages are the service's: it may answer in another size than the one chosen.
  const pageSize = data?.pageSize ?? state.view.pageSize;
  const disabled = state.export?.phase === 'running' || !data || (data.totalCount === 0 && data.records.length === 0);
  const title = data?.filtered ? t('exportFiltered', formatCount(data.filtered.matched, getLocale())) : undefined;
  return h(
    'div',
    { class: 'toolbar' },
    pager(state.view.page, pageSize, data),
    h('label', { class: 'page-size', attrs: { for: 'page-size' } }, t('pageSize')),
    pageSizeSelect(state.view.pageSize),
    h('span', { class: 'spacer' }),
    exportButton('csv', disabled, title, t('exportCsv')),
    exportButton('json', disabled, title, t('exportJson')),
  );
}

// The records' table: columns from the records, headed in words, timestamps in the user's
// locale and time zone, each value on one line cut to its column (in full on hover), and a
// placeholder of the same height while a page loads.
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

/**
 * One value on one line: a timestamp as a `<time>`, anything else as compact text cut to the
 * column's width, the whole value as its title (hover) whenever the cell does not show all of it.
 */
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
      // The whole value on hover: a column may be narrower than the value.
      attrs: { title: full !== '' ? full : undefined },
    },
    h('span', { class: 'cell' }, text),
  );
}

/** A column's header: the field name in words, the name itself in its tooltip. */
function headerCell(column: string): HTMLElement {
  const title = columnTitle(column);
  return h(
    'th',
    { attrs: { scope: 'col', title: title !== column ? column : undefined, 'data-field': column } },
    title,
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

function recordsTable(state: DashboardState): HTMLElement {
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
    h('thead', {}, h('tr', {}, ...data.columns.map(headerCell))),
    h('tbody', {}, ...data.records.map((record) => h('tr', {}, ...data.columns.map((column) => cell(record[column]))))),
  );
}
