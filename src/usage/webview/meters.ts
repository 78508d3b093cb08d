// The three meters and their trend: a bar of used against included, the figures, the
// percentage, the overage past 100 %, and the last 12 periods. `role="meter"` with its values
// for assistive technology.
import { formatCount, formatPercent, shortPeriod } from '../../core/format';
import type { MeterFigures, MeterTexts, Projection, UsageMeterName } from '../../core/meters';
import { formatAmount, meterTexts } from '../../core/meters';
import type { TrendPoint } from '../../core/trend';
import type { Crossing } from '../../core/breakdown';
import { chartMax, meterChange } from '../../core/trend';
import { h, svg } from '../../webview/dom';
import type { ProjectionView, Section, SummaryData, TrendData } from '../protocol';
import { getLocale, t } from './context';
import { errorBox } from './states';

function dayOf(iso: string, locale?: string): string {
  try {
    return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
      new Date(`${iso}T00:00:00Z`),
    );
  } catch {
    return iso;
  }
}

/** Past its included amount: the day the records show it passed it, never a projected day. */
function crossingText(crossing: Crossing | undefined): string {
  if (!crossing) return t('crossedUnknown');
  const day = dayOf(crossing.day, getLocale());
  return crossing.exact ? t('crossedOn', day) : t('crossedAround', day);
}

/** "estimate · 108,400 by the end of the period · 8,400 over the included amount, reached around 27 Nov". */
function projectionLine(
  projection: Projection,
  figures: MeterFigures,
  method: string,
  crossing: Crossing | undefined,
): HTMLElement {
  const locale = getLocale();
  const past = figures.included > 0 && figures.used > figures.included;
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
    past
      ? h('span', { attrs: { 'data-part': 'crossed' } }, crossingText(crossing))
      : projection.overBy !== undefined && projection.exceedsOn
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
  crossing: Crossing | undefined,
): HTMLElement | null {
  const projected = projection?.period === period ? projection.meters.find((p) => p.meter === figures.name) : undefined;
  const past = figures.name === 'calls' && figures.included > 0 && figures.used > figures.included;
  // A closed period has no estimate; past its included amount it still says when it passed it.
  if (!projected)
    return past
      ? h(
          'div',
          { class: 'projection projection-over', attrs: { 'data-part': 'projection' } },
          h('span', { attrs: { 'data-part': 'crossed' } }, crossingText(crossing)),
        )
      : null;
  const method =
    projection?.method === 'daily' && figures.name === 'calls' ? t('projectionDaily') : t('projectionLinear');
  return projectionLine(projected, figures, method, figures.name === 'calls' ? crossing : undefined);
}

function meterCard(
  figures: MeterFigures,
  extra: { trend?: Section<TrendData>; projection?: ProjectionView; period: string; crossing?: Crossing },
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
    meterProjection(figures, extra.projection, extra.period, extra.crossing),
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
  crossing?: Crossing,
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
  if (data)
    for (const figures of data.meters) cards.append(meterCard(figures, { trend, projection, period, crossing }));
  else for (const name of METERS) cards.append(skeletonCard(name));
  const trendError = trend?.status === 'error' ? errorBox(trend.error) : null;
  return [heading, days, section.status === 'error' ? errorBox(section.error) : trendError, cards].filter(
    (x): x is HTMLElement => x !== null,
  );
}

// The trend beside each meter: the last 12 billing periods as bars (SVG in theme colours),
// the included amount as a dashed line, "no data" periods as empty outlines, the value of a
// bar on hover or keyboard focus (arrow keys move between bars), a table for screen
// readers, and the change against the period before the one shown.
const W = 240;
const H = 56;
const BASE = 52;
const TOP = 4;

function describe(point: TrendPoint, meter: UsageMeterName, unit: MeterFigures['unit'], locale?: string): string {
  const when = shortPeriod(point.period, locale);
  if (point.status === 'noData') return `${when}: ${t('noData')}`;
  if (point.status === 'error') return `${when}: ${t('trendFailed', point.message)}`;
  const value = point.meters[meter];
  return t('trendPoint', when, formatAmount(value.used, unit, locale), formatAmount(value.included, unit, locale));
}

