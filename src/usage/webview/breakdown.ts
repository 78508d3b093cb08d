// Where the period went: the period's records read whole (on request, with progress and Cancel,
// at most the cap said), grouped by a column the user picks with a sum of a numeric column and
// each group's share; then a bar per day (UTC) with the days far above the usual day marked and
// their largest group named. A group or a day chosen filters the records table.
import { formatCount, formatPercent } from '../../core/format';
import type { DayBar, Group } from '../../core/breakdown';
import { BREAKDOWN_CAP } from '../../core/breakdown';
import { columnTitle } from '../../core/records';
import { h } from '../../webview/dom';
import type { BreakdownData, DashboardState } from '../protocol';
import { getLocale, send, t } from './context';
import { errorBox } from './states';

function dayLabel(day: string): string {
  try {
    return new Intl.DateTimeFormat(getLocale(), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
      new Date(`${day}T00:00:00Z`),
    );
  } catch {
    return day;
  }
}

const percent = (share: number) => formatPercent(Math.round(share * 1000) / 10, getLocale());
const ratio = (value: number) => (Math.round(value * 10) / 10).toLocaleString(getLocale());

function progressBar(state: DashboardState): HTMLElement | null {
  const scan = state.scan?.purpose === 'breakdown' ? state.scan : undefined;
  if (state.breakdown?.status !== 'loading') return null;
  const locale = getLocale();
  const loaded = scan?.loaded ?? 0;
  const total = scan?.total ?? 0;
  return h(
    'div',
    { class: 'export-bar', attrs: { role: 'status', id: 'breakdown-progress' } },
    h('progress', {
      attrs: { max: Math.max(1, total), value: loaded, 'aria-label': t('scanning', loaded, total) },
    }),
    h('span', {}, t('scanning', formatCount(loaded, locale), formatCount(total, locale))),
    h(
      'button',
      {
        class: 'secondary',
        focusKey: 'cancel-breakdown',
        attrs: { type: 'button', id: 'cancel-breakdown' },
        on: { click: () => send({ type: 'cancelScan' }) },
      },
      t('cancel'),
    ),
  );
}

function readButton(state: DashboardState): HTMLElement | null {
  if (state.breakdown?.status === 'loading') return null;
  const cap = formatCount(BREAKDOWN_CAP, getLocale());
  return h(
    'button',
    {
      class: state.breakdown?.data ? 'secondary' : undefined,
      focusKey: 'read-breakdown',
      attrs: { type: 'button', id: 'read-breakdown', title: t('breakdownReadTitle', cap) },
      on: { click: () => send({ type: 'breakdown' }) },
    },
    t('breakdownRead'),
  );
}

/** What was read: how many records, and what is not in the figures (past the cap, or not paged to). */
function readNote(data: BreakdownData): HTMLElement {
  const locale = getLocale();
  const notes = [
    t('breakdownRecordsRead', formatCount(data.read, locale), formatCount(data.read + data.missing, locale)),
  ];
  if (data.capped) notes.push(t('breakdownCapped', formatCount(data.cap, locale), formatCount(data.missing, locale)));
  else if (data.missing > 0) notes.push(t('breakdownMissing', formatCount(data.missing, locale)));
  return h('p', { class: 'hint', attrs: { id: 'breakdown-read' } }, notes.join(' '));
}

