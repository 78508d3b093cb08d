// Opt-in usage alerts: a meter of the active environment past a threshold of its included
// amount, or projected to pass it by the period's end. Each alert is shown once per
// environment, period, meter and threshold across all windows (remembered in the global
// state before it is shown), with "Open Usage Dashboard" and "Don't Show Again for This
// Period". The summaries come from the status bar's reads and the dashboard's; this class
// never reads on its own.
import * as vscode from 'vscode';
import type { UsageSummary } from '../api/types';
import type { DueAlert } from '../core/alerts';
import { alertId, alertThresholds, dueAlerts } from '../core/alerts';
import { currentLocale } from '../core/l10n';
import { formatCount } from '../core/format';
import type { KeyBudgetAlert } from '../core/keyBudget';
import { dueKeyBudgets, keyBudgetAlertId, keyBudgets } from '../core/keyBudget';
import type { KeyCalls } from '../core/trend';
import { USAGE_METERS, formatAmount, meterFigures, meterTexts, periodProgress, projectPeriod } from '../core/meters';
import { currentPeriod, periodLabel } from '../core/period';
import { Commands, Settings } from '../shared/constants';
import type { MementoLike } from '../shared/perEnvironment';
import { saveFailed } from '../shared/perEnvironment';
import type { Services } from '../services';
import { AlertMarks } from './persisted';

export class UsageAlerts {
  private readonly marks: AlertMarks;

  /**
   * A failed save of the marks the alerts leave is logged only: the user did nothing, and at
   * worst an alert shows once more. A failed save of "Don't Show Again" loses the user's
   * choice in other windows and after a restart: the user is told.
   */
  constructor(
    private readonly services: Services,
    memento: MementoLike,
    key: string,
  ) {
    this.marks = new AlertMarks(memento, key, saveFailed(services, 'the usage alerts shown'));
  }

  enabled(): boolean {
    return vscode.workspace.getConfiguration(Settings.section).get<boolean>(Settings.usageAlerts, false) === true;
  }

  forget(environmentId: string): void {
    this.marks.forget(environmentId);
  }

  /** Drops what was remembered for environments that no longer exist. */
  keepOnly(environmentIds: readonly string[]): void {
    this.marks.keepOnly(environmentIds);
  }

  private queue: Promise<void> = Promise.resolve();

  /** Checks a summary of an environment; shows what is due. Checks run one after the other, so two reads never show one alert twice. */
  check(environmentId: string, summary: UsageSummary, now = Date.now()): Promise<void> {
    const next = this.queue.then(() => this.checkNow(environmentId, summary, now));
    this.queue = next.catch((error: unknown) => this.services.log.warn(`Usage alerts: ${String(error)}`));
    return next;
  }

  private async checkNow(environmentId: string, summary: UsageSummary, now: number): Promise<void> {
    const period = summary.billingPeriod;
    if (!this.enabled() || period !== currentPeriod(now) || this.services.environments.active()?.id !== environmentId)
      return;
    const env = this.services.environments.get(environmentId);
    if (!env) return;
    const thresholds = alertThresholds(
      vscode.workspace.getConfiguration(Settings.section).get<unknown>(Settings.usageAlertThresholds),
    );
    const meters = USAGE_METERS.map((name) => meterFigures(name, summary.usage[name]));
    const shown = this.marks.read(environmentId);
    if (shown[`${environmentId}|${period}|muted`]) return;
    const due = dueAlerts(
      environmentId,
      period,
      meters,
      thresholds,
      projectPeriod(period, meters, now),
      (id) => id in shown,
    );
    if (due.length === 0) return;
    // Remembered before they are shown: another window checking meanwhile finds them.
    await this.marks.remember(
      environmentId,
      due.flatMap((alert) => alert.covers.map((trigger) => alertId(environmentId, period, alert.meter, trigger))),
      now,
    );
    for (const alert of due) void this.show(environmentId, env.label, period, alert);
  }

  /** The budgets of the setting (by key name or id). */
  keyBudgets(): Map<string, number> {
    return keyBudgets(vscode.workspace.getConfiguration(Settings.section).get<unknown>(Settings.usageKeyBudgets));
  }

  /**
   * Checks a period's keys against their budgets (a budget set is the opt-in): a key past its
   * budget, or projected past it by the period's end, is told once per period and key.
   */
  checkKeys(environmentId: string, period: string, keys: readonly KeyCalls[], now = Date.now()): Promise<void> {
    const next = this.queue.then(() => this.checkKeysNow(environmentId, period, keys, now));
    this.queue = next.catch((error: unknown) => this.services.log.warn(`Usage alerts: ${String(error)}`));
    return next;
  }