function levelOf(point: TrendPoint, meter: UsageMeterName): string {
  if (point.status !== 'data') return point.status === 'error' ? 'failed' : 'nodata';
  const { used, included } = point.meters[meter];
  if (included > 0 && used > included) return 'over';
  if (included > 0 && used >= included * 0.8) return 'warn';
  return 'normal';
}

/** Where the chart puts things: each period's slot width, and the height of a value. */
interface Scale {
  slot: number;
  y: (value: number) => number;
}

/** One bar per period, coloured by its level; "no data" and failed periods as a low outline. */
function bars(
  points: readonly TrendPoint[],
  meter: UsageMeterName,
  period: string,
  texts: readonly string[],
  { slot, y }: Scale,
): SVGElement[] {
  return points.map((point, i) => {
    const x = i * slot + 3;
    const width = slot - 6;
    const level = levelOf(point, meter);
    const used = point.status === 'data' ? point.meters[meter].used : 0;
    const top = point.status === 'data' ? Math.min(BASE - 1, y(used)) : BASE - 4;
    return svg(
      'rect',
      {
        class: `bar-${level}${point.period === period ? ' selected' : ''}`,
        x: x.toFixed(1),
        y: top.toFixed(1),
        width: width.toFixed(1),
        height: (BASE - top).toFixed(1),
        rx: 1,
        'data-period': point.period,
        'data-status': point.status,
      },
      svg('title', {}, texts[i]),
    );
  });
}

/** The included amount of each period with data, joined. */
function includedLine(points: readonly TrendPoint[], meter: UsageMeterName, { slot, y }: Scale): SVGElement | null {
  const line = points
    .map((p, i) =>
      p.status === 'data' && p.meters[meter].included > 0
        ? `${(i * slot + 1).toFixed(1)},${y(p.meters[meter].included).toFixed(1)} ${((i + 1) * slot - 1).toFixed(1)},${y(p.meters[meter].included).toFixed(1)}`
        : '',
    )
    .filter(Boolean)
    .join(' ');
  return line ? svg('polyline', { class: 'included', points: line }) : null;
}

/** The bar a key moves to (arrows, Home, End), kept within the chart; undefined for other keys. */
function barAfterKey(key: string, active: number, count: number): number | undefined {
  const next =
    key === 'ArrowLeft'
      ? active - 1
      : key === 'ArrowRight'
        ? active + 1
        : key === 'Home'
          ? 0
          : key === 'End'
            ? count - 1
            : undefined;
  return next === undefined ? undefined : Math.min(count - 1, Math.max(0, next));
}

/** The value of a bar in the readout on hover or keyboard focus; arrow keys move between bars. */
function readBars(
  element: SVGElement,
  rects: readonly SVGElement[],
  texts: readonly string[],
  readout: HTMLElement,
  start: number,
): void {
  let active = start;
  const show = (index: number) => {
    active = index;
    rects.forEach((bar, i) => bar.classList.toggle('focused', i === index));
    readout.textContent = texts[index] ?? '';
  };
  rects.forEach((bar, i) => bar.addEventListener('mouseenter', () => show(i)));
  element.addEventListener('focus', () => show(active));
  element.addEventListener('mouseleave', () => {
    if (document.activeElement !== element) readout.textContent = '';
  });
  element.addEventListener('blur', () => {
    rects.forEach((bar) => bar.classList.remove('focused'));
    readout.textContent = '';
  });
  element.addEventListener('keydown', (event) => {
    const next = barAfterKey(event.key, active, rects.length);
    if (next === undefined) return;
    event.preventDefault();
    show(next);
  });
}