function choices(data: BreakdownData): HTMLElement {
  const { column, sumColumn } = data.breakdown;
  const groupBy = h(
    'select',
    {
      focusKey: 'breakdown-column',
      attrs: { id: 'breakdown-column' },
      on: {
        change: (event) =>
          send({
            type: 'setBreakdown',
            choice: { column: (event.target as HTMLSelectElement).value, ...(sumColumn ? { sumColumn } : {}) },
          }),
      },
    },
    ...data.columns.map((c) => h('option', { attrs: { value: c, selected: c === column, title: c } }, columnTitle(c))),
  );
  const sum = h(
    'select',
    {
      focusKey: 'breakdown-sum',
      attrs: { id: 'breakdown-sum' },
      on: {
        change: (event) => {
          const value = (event.target as HTMLSelectElement).value;
          send({ type: 'setBreakdown', choice: { column, ...(value ? { sumColumn: value } : {}) } });
        },
      },
    },
    h('option', { attrs: { value: '', selected: sumColumn === undefined } }, t('breakdownCount')),
    ...data.numeric.map((c) =>
      h('option', { attrs: { value: c, selected: c === sumColumn, title: c } }, columnTitle(c)),
    ),
  );
  return h(
    'div',
    { class: 'toolbar breakdown-choices' },
    h('label', { attrs: { for: 'breakdown-column' } }, t('breakdownGroupBy')),
    groupBy,
    h('label', { attrs: { for: 'breakdown-sum' } }, t('breakdownSum')),
    sum,
  );
}

function shareCell(share: number): HTMLElement {
  const fill = h('span', { class: 'share-fill' });
  fill.style.width = `${Math.min(100, share * 100).toFixed(1)}%`;
  return h(
    'td',
    { class: 'numeric share' },
    h('span', { class: 'share-bar', attrs: { 'aria-hidden': 'true' } }, fill),
    h('span', { class: 'share-text' }, percent(share)),
  );
}

function groupRow(data: BreakdownData, group: Group): HTMLElement {
  const column = data.breakdown.column;
  const name = data.labels[group.value];
  const shown = group.value === '' ? t('breakdownEmptyValue') : name ? `${name} (${group.value})` : group.value;
  return h(
    'tr',
    {},
    h(
      'td',
      { class: 'group-value' },
      h(
        'button',
        {
          class: 'link group-filter',
          focusKey: `group-${group.value}`,
          attrs: { type: 'button', title: t('breakdownFilter', shown), 'data-group': group.value },
          on: { click: () => send({ type: 'setFilter', filter: { group: { column, value: group.value } } }) },
        },
        shown,
      ),
    ),
    h('td', { class: 'numeric' }, formatCount(group.count, getLocale())),
    data.breakdown.sumColumn !== undefined
      ? h('td', { class: 'numeric' }, formatCount(group.sum ?? 0, getLocale()))
      : null,
    shareCell(group.share),
  );
}

function groupsTable(data: BreakdownData): HTMLElement {
  const { breakdown } = data;
  const other = breakdown.other;
  return h(
    'div',
    { class: 'table-wrap', attrs: { tabindex: 0, role: 'region', 'aria-label': t('breakdownHeading') } },
    h(
      'table',
      { class: 'breakdown', attrs: { id: 'breakdown-table' } },
      h('caption', { class: 'sr-only' }, t('breakdownHeading')),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { attrs: { scope: 'col' } }, columnTitle(breakdown.column)),
          h('th', { class: 'numeric', attrs: { scope: 'col' } }, t('breakdownRecords')),
          breakdown.sumColumn !== undefined
            ? h('th', { class: 'numeric', attrs: { scope: 'col' } }, columnTitle(breakdown.sumColumn))
            : null,
          h('th', { class: 'numeric', attrs: { scope: 'col' } }, t('breakdownShare')),
        ),
      ),
      h(
        'tbody',
        {},
        ...breakdown.groups.map((group) => groupRow(data, group)),
        other
          ? h(
              'tr',
              { class: 'other' },
              h('td', {}, t('breakdownOther', formatCount(other.groups, getLocale()))),
              h('td', { class: 'numeric' }, formatCount(other.count, getLocale())),
              breakdown.sumColumn !== undefined
                ? h('td', { class: 'numeric' }, formatCount(other.sum ?? 0, getLocale()))
                : null,
              shareCell(other.share),
            )
          : null,
      ),
    ),
  );
}

/** "Nov 17: 4.1× the usual day, 62 % from key CI pipeline on POST /v1/engagements". */
function markedDayText(bar: DayBar): string {
  const head = t('dailyMarked', dayLabel(bar.day), ratio(bar.ratio ?? 0));
  const cause = bar.cause;
  if (!cause) return head;
  const call = [cause.method, cause.endpoint].filter((x) => x !== undefined && x !== '').join(' ');
  const share = String(Math.round(cause.share * 100));
  const tail =
    cause.key === undefined
      ? t('dailyCauseCall', share, call)
      : call
        ? t('dailyCauseKeyCall', share, cause.key, call)
        : t('dailyCauseKey', share, cause.key);
  return `${head}, ${tail}`;
}

