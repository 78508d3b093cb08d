// How the calls item looks for a summary: its share, colour, tooltip and what a screen reader
// says. Loaded with the first summary shown (the item waits for a view on screen anyway).
import * as vscode from 'vscode';
import type { UsageSummary } from '../api/types';
import { currentLocale } from '../core/l10n';
import { meterFigures, meterTexts, USAGE_METERS, type MeterLevel } from '../core/meters';
import { displayText } from '../core/text';

/** The status bar's yellow: the calls meter is at or past its warning threshold. */
const USAGE_WARNING_BACKGROUND = 'statusBarItem.warningBackground';

export interface UsageLook {
  /** The calls' share of the included amount, as shown ("85%"). */
  percent: string;
  level: MeterLevel;
  /** The theme colour of the item's background, when it has one. */
  background?: string;
  /** Plain text (the caller makes it safe). */
  tooltip: string;
  accessibility: string;
}

export function usageLook(summary: UsageSummary, env: { label: string; production?: boolean } | undefined): UsageLook {
  const locale = currentLocale();
  const calls = meterFigures('calls', summary.usage.calls);
  const percent = meterTexts(calls, locale).percent;
  const lines = USAGE_METERS.map((name) => {
    const texts = meterTexts(meterFigures(name, summary.usage[name]), locale);
    return `${name}: ${vscode.l10n.t('{0} of {1}', texts.used, texts.included)} (${texts.percent})${texts.overage ? ` ${vscode.l10n.t('overage {0}', texts.overage)}` : ''}`;
  });
  const state =
    calls.level === 'error'
      ? vscode.l10n.t('over the included amount')
      : calls.level === 'warning'
        ? vscode.l10n.t('near the included amount')
        : vscode.l10n.t('within the included amount');
  return {
    percent,
    level: calls.level,
    // One meaning per colour: yellow is "calls need attention" (80 % of the included amount
    // or more; the text says how far past). Red is kept for the production environment.
    background: calls.level === 'normal' ? undefined : USAGE_WARNING_BACKGROUND,
    tooltip: [
      `${summary.billingPeriod} · ${summary.tier}`,
      ...lines,
      vscode.l10n.t('Click to open the usage dashboard'),
    ].join('\n\n'),
    accessibility: vscode.l10n.t(
      'Usage of {0}{1}: API calls this billing period {2} of the included amount, {3}',
      displayText(env?.label ?? ''),
      env?.production ? `, ${vscode.l10n.t('production')}` : '',
      percent,
      state,
    ),
  };
}