function chart(
  points: readonly TrendPoint[],
  meter: UsageMeterName,
  unit: MeterFigures['unit'],
  period: string,
  readout: HTMLElement,
  name: string,
): SVGElement {
  const locale = getLocale();
  const max = chartMax(points, meter);
  const scale: Scale = { slot: W / points.length, y: (value: number) => BASE - (value / max) * (BASE - TOP) };
  const texts = points.map((p) => describe(p, meter, unit, locale));
  const rects = bars(points, meter, period, texts, scale);
  const element = svg(
    'svg',
    {
      class: 'trend-chart',
      viewBox: `0 0 ${W} ${H}`,
      preserveAspectRatio: 'none',
      role: 'img',
      tabindex: 0,
      'aria-label': t('trendAria', name, points.length),
      'data-meter': meter,
    },
    svg('line', { class: 'baseline', x1: 0, x2: W, y1: BASE + 0.5, y2: BASE + 0.5 }),
    ...rects,
    includedLine(points, meter, scale),
  );
  const start = Math.max(
    0,
    points.findIndex((p) => p.period === period),
  );
  readBars(element, rects, texts, readout, start);
  return element;
}

function table(
  points: readonly TrendPoint[],
  meter: UsageMeterName,
  unit: MeterFigures['unit'],
  name: string,
): HTMLElement {
  const locale = getLocale();
  // Hidden in a 1 px box of its own: a table does not shrink to 1 px, and stuck out of narrow panels.
  return h(
    'div',
    { class: 'sr-only' },
    h(
      'table',
      { class: 'trend-table' },
      h('caption', {}, t('trendAria', name, points.length)),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { attrs: { scope: 'col' } }, t('col.period')),
          h('th', { attrs: { scope: 'col' } }, t('col.used')),
          h('th', { attrs: { scope: 'col' } }, t('col.included')),
        ),
      ),
      h(
        'tbody',
        {},
        ...points.map((p) =>
          h(
            'tr',
            {},
            h('th', { attrs: { scope: 'row' } }, shortPeriod(p.period, locale)),
            h(
              'td',
              {},
              p.status === 'data'
                ? formatAmount(p.meters[meter].used, unit, locale)
                : p.status === 'noData'
                  ? t('noData')
                  : t('trendFailed', p.message),
            ),
            h('td', {}, p.status === 'data' ? formatAmount(p.meters[meter].included, unit, locale) : ''),
          ),
        ),
      ),
    ),
  );
}

function changeText(
  points: readonly TrendPoint[],
  meter: UsageMeterName,
  unit: MeterFigures['unit'],
  period: string,
): string {
  const change = meterChange(points, period, meter);
  if (!change) return '';
  const locale = getLocale();
  const from = shortPeriod(change.from, locale);
  if (change.percent === undefined)
    return t('trendChangeNew', formatAmount(Math.abs(change.delta), unit, locale), from);
  const sign = change.delta > 0 ? '+' : change.delta < 0 ? '−' : '±';
  return t('trendChange', `${sign}${formatPercent(Math.abs(Math.round(change.percent * 10) / 10), locale)}`, from);
}

/** The trend of one meter for its card; a placeholder of the same size while it loads. */
function renderTrend(
  section: Section<TrendData> | undefined,
  figures: MeterFigures,
  name: string,
  period: string,
): HTMLElement {
  const data = section?.data;
  if (!data) {
    return h(
      'div',
      { class: 'trend', attrs: { 'aria-hidden': section?.status === 'error' ? undefined : 'true' } },
      section?.status === 'error'
        ? h('span', { class: 'trend-error' }, section.error.message)
        : h('span', { class: 'skeleton skeleton-chart' }),
      h('div', { class: 'trend-foot' }, '\u00a0'),
    );
  }
  const readout = h('span', { class: 'trend-readout', attrs: { 'aria-live': 'polite' } });
  return h(
    'div',
    { class: `trend${section?.status === 'loading' ? ' stale' : ''}`, attrs: { 'data-meter': figures.name } },
    chart(data.points, figures.name, figures.unit, period, readout, name),
    table(data.points, figures.name, figures.unit, name),
    h(
      'div',
      { class: 'trend-foot' },
      h(
        'span',
        { class: 'trend-change', attrs: { 'data-part': 'change' } },
        changeText(data.points, figures.name, figures.unit, period),
      ),
      readout,
    ),
  );
}
