// The detail records: the filter bar, the toolbar (pager, page size up to 100, export of the
// whole period to CSV or JSON), the progress of a scan for a filter, and the paged table.
import { formatCount } from '../../core/format';
import type { DashboardState } from '../protocol';
import { getLocale, send, t } from './context';
import { h } from '../../webview/dom';
import { filterBar } from './filterBar';
import { recordsTable } from './recordsTable';
import { errorBox, renderExport } from './states';
import { toolbar } from './toolbar';

function scanBar(state: DashboardState): HTMLElement | null {
  const scan = state.scan;
  if (!scan) return null;
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
