// Usage by API key: a table sortable by each column (buttons in the headers, so the keyboard
// works), the key of this dashboard's environment marked.
import { absoluteTime, formatCount, formatPercent, relativeTimeLong, shortPeriod } from '../../core/format';
import type { KeyColumn, KeyRow, KeySort } from '../../core/records';
import type { KeyOverTime, KeysData, Section } from '../protocol';
import { getLocale, send, t } from './context';
import { h, srOnly, svg } from '../../webview/dom';
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

/** The key's calls in each of the last periods, a bar each (no data: a low outline), its figures in words. */
function keyTrendCell(key: KeyRow, over: KeyOverTime | undefined, periods: readonly string[]): HTMLElement {
  if (!over) return h('td', { class: 'key-trend' });
  const locale = getLocale();
  const max = Math.max(1, ...over.calls.map((c) => c ?? 0));
  const slot = 7;
  const words = over.calls.map(
    (c, i) => `${shortPeriod(periods[i] ?? '', locale)}: ${c === null ? t('noData') : formatCount(c, locale)}`,
  );
  const chart = svg(
    'svg',
    { class: 'key-spark', width: over.calls.length * slot, height: 20, 'aria-hidden': 'true' },
    ...over.calls.map((c, i) => {
      const height = c === null ? 1 : Math.max(1, (c / max) * 18);
      return svg('rect', {
        class: c === null ? 'spark-nodata' : i === over.calls.length - 1 ? 'spark-current' : 'spark-bar',
        x: i * slot + 1,
        y: (20 - height).toFixed(1),
        width: slot - 2,
        height: height.toFixed(1),
      });
    }),
  );
  const label = `${t('keyTrend', key.name, String(over.calls.length))}: ${words.join(', ')}`;
  return h('td', { class: 'key-trend', attrs: { title: words.join('\n') } }, chart, srOnly(label), ...keyNotes(over));
}

/** The projection to the period's end and the budget (and where the key stands against it). */
function keyNotes(over: KeyOverTime | undefined): HTMLElement[] {
  const locale = getLocale();
  const notes: HTMLElement[] = [];
  if (over?.projected !== undefined)
    notes.push(h('span', { class: 'key-note' }, t('keyProjected', formatCount(over.projected, locale))));
  if (over?.budget !== undefined) {
    const budget = formatCount(over.budget, locale);
    const state = over.budgetState;
    notes.push(
      h(
        'span',
        { class: `key-note budget-${state ?? 'within'}`, attrs: { 'data-part': 'budget' } },
        state === 'passed'
          ? `⚠ ${t('keyBudgetPassed', budget)}`
          : state === 'projected'
            ? `⚠ ${t('keyBudgetProjected', budget)}`
            : t('keyBudget', budget),
      ),
    );
  }
  return notes;
}

function row(key: KeyRow, over: KeyOverTime | undefined, periods: readonly string[]): HTMLTableRowElement {
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
    keyTrendCell(key, over, periods),
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
          ...[...COLUMNS, undefined].map(() => h('td', {}, h('span', { class: 'skeleton skeleton-text' }))),
        ),
      );
  } else if (data.rows.length === 0) {
    body.append(h('tr', {}, h('td', { class: 'empty', attrs: { colspan: COLUMNS.length + 1 } }, t('keysEmpty'))));
  } else {
    for (const key of data.rows) body.append(row(key, data.perKey?.[key.maskedKeyId], data.trendPeriods ?? []));
    skeletonRows = Math.max(1, Math.min(data.rows.length, 50));
  }
  const table = h(
    'table',
    {
      class: `keys${section.status === 'loading' && data ? ' stale' : ''}`,
      attrs: { id: 'keys-table', 'aria-busy': section.status === 'loading' ? 'true' : undefined },
    },
    h('caption', {}, srOnly(t('keysHeading'))),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...COLUMNS.map((spec) => headerCell(spec, sort)),
        h('th', { attrs: { scope: 'col' } }, t('col.trend')),
      ),
    ),
    body,
  );
  const heading = h('h2', {}, t('keysHeading'));
  return [
    heading,
    section.status === 'error' ? errorBox(section.error) : null,
    h('div', { class: 'table-wrap', attrs: { tabindex: 0, role: 'region', 'aria-label': t('keysHeading') } }, table),
  ].filter((x): x is HTMLElement => x !== null);
}
