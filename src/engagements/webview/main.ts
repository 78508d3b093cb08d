// The engagement details webview. It renders what the host posts (every service string as
// text) and sends back which action was clicked; it never talks to the network and never
// sees the API key.
import {
  type DetailsAction,
  type DetailsHostMessage,
  type DetailsStringKey,
  type DetailsStrings,
  type DetailsView,
  type DetailsWebviewMessage,
  fill,
} from '../detailsProtocol';
import { h, replaceContent } from '../../webview/dom';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };
const vscodeApi = acquireVsCodeApi();

function send(message: DetailsWebviewMessage): void {
  vscodeApi.postMessage(message);
}

let strings: Partial<DetailsStrings> = {};
let view: DetailsView | undefined;
const t = (key: DetailsStringKey, ...args: string[]) => fill(strings[key] ?? key, ...args);
const app = document.getElementById('app') ?? document.body;
/** A name longer than this shows its first lines only (5,000 characters filled the page), until asked. */
const LONG_NAME = 160;
/** The engagement whose whole name the user asked to see. */
let wholeNameOf: string | undefined;

function nameHeading(next: DetailsView): HTMLElement[] {
  const length = Array.from(next.name).length;
  if (length <= LONG_NAME) return [h('h1', { class: 'name' }, next.name)];
  const whole = wholeNameOf === next.id;
  return [
    h('h1', { class: whole ? 'name' : 'name clamped', attrs: { id: 'name' } }, next.name),
    h(
      'button',
      {
        class: 'link name-toggle',
        focusKey: 'name-toggle',
        attrs: { type: 'button', 'aria-expanded': String(whole), 'aria-controls': 'name' },
        on: {
          click: () => {
            wholeNameOf = whole ? undefined : next.id;
            render(next);
          },
        },
      },
      whole
        ? t('shortName')
        : t('wholeName', new Intl.NumberFormat(document.documentElement.lang || undefined).format(length)),
    ),
  ];
}

function actionButton(action: DetailsAction, busy: boolean): HTMLButtonElement {
  const secondary = action !== 'edit';
  return h(
    'button',
    {
      class: secondary ? 'secondary' : undefined,
      attrs: { type: 'button', 'data-action': action, disabled: busy && action === 'refresh' },
      focusKey: `action-${action}`,
      on: { click: () => send({ type: 'action', action }) },
    },
    t(`action.${action}`),
  );
}

function render(next: DetailsView): void {
  view = next;
  app.setAttribute('aria-busy', String(next.busy));
  const rows = next.fields.map((field) =>
    h(
      'tr',
      {},
      h('th', { attrs: { scope: 'row' } }, field.label),
      h(
        'td',
        {},
        field.code ? h('code', {}, field.value) : field.value,
        field.note ? h('span', { class: 'note' }, ` (${field.note})`) : null,
      ),
    ),
  );
  replaceContent(
    app,
    h(
      'header',
      {},
      ...nameHeading(next),
      h(
        'div',
        { class: 'meta' },
        h('span', { class: `status status-${next.status.kind}` }, next.status.text),
        h('span', { class: 'environment' }, next.environment),
      ),
    ),
    h(
      'div',
      { class: 'actions', attrs: { role: 'toolbar', 'aria-label': t('actions') } },
      ...next.actions.map((a) => actionButton(a, next.busy)),
      next.busy ? h('span', { class: 'busy', attrs: { role: 'status' } }, t('busy')) : null,
    ),
    next.notice ? h('div', { class: 'banner notice', attrs: { role: 'status' } }, next.notice) : null,
    next.error ? h('div', { class: 'banner error', attrs: { role: 'alert' } }, next.error) : null,
    h('table', { class: 'fields', attrs: { 'aria-label': t('fields') } }, h('tbody', {}, ...rows)),
    h('h2', {}, t('description')),
    next.description
      ? h('p', { class: 'description' }, next.description)
      : h('p', { class: 'empty' }, t('noDescription')),
    next.extras.length ? h('h2', {}, t('otherFields')) : null,
    next.extras.length
      ? h(
          'table',
          { class: 'fields extras' },
          h(
            'tbody',
            {},
            ...next.extras.map((f) =>
              h('tr', {}, h('th', { attrs: { scope: 'row' } }, f.label), h('td', {}, h('code', {}, f.value))),
            ),
          ),
        )
      : null,
    h('footer', {}, t('readAt', next.readAt), next.actions.includes('edit') ? null : ` ${t('readOnly')}`),
  );
}

window.addEventListener('message', (event: MessageEvent<DetailsHostMessage>) => {
  const message = event.data;
  if (typeof message !== 'object' || message === null) return;
  if (message.type === 'init') {
    strings = message.strings;
    if (view) render(view);
  } else if (message.type === 'show') {
    render(message.view);
  }
});
window.addEventListener('error', (event) => send({ type: 'webviewError', message: String(event.message) }));
window.addEventListener('unhandledrejection', (event) =>
  send({ type: 'webviewError', message: String((event.reason as Error | undefined)?.message ?? event.reason) }),
);

send({ type: 'ready' });
