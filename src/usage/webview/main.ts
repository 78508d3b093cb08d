// The dashboard webview and its header. It renders what the host posts and sends back what the
// user asks for; it never talks to the network and never sees the API key.
import { absoluteTime, relativeTimeLong } from '../../core/format';
import { comparePeriods, periodLabel, shiftPeriod } from '../../core/period';
import { h, iconButton, replaceContent } from '../../webview/dom';
import type { DashboardState, HostMessage } from '../protocol';
import { getLocale, saveState, send, setStrings, t } from './context';
import { renderDetails } from './records';
import { renderKeys } from './keys';
import { renderBreakdown } from './breakdown';
import { renderMeters } from './meters';
import { renderBlocked, renderNotice } from './states';

/** When this script started (the host lays it beside the panel's own timeline). */
const scriptStart = performance.now();
const app = document.getElementById('app') ?? document.body;
const regions = {
  header: h('header', { class: 'region-header' }),
  notice: h('div', { class: 'region-notice' }),
  blocked: h('div', { class: 'region-blocked' }),
  meters: h('section', { class: 'region-meters', attrs: { id: 'meters' } }),
  keys: h('section', { class: 'region-keys', attrs: { id: 'keys' } }),
  breakdown: h('section', { class: 'region-breakdown', attrs: { id: 'breakdown' } }),
  details: h('section', { class: 'region-details', attrs: { id: 'details' } }),
};
type Region = keyof typeof regions;

let state: DashboardState | undefined;
const signatures = new Map<Region, string>();

function emptyPeriod(s: DashboardState): string | undefined {
  const { summary, keys, details } = s;
  if (summary.status !== 'ready' || keys.status !== 'ready' || details.status !== 'ready') return undefined;
  const nothing =
    summary.data.meters.every((m) => m.used === 0) && keys.data.rows.length === 0 && details.data.totalCount === 0;
  return nothing ? periodLabel(s.view.period, getLocale()) : undefined;
}

/** Re-renders a region only when what it shows changed (keeps focus and scroll otherwise). */
function update(region: Region, inputs: unknown, render: () => Array<HTMLElement | null>): void {
  const signature = JSON.stringify(inputs);
  if (signatures.get(region) === signature) return;
  signatures.set(region, signature);
  replaceContent(regions[region], ...render());
}

function render(next: DashboardState): void {
  state = next;
  const blocked = next.blocked;
  const busy = isBusy(next);
  app.setAttribute('aria-busy', String(busy));
  update(
    'header',
    [
      next.environment,
      next.view.period,
      next.currentPeriod,
      next.summary.data?.tier,
      next.updatedAt,
      busy,
      blocked !== undefined,
    ],
    () => [renderHeader(next)],
  );
  // A refused month (in the future) goes back to the period shown.
  const month = regions.header.querySelector<HTMLInputElement>('input.month');
  if (month && month.value !== next.view.period) month.value = next.view.period;
  const empty = blocked ? undefined : emptyPeriod(next);
  update('notice', [next.notice, empty], () => renderNotice(next.notice, empty ? t('emptyPeriod', empty) : undefined));
  update('blocked', blocked ?? null, () => (blocked ? [renderBlocked(blocked)] : []));
  for (const name of ['meters', 'keys', 'breakdown', 'details'] as const) regions[name].hidden = blocked !== undefined;
  if (blocked) return;
  const crossing = next.breakdown?.data?.period === next.view.period ? next.breakdown.data.crossing : undefined;
  update('meters', [next.summary, next.trend, next.projection, next.view.period, crossing], () =>
    renderMeters(next.summary, next.trend, next.projection, next.view.period, crossing),
  );
  update('keys', [next.keys, next.view.sort], () => renderKeys(next.keys, next.view.sort));
  const breakdownScan = next.scan?.purpose === 'breakdown' ? next.scan : undefined;
  update('breakdown', [next.breakdown, breakdownScan, next.view.period], () => renderBreakdown(next));
  update(
    'details',
    [next.details, next.view.page, next.view.pageSize, next.view.filter, next.filterKeyName, next.scan, next.export],
    () => renderDetails(next),
  );
  tickUpdated(next);
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  if (typeof message !== 'object' || message === null) return;
  if (message.type === 'init') {
    setStrings(message.strings, message.locale, message.messages);
    signatures.clear();
    if (state) render(state);
  } else if (message.type === 'update') {
    saveState(message.state.view);
    render(message.state);
  }
});