/** One bar a day, its height the day's records; a marked day in another colour with a mark. */
function barsOf(data: BreakdownData): HTMLElement {
  const { daily } = data;
  const max = Math.max(1, ...daily.days.map((d) => d.count));
  const locale = getLocale();
  return h(
    'div',
    { class: 'days', attrs: { role: 'group', 'aria-label': t('dailyHeading', daily.timeZone), id: 'daily-bars' } },
    ...daily.days.map((bar) => {
      const fill = h('span', { class: 'day-fill' });
      fill.style.height = `${((bar.count / max) * 100).toFixed(1)}%`;
      const label = bar.marked ? markedDayText(bar) : t('dailyBar', dayLabel(bar.day), formatCount(bar.count, locale));
      return h(
        'button',
        {
          class: `day${bar.marked ? ' marked' : ''}`,
          focusKey: `day-${bar.day}`,
          attrs: { type: 'button', title: label, 'aria-label': label, 'data-day': bar.day },
          on: { click: () => send({ type: 'setFilter', filter: { day: bar.day } }) },
        },
        fill,
        bar.marked ? h('span', { class: 'day-mark', attrs: { 'aria-hidden': 'true' } }, '▲') : null,
      );
    }),
  );
}

/** The marked days in words, each a button that filters the records to it. */
function markedList(data: BreakdownData): HTMLElement | null {
  const marked = data.daily.days.filter((d) => d.marked);
  if (marked.length === 0) return null;
  return h(
    'ul',
    { class: 'marked-days', attrs: { id: 'marked-days' } },
    ...marked.map((bar) =>
      h(
        'li',
        {},
        h(
          'button',
          {
            class: 'link',
            focusKey: `marked-${bar.day}`,
            attrs: { type: 'button', 'data-day': bar.day },
            on: { click: () => send({ type: 'setFilter', filter: { day: bar.day } }) },
          },
          markedDayText(bar),
        ),
      ),
    ),
  );
}

function dayBars(data: BreakdownData): HTMLElement[] {
  const { daily } = data;
  const locale = getLocale();
  const first = daily.days[0];
  const last = daily.days[daily.days.length - 1];
  const axis = h(
    'div',
    { class: 'days-axis', attrs: { 'aria-hidden': 'true' } },
    h('span', {}, first ? dayLabel(first.day) : ''),
    h('span', {}, last ? dayLabel(last.day) : ''),
  );
  const usual =
    daily.usual > 0 ? t('dailyUsual', formatCount(daily.usual, locale), String(daily.factor)) : t('dailyNoUsual');
  const parts: Array<HTMLElement | null> = [
    h('h3', {}, t('dailyHeading', daily.timeZone)),
    h('p', { class: 'hint', attrs: { id: 'daily-usual' } }, usual),
    barsOf(data),
    axis,
    markedList(data),
    daily.undated > 0 ? h('p', { class: 'hint' }, t('dailyUndated', formatCount(daily.undated, locale))) : null,
  ];
  return parts.filter((x): x is HTMLElement => x !== null);
}

export function renderBreakdown(state: DashboardState): HTMLElement[] {
  const section = state.breakdown;
  const data = section?.data?.period === state.view.period ? section.data : undefined;
  return [
    h('h2', {}, t('breakdownHeading')),
    h('div', { class: 'toolbar' }, readButton(state), data ? readNote(data) : null),
    progressBar(state),
    section?.status === 'error' ? errorBox(section.error) : null,
    ...(data
      ? [
          choices(data),
          h('div', { class: section?.status === 'loading' ? 'stale' : undefined }, groupsTable(data)),
          ...dayBars(data),
        ]
      : []),
  ].filter((x): x is HTMLElement => x !== null);
}
