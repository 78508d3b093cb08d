// The header: environment, tier, billing period (previous / month picker / next), when the
// data was read, and Refresh.
import { absoluteTime, relativeTimeLong } from '../../core/format';
import { comparePeriods, periodLabel, shiftPeriod } from '../../core/period';
import type { DashboardState } from '../protocol';
import { getLocale, send, t } from './context';
import { h, iconButton } from '../../webview/dom';

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
