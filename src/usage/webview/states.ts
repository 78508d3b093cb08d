// Whole-dashboard states and small shared pieces: blocked (no key, missing scope…), a
// section's error with Retry, the notice banner, the export bar.
import type { Blocked, ErrorView, ExportView, Notice } from '../protocol';
import { send, t } from './context';
import { h } from '../../webview/dom';

export function renderBlocked(blocked: Blocked): HTMLElement {
  return h(
    'div',
    { class: `blocked blocked-${blocked.reason}`, attrs: { role: 'alert', id: 'blocked' } },
    h('p', { class: 'blocked-message' }, blocked.message),
    h(
      'div',
      { class: 'actions' },
      ...blocked.actions.map((command, index) =>
        h(
          'button',
          {
            class: index === 0 ? 'primary' : 'secondary',
            focusKey: `command-${command}`,
            attrs: { type: 'button' },
            on: { click: () => send({ type: 'command', command }) },
          },
          t(`command.${command}`),
        ),
      ),
    ),
  );
}

export function errorBox(error: ErrorView): HTMLElement {
  return h(
    'div',
    { class: 'error-box', attrs: { role: 'alert', 'data-kind': error.kind } },
    h('span', { class: 'error-message' }, error.message),
    error.retryable
      ? h(
          'button',
          {
            class: 'secondary',
            focusKey: 'retry',
            attrs: { type: 'button' },
            on: { click: () => send({ type: 'refresh' }) },
          },
          t('retry'),
        )
      : null,
    h(
      'button',
      { class: 'link', attrs: { type: 'button' }, on: { click: () => send({ type: 'command', command: 'showLogs' }) } },
      t('command.showLogs'),
    ),
  );
}

export function renderNotice(notice: Notice | undefined, empty: string | undefined): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (notice) {
    out.push(
      h(
        'div',
        {
          class: `notice notice-${notice.level}`,
          attrs: { role: notice.level === 'info' ? 'status' : 'alert', id: 'notice' },
        },
        h('span', {}, notice.text),
        h(
          'button',
          {
            class: 'link',
            focusKey: 'dismiss',
            attrs: { type: 'button' },
            on: { click: () => send({ type: 'dismissNotice' }) },
          },
          t('dismiss'),
        ),
      ),
    );
  }
  if (empty)
    out.push(
      h('div', { class: 'notice notice-info', attrs: { role: 'status', id: 'empty-period' } }, h('span', {}, empty)),
    );
  return out;
}

export function renderExport(view: ExportView | undefined): HTMLElement | null {
  if (!view) return null;
  switch (view.phase) {
    case 'running':
      return h(
        'div',
        { class: 'export-bar', attrs: { role: 'status' } },
        h('progress', {
          attrs: {
            max: Math.max(1, view.total),
            value: view.loaded,
            'aria-label': t('exporting', view.loaded, view.total),
          },
        }),
        h('span', {}, t('exporting', view.loaded, view.total)),
        h(
          'button',
          {
            class: 'secondary',
            focusKey: 'cancel-export',
            attrs: { type: 'button' },
            on: { click: () => send({ type: 'cancelExport' }) },
          },
          t('cancel'),
        ),
      );
    case 'done':
      return h(
        'div',
        { class: 'export-bar', attrs: { role: 'status' } },
        h('span', {}, t('exportDone', view.loaded, view.detail ?? '')),
      );
    case 'cancelled':
      return h('div', { class: 'export-bar', attrs: { role: 'status' } }, h('span', {}, t('exportCancelled')));
    case 'failed':
      return h(
        'div',
        { class: 'export-bar export-failed', attrs: { role: 'alert' } },
        h('span', {}, t('exportFailed', view.detail ?? '')),
      );
  }
}
