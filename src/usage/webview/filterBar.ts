// The records' filter: column, text and status class, applied to every record of the period,
// and the key chip when the records are filtered by key.
import { STATUS_CLASSES, statusColumn, type RecordFilter, type StatusClass } from '../../core/recordFilter';
import type { DashboardState, DetailsData } from '../protocol';
import { send, t } from './context';
import { h } from '../../webview/dom';

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

function columnSelect(filter: RecordFilter, columns: readonly string[]): HTMLSelectElement {
  return h(
    'select',
    { focusKey: 'filter-column', attrs: { id: 'filter-column', 'aria-label': t('filterColumn') } },
    h('option', { attrs: { value: '', selected: filter.column === undefined } }, t('filterAnyColumn')),
    ...columns.map((c) => h('option', { attrs: { value: c, selected: filter.column === c } }, c)),
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
  const active = filter.keyId !== undefined || (filter.text ?? '') !== '' || filter.status !== undefined;
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

export function filterBar(state: DashboardState, data: DetailsData | undefined): HTMLElement {
  const filter: RecordFilter = state.view.filter ?? {};
  const columns = data?.columns ?? [];
  const column = columnSelect(filter, columns);
  const text = textInput(filter);
  const status = statusSelect(filter, columns);
  const apply = (): void => {
    const next: RecordFilter = { ...(filter.keyId !== undefined ? { keyId: filter.keyId } : {}) };
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
