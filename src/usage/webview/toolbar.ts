// The records' toolbar: the pager (previous / "page N of M" / next, the range shown and, when
// filtered, how many records match), the page size and export of the whole period.
import { formatCount } from '../../core/format';
import { DETAILS_PAGE_SIZES, type DashboardState, type DetailsData } from '../protocol';
import { getLocale, send, t } from './context';
import { h, iconButton } from '../../webview/dom';

function pager(page: number, pageSize: number, data: DetailsData | undefined): HTMLElement {
  const total = data?.totalCount ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const locale = getLocale();
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return h(
    'div',
    { class: 'pager', attrs: { role: 'group', 'aria-label': t('detailsHeading') } },
    iconButton('‹', t('previousPage'), 'prev-page', page <= 1 || !data, () =>
      send({ type: 'setPage', page: page - 1 }),
    ),
    h('span', { attrs: { id: 'page-of' } }, t('pageOf', formatCount(page, locale), formatCount(pages, locale))),
    iconButton('›', t('nextPage'), 'next-page', page >= pages || !data, () =>
      send({ type: 'setPage', page: page + 1 }),
    ),
    h(
      'span',
      { class: 'range', attrs: { id: 'records-range' } },
      data ? t('recordsRange', formatCount(from, locale), formatCount(to, locale), formatCount(total, locale)) : '',
    ),
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

export function toolbar(state: DashboardState, data: DetailsData | undefined): HTMLElement {
  // Pages are the service's: it may answer in another size than the one chosen.
  const pageSize = data?.pageSize ?? state.view.pageSize;
  const disabled = state.export?.phase === 'running' || (data?.totalCount ?? 0) === 0;
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