window.addEventListener('error', (event) => send({ type: 'webviewError', message: String(event.message) }));
window.addEventListener('unhandledrejection', (event) =>
  send({ type: 'webviewError', message: String((event.reason as Error | undefined)?.message ?? event.reason) }),
);

// "Updated N minutes ago" moves on while the panel is open; the timer is bounded to one.
setInterval(() => {
  if (state) tickUpdated(state);
}, 30_000);

app.replaceChildren(...Object.values(regions));
send({
  type: 'ready',
  timing: {
    navigationStart: performance.timeOrigin,
    scriptStart: performance.timeOrigin + scriptStart,
    ready: performance.timeOrigin + performance.now(),
  },
});

// The header: environment, tier, billing period (previous / month picker / next), when the
// data was read, and Refresh.
export function isBusy(state: DashboardState): boolean {
  return !state.blocked && [state.summary, state.keys, state.details].some((section) => section.status === 'loading');
}

/** The environment's name, a badge when it is production, and the tier. */
function identity(state: DashboardState): HTMLElement {
  const { environment } = state;
  // A blocked dashboard (no key, missing scope…) shows nothing an earlier key read.
  const tier = state.blocked ? undefined : state.summary.data?.tier;
  return h(
    'div',
    { class: 'identity' },
    h('h1', { attrs: { id: 'env-label' } }, environment.label),
    environment.production ? h('span', { class: 'badge badge-production' }, t('production')) : null,
    tier ? h('span', { class: 'tier', attrs: { id: 'tier' } }, t('tier', tier)) : null,
  );
}

function monthInput(period: string, currentPeriod: string): HTMLInputElement {
  return h('input', {
    class: 'month',
    focusKey: 'month',
    attrs: {
      type: 'month',
      value: period,
      max: currentPeriod,
      'aria-label': t('chooseMonth'),
      title: t('chooseMonth'),
    },
    on: {
      change: (event) => {
        const value = (event.target as HTMLInputElement).value;
        if (value) send({ type: 'setPeriod', period: value });
      },
    },
  });
}

/** The billing period: previous, the month picker (its name read out when it changes), next up to the current one. */
function periodPicker(state: DashboardState): HTMLElement {
  const { view, currentPeriod } = state;
  const atLatest = comparePeriods(view.period, currentPeriod) >= 0;
  return h(
    'div',
    { class: 'period', attrs: { role: 'group', 'aria-label': t('billingPeriod') } },
    iconButton('‹', t('previousPeriod'), 'prev-period', false, () =>
      send({ type: 'setPeriod', period: shiftPeriod(view.period, -1) }),
    ),
    h(
      'span',
      { class: 'period-label sr-only', attrs: { id: 'period-label', 'aria-live': 'polite' } },
      periodLabel(view.period, getLocale()),
    ),
    monthInput(view.period, currentPeriod),
    iconButton('›', t('nextPeriod'), 'next-period', atLatest, () =>
      send({ type: 'setPeriod', period: shiftPeriod(view.period, 1) }),
    ),
  );
}

/** When the data was read, and Refresh. */
function freshness(state: DashboardState): HTMLElement {
  return h(
    'div',
    { class: 'freshness' },
    h('span', { class: 'updated', attrs: { id: 'updated', 'aria-live': 'polite' } }, updatedText(state)),
    h(
      'button',
      {
        class: 'secondary',
        focusKey: 'refresh',
        attrs: { type: 'button', id: 'refresh' },
        on: { click: () => send({ type: 'refresh' }) },
      },
      `↻ ${t('refresh')}`,
    ),
  );
}

export function renderHeader(state: DashboardState): HTMLElement {
  return h('div', { class: 'header' }, identity(state), periodPicker(state), freshness(state));
}

function updatedText(state: DashboardState, now = Date.now()): string {
  if (isBusy(state)) return t('updating');
  if (state.updatedAt === undefined || state.blocked) return '';
  return t('updated', relativeTimeLong(new Date(state.updatedAt).toISOString(), now, getLocale()));
}

/** Re-reads "updated N minutes ago" (called on a timer). */
export function tickUpdated(state: DashboardState): void {
  const element = document.getElementById('updated');
  if (!element) return;
  element.textContent = updatedText(state);
  if (state.updatedAt !== undefined) element.title = absoluteTime(new Date(state.updatedAt).toISOString());
}
