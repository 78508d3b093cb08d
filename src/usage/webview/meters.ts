// The three meters: a bar of used against included, the figures, the percentage, and the
// overage past 100 %. `role="meter"` with its values for assistive technology.
import { formatCount } from '../../core/format';
import { formatAmount, meterTexts, type MeterFigures, type MeterTexts } from '../../core/meters';
import type { Projection } from '../../core/projection';
import type { ProjectionView, Section, SummaryData, TrendData } from '../protocol';
import { getLocale, t } from './context';
import { h } from '../../webview/dom';
import { errorBox } from './states';
import { renderTrend } from './trend';

function dayOf(iso: string, locale?: string): string {
  try {
    return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
      new Date(`${iso}T00:00:00Z`),
    );
  } catch {
    return iso;
  }
}

/** "estimate · 108,400 by the end of the period · 8,400 over the included amount, reached around 27 Nov". */
function projectionLine(projection: Projection, figures: MeterFigures, method: string): HTMLElement {
  const locale = getLocale();
  const amount = (value: number) => formatAmount(value, figures.unit, locale);
  return h(
    'div',
    {
      class: `projection${projection.overBy !== undefined ? ' projection-over' : ''}`,
      attrs: { 'data-part': 'projection', title: method },
    },
    h('span', { class: 'badge badge-estimate' }, t('estimate')),
    ' ',
    t('projection', amount(projection.projected)),
    ' · ',
    projection.overBy !== undefined && projection.exceedsOn
      ? t('projectionOver', amount(projection.overBy), dayOf(projection.exceedsOn, locale))
      : t('projectionWithin'),
  );
}

const METERS = ['calls', 'webhooks', 'storage_gb'] as const;

/** The level in words as well as in colour: "near the limit" from 80 %, "over the limit" past 100 %. */
function levelWord(figures: MeterFigures): string | undefined {
  if (figures.level === 'normal') return undefined;
  return figures.level === 'error' ? t('levelError') : t('levelWarning');
}

/** The bar, `role="meter"`, with its figures in words for assistive technology. */
function meterBar(figures: MeterFigures, texts: MeterTexts, name: string): HTMLElement {
  const fill = h('div', { class: 'fill' });
  fill.style.width = `${(figures.fill * 100).toFixed(2)}%`;
  const level = levelWord(figures);
  return h(
    'div',
    {
      class: 'bar',
      attrs: {
        role: 'meter',
        'aria-label': name,
        'aria-valuemin': 0,
        'aria-valuemax': Math.max(figures.included, figures.used),
        'aria-valuenow': figures.used,
        'aria-valuetext':
          t(
            'meterAria',
            name,
            texts.used,
            texts.included,
            figures.percent === undefined ? t('meterNoAllowance') : texts.percent,
          ) +
          (texts.overage ? `, ${t('meterOverage', texts.overage)}` : '') +
          (level === undefined ? '' : `, ${level}`),
      },
    },
    fill,
  );
}

/** The meter's name, its level in words and the percentage. */
function meterTop(figures: MeterFigures, texts: MeterTexts, name: string): HTMLElement {
  const level = levelWord(figures);
  return h(
    'div',
    { class: 'meter-top' },
    h('h3', {}, name),
    level === undefined ? null : h('span', { class: 'level-word', attrs: { 'data-part': 'level' } }, level),
    h('span', { class: 'percent', attrs: { 'data-part': 'percent' } }, texts.percent),
  );
}

/** The projection of this meter when there is one for the period shown. */
function meterProjection(
  figures: MeterFigures,
  projection: ProjectionView | undefined,
  period: string,
): HTMLElement | null {
  const projected = projection?.period === period ? projection.meters.find((p) => p.meter === figures.name) : undefined;
  if (!projected) return null;
  const method =
    projection?.method === 'daily' && figures.name === 'calls' ? t('projectionDaily') : t('projectionLinear');
  return projectionLine(projected, figures, method);
}

function meterCard(
  figures: MeterFigures,
  extra: { trend?: Section<TrendData>; projection?: ProjectionView; period: string },
): HTMLElement {
  const texts = meterTexts(figures, getLocale());
  const name = t(`meter.${figures.name}`);
  return h(
    'div',
    { class: `meter-card level-${figures.level}`, attrs: { 'data-meter': figures.name } },
    meterTop(figures, texts, name),
    meterBar(figures, texts, name),
    h(
      'div',
      { class: 'figures', attrs: { 'data-part': 'figures' } },
      t('meterOf', texts.used, figures.included > 0 ? texts.included : t('meterNoAllowance')),
    ),
    h(
      'div',
      { class: 'overage', attrs: { 'data-part': 'overage', 'aria-hidden': texts.overage ? undefined : 'true' } },
      texts.overage ? t('meterOverage', texts.overage) : '\u00a0',
    ),
    meterProjection(figures, extra.projection, extra.period),
    renderTrend(extra.trend, figures, name, extra.period),
  );
}

function skeletonCard(name: (typeof METERS)[number]): HTMLElement {
  return h(
    'div',
    { class: 'meter-card skeleton-card', attrs: { 'data-meter': name, 'aria-hidden': 'true' } },
    // The same boxes and line heights as a loaded card, so nothing moves when the data comes.
    h(
      'div',
      { class: 'meter-top' },
      h('h3', {}, t(`meter.${name}`)),
      h('span', { class: 'percent' }, h('span', { class: 'skeleton skeleton-text short' }), '\u00a0'),
    ),
    h('div', { class: 'bar' }, h('div', { class: 'skeleton skeleton-bar' })),
    h('div', { class: 'figures' }, h('span', { class: 'skeleton skeleton-text' }), '\u00a0'),
    h('div', { class: 'overage' }, '\u00a0'),
    h(
      'div',
      { class: 'trend' },
      h('span', { class: 'skeleton skeleton-chart' }),
      h('div', { class: 'trend-foot' }, '\u00a0'),
    ),
  );
}

export function renderMeters(
  section: Section<SummaryData>,
  trend: Section<TrendData> | undefined,
  projection: ProjectionView | undefined,
  period: string,
): HTMLElement[] {
  const heading = h('h2', {}, t('metersHeading'));
  const data = section.data;
  const locale = getLocale();
  const days =
    projection?.period === period
      ? h(
          'p',
          { class: 'period-days', attrs: { id: 'period-days' } },
          t(
            'periodDays',
            formatCount(Math.ceil(projection.elapsedDays), locale),
            formatCount(projection.totalDays, locale),
            formatCount(Math.floor(projection.daysLeft), locale),
          ),
        )
      : null;
  const cards = h('div', {
    class: `meters${section.status === 'loading' && data ? ' stale' : ''}`,
    attrs: { 'aria-busy': section.status === 'loading' ? 'true' : undefined },
  });
  if (data) for (const figures of data.meters) cards.append(meterCard(figures, { trend, projection, period }));
  else for (const name of METERS) cards.append(skeletonCard(name));
  const trendError = trend?.status === 'error' ? errorBox(trend.error) : null;
  return [heading, days, section.status === 'error' ? errorBox(section.error) : trendError, cards].filter(
    (x): x is HTMLElement => x !== null,
  );
}
