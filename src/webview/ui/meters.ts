// The three meters: a bar of used against included, the figures, the percentage, and the
// overage past 100 %. `role="meter"` with its values for assistive technology.
import { meterTexts, type MeterFigures } from '../../core/meters';
import type { Section, SummaryData } from '../protocol';
import { getLocale, t } from './context';
import { h } from './dom';
import { errorBox } from './states';

const METERS = ['calls', 'webhooks', 'storage_gb'] as const;

function meterCard(figures: MeterFigures): HTMLElement {
  const texts = meterTexts(figures, getLocale());
  const name = t(`meter.${figures.name}`);
  const fill = h('div', { class: 'fill' });
  fill.style.width = `${(figures.fill * 100).toFixed(2)}%`;
  const bar = h(
    'div',
    {
      class: 'bar',
      attrs: {
        role: 'meter',
        'aria-label': name,
        'aria-valuemin': 0,
        'aria-valuemax': Math.max(figures.included, figures.used),
        'aria-valuenow': figures.used,
        'aria-valuetext': t('meterAria', name, texts.used, texts.included, figures.percent === undefined ? t('meterNoAllowance') : texts.percent) + (texts.overage ? `, ${t('meterOverage', texts.overage)}` : ''),
      },
    },
    fill,
  );
  return h(
    'div',
    { class: `meter-card level-${figures.level}`, attrs: { 'data-meter': figures.name } },
    h('div', { class: 'meter-top' }, h('h3', {}, name), h('span', { class: 'percent', attrs: { 'data-part': 'percent' } }, texts.percent)),
    bar,
    h('div', { class: 'figures', attrs: { 'data-part': 'figures' } }, t('meterOf', texts.used, figures.included > 0 ? texts.included : t('meterNoAllowance'))),
    h('div', { class: 'overage', attrs: { 'data-part': 'overage', 'aria-hidden': texts.overage ? undefined : 'true' } }, texts.overage ? t('meterOverage', texts.overage) : '\u00a0'),
  );
}

function skeletonCard(name: (typeof METERS)[number]): HTMLElement {
  return h(
    'div',
    { class: 'meter-card skeleton-card', attrs: { 'data-meter': name, 'aria-hidden': 'true' } },
    // The same boxes and line heights as a loaded card, so nothing moves when the data comes.
    h('div', { class: 'meter-top' }, h('h3', {}, t(`meter.${name}`)), h('span', { class: 'percent' }, h('span', { class: 'skeleton skeleton-text short' }), '\u00a0')),
    h('div', { class: 'bar' }, h('div', { class: 'skeleton skeleton-bar' })),
    h('div', { class: 'figures' }, h('span', { class: 'skeleton skeleton-text' }), '\u00a0'),
    h('div', { class: 'overage' }, '\u00a0'),
  );
}

export function renderMeters(section: Section<SummaryData>): HTMLElement[] {
  const heading = h('h2', {}, t('metersHeading'));
  const data = section.data;
  const cards = h('div', { class: `meters${section.status === 'loading' && data ? ' stale' : ''}`, attrs: { 'aria-busy': section.status === 'loading' ? 'true' : undefined } });
  if (data) for (const figures of data.meters) cards.append(meterCard(figures));
  else for (const name of METERS) cards.append(skeletonCard(name));
  return [heading, section.status === 'error' ? errorBox(section.error) : null, cards].filter((x): x is HTMLElement => x !== null);
}
