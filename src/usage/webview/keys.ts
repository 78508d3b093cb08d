// Usage by API key: a table sortable by each column (buttons in the headers, so the keyboard
// works), the key of this dashboard's environment marked.
import { absoluteTime, formatCount, formatPercent, relativeTimeLong } from '../../core/format';
import type { KeyColumn, KeyRow, KeySort } from '../../core/records';
import type { KeysData, Section } from '../protocol';
import { getLocale, send, t } from './context';
import { h, srOnly } from '../../webview/dom';
import { errorBox } from './states';

const COLUMNS: readonly { column: KeyColumn; numeric: boolean; firstDirection: KeySort['direction'] }[] = [
  { column: 'name', numeric: false, firstDirection: 'asc' },
  { column: 'keyId', numeric: false, firstDirection: 'asc' },
  { column: 'calls', numeric: true, firstDirection: 'desc' },
  { column: 'share', numeric: true, firstDirection: 'desc' },
  { column: 'lastUsedAt', numeric: false, firstDirection: 'desc' },
];

/** As many placeholder rows as the table last had (a first guess before that), so it does not jump. */
let skeletonRows = 5;

function headerCell(spec: (typeof COLUMNS)[number], sort: KeySort): HTMLTableCellElement {
  const active = sort.column === spec.column;
  const label = t(`col.${spec.column}`);
  const next: KeySort['direction'] = active ? (sort.direction === 'asc' ? 'desc' : 'asc') : spec.firstDirection;
  return h(
    'th',
    {
      class: spec.numeric ? 'numeric' : undefined,
      attrs: { scope: 'col', 'aria-sort': active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none' },
    },
    h(
      'button',
      {
        class: 'sort',
        focusKey: `sort-${spec.column}`,
        attrs: { type: 'button', title: t('sortBy', label), 'data-column': spec.column },
        on: { click: () => send({ type: 'sort', column: spec.column, direction: next }) },
      },
      label,
      h(
        'span',
        { class: 'sort-indicator', attrs: { 'aria-hidden': 'true' } },
        active ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : '',
      ),
    ),
  );
}

function row(key: KeyRow): HTMLTableRowElement {
  const locale = getLocale();
  const used = key.lastUsedAt ? relativeTimeLong(key.lastUsedAt, Date.now(), locale) : t('never');
  return h(
    'tr',
    { class: key.current ? 'current' : undefined, attrs: { 'aria-current': key.current ? 'true' : undefined } },
    h(
      'td',
      { class: 'name' },
      h(
        'button',
        {
          class: 'link key-filter',
          focusKey: `key-${key.maskedKeyId}`,
          attrs: { type: 'button', title: t('filterByKey', key.name), 'data-key': key.maskedKeyId },
          on: { click: () => send({ type: 'filterKey', maskedKeyId: key.maskedKeyId }) },
        },
        key.name,
      ),
      key.current ? h('span', { class: 'badge badge-current' }, t('currentKey')) : null,
    ),
    h('td', {}, h('code', {}, key.maskedKeyId)),
    h('td', { class: 'numeric' }, formatCount(key.calls, locale)),
    h('td', { class: 'numeric' }, formatPercent(Math.round(key.share * 1000) / 10, locale)),
    h('td', { attrs: { title: key.lastUsedAt ? absoluteTime(key.lastUsedAt) : undefined } }, used),
  );
}

export function renderKeys(section: Section<KeysData>, sort: KeySort): HTMLElement[] {
  const data = section.data;
  const body = h('tbody');
  if (!data) {
    for (let i = 0; i < skeletonRows; i++)
      body.append(
        h(
          'tr',
          { class: 'skeleton-row', attrs: { 'aria-hidden': 'true' } },
          ...COLUMNS.map(() => h('td', {}, h('span', { class: 'skeleton skeleton-text' }))),
        ),
      );
  } else if (data.rows.length === 0) {
    body.append(h('tr', {}, h('td', { class: 'empty', attrs: { colspan: COLUMNS.length } }, t('keysEmpty'))));
  } else {
    for (const key of data.rows) body.append(row(key));
    skeletonRows = Math.max(1, Math.min(data.rows.length, 50));
  }
  const table = h(
    'table',
    {
      class: `keys${section.status === 'loading' && data ? ' stale' : ''}`,
      attrs: { id: 'keys-table', 'aria-busy': section.status === 'loading' ? 'true' : undefined },
    },
    h('caption', {}, srOnly(t('keysHeading'))),
    h('thead', {}, h('tr', {}, ...COLUMNS.map((spec) => headerCell(spec, sort)))),
    body,
  );
  const heading = h('h2', {}, t('keysHeading'));
  return [
    heading,
    section.status === 'error' ? errorBox(section.error) : null,
    h('div', { class: 'table-wrap', attrs: { tabindex: 0, role: 'region', 'aria-label': t('keysHeading') } }, table),
  ].filter((x): x is HTMLElement => x !== null);
}