  private async checkKeysNow(
    environmentId: string,
    period: string,
    keys: readonly KeyCalls[],
    now: number,
  ): Promise<void> {
    const budgets = this.keyBudgets();
    const env = this.services.environments.get(environmentId);
    if (budgets.size === 0 || !env || period !== currentPeriod(now)) return;
    const shown = this.marks.read(environmentId);
    if (shown[`${environmentId}|${period}|muted`]) return;
    const due = dueKeyBudgets(environmentId, period, keys, budgets, periodProgress(period, now), (id) => id in shown);
    if (due.length === 0) return;
    await this.marks.remember(
      environmentId,
      due.map((alert) => keyBudgetAlertId(environmentId, period, alert.keyId)),
      now,
    );
    for (const alert of due) void this.showKey(environmentId, env.label, period, alert);
  }

  private async showKey(environmentId: string, label: string, period: string, alert: KeyBudgetAlert): Promise<void> {
    const locale = currentLocale();
    const month = periodLabel(period, locale);
    const text =
      alert.trigger === 'passed'
        ? vscode.l10n.t(
            '{0}: the key "{1}" made {2} calls in {3}, past its budget of {4}.',
            label,
            alert.name,
            formatCount(alert.calls, locale),
            month,
            formatCount(alert.budget, locale),
          )
        : vscode.l10n.t(
            '{0}: the key "{1}" is projected to pass its budget of {2} calls in {3} (estimate at its pace so far: {4}; {5} so far).',
            label,
            alert.name,
            formatCount(alert.budget, locale),
            month,
            formatCount(alert.projected ?? alert.calls, locale),
            formatCount(alert.calls, locale),
          );
    this.services.recorder.alertRaised(text);
    this.services.log.info(`Usage alert (key budget, ${alert.trigger}) for ${label} in ${period}.`);
    const open = vscode.l10n.t('Open Usage Dashboard');
    const mute = vscode.l10n.t("Don't Show Again for This Period");
    const choice = await this.services.ui.current.message('warning', text, {}, open, mute);
    if (choice === open) await vscode.commands.executeCommand(Commands.openUsageDashboard, environmentId);
    else if (choice === mute) await this.mute(environmentId, label, period);
  }

  private async show(environmentId: string, label: string, period: string, alert: DueAlert): Promise<void> {
    const locale = currentLocale();
    const meter = meterName(alert.meter);
    const texts = meterTexts(alert.figures, locale);
    const month = periodLabel(period, locale);
    const parts: string[] = [];
    if (alert.trigger !== 'projected')
      parts.push(
        vscode.l10n.t(
          '{0}: {1} reached {2} of the included amount in {3} ({4} of {5}).',
          label,
          meter,
          texts.percent,
          month,
          texts.used,
          texts.included,
        ),
      );
    if (alert.overBy !== undefined && alert.projected !== undefined) {
      const day = alert.exceedsOn
        ? new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
            new Date(`${alert.exceedsOn}T00:00:00Z`),
          )
        : '';
      const by = formatAmount(alert.overBy, alert.figures.unit, locale);
      parts.push(
        alert.trigger === 'projected'
          ? vscode.l10n.t(
              '{0}: {1} is projected to pass its included amount by {2} around {3} (estimate at the current pace: {4} by the end of {5}).',
              label,
              meter,
              by,
              day,
              formatAmount(alert.projected, alert.figures.unit, locale),
              month,
            )
          : vscode.l10n.t('At the current pace it passes the included amount by {0} around {1} (estimate).', by, day),
      );
    }
    const text = parts.join(' ');
    this.services.recorder.alertRaised(text);
    this.services.log.info(`Usage alert (${alert.meter}, ${String(alert.trigger)}) for ${label} in ${period}.`);
    const open = vscode.l10n.t('Open Usage Dashboard');
    const mute = vscode.l10n.t("Don't Show Again for This Period");
    const level =
      alert.figures.level === 'error' ||
      alert.trigger === 'projected' ||
      (typeof alert.trigger === 'number' && alert.trigger >= 100)
        ? 'warning'
        : 'info';
    const choice = await this.services.ui.current.message(level, text, {}, open, mute);
    if (choice === open) await vscode.commands.executeCommand(Commands.openUsageDashboard, environmentId);
    else if (choice === mute) await this.mute(environmentId, label, period);
  }

  /** "Don't Show Again for This Period": something the user did, so a failed save is told. */
  private async mute(environmentId: string, label: string, period: string): Promise<void> {
    const lost = vscode.l10n.t(
      'Could not save "Don\'t Show Again" for {0}: its usage alerts may show again in {1}.',
      label,
      periodLabel(period, currentLocale()),
    );
    await this.marks.remember(environmentId, [`${environmentId}|${period}|muted`], Date.now(), lost);
  }
}

/** A meter's name in words ("API calls", "Webhooks", "Storage"), wherever one is named to a person. */
export function meterName(meter: DueAlert['meter']): string {
  switch (meter) {
    case 'calls':
      return vscode.l10n.t('API calls');
    case 'webhooks':
      return vscode.l10n.t('Webhooks');
    case 'storage_gb':
      return vscode.l10n.t('Storage');
  }
}
