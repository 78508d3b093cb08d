// `calls 82 %` in the status bar: the calls meter of the active environment's current
// billing period, coloured at the thresholds, refreshed on a bounded interval. Hidden when
// turned off, when there is no environment or key, and when the key lacks usage:read.
// The same reads feed the usage alerts; the windows share them (one read per interval across
// all windows, see ReadCoordinator), and nothing is read while the item and alerts are off.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { UsageSummary } from '../api/types';
import { currentLocale } from '../core/l10n';
import type { MeterLevel } from '../core/meters';
import { USAGE_METERS, meterFigures, meterTexts } from '../core/meters';
import { currentPeriod, periodLabel } from '../core/period';
import { displayText, safeText } from '../core/text';
import { Commands, Settings } from '../shared/constants';
import type { Services } from '../services';
import { describeError } from '../api/errorText';
import { meterName } from './alerts';
import type { ReadCoordinator } from './persisted';
import type { Crossing } from '../core/breakdown';

const MIN_MINUTES = 1;
const MAX_MINUTES = 1440;

/** The alerts as the status bar needs them. */
export interface AlertsHook {
  enabled(): boolean;
  check(environmentId: string, summary: UsageSummary): Promise<void>;
}

export interface UsageStatusBarView {
  visible: boolean;
  text: string;
  level?: MeterLevel;
  /** The theme colour of the item's background, when it has one. */
  background?: string;
  tooltip: string;
  /** What a screen reader says for the item (`accessibilityInformation`). */
  accessibility?: string;
}

export class UsageStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'engagementUsage.usageCalls',
    vscode.StatusBarAlignment.Left,
    49,
  );
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer?: ReturnType<typeof setInterval>;
  private intervalMs = 0;
  private inFlight?: Promise<void>;
  private shownFor?: string;
  private visible = false;
  private tooltipText = '';

  constructor(
    private readonly services: Services,
    private readonly coordinator: ReadCoordinator,
    private readonly alerts: AlertsHook,
  ) {
    this.item.name = vscode.l10n.t('Engagements API Calls');
    this.item.command = Commands.openUsageDashboard;
    const { connection, environments: store } = services;
    this.subscriptions.push(
      connection.onDidChange(() => void this.refresh()),
      store.onDidChangeCapabilities((id) => {
        if (id !== store.active()?.id) return;
        const usage = store.capabilities(id).usage;
        if (usage === false) this.hide();
        else if (!this.visible) void this.refresh();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (
          [
            Settings.usageStatusBar,
            Settings.usageStatusBarRefreshMinutes,
            Settings.usageAlerts,
            Settings.usageAlertThresholds,
          ].some((s) => event.affectsConfiguration(`${Settings.section}.${s}`))
        )
          void this.refresh();
      }),
      // Not at activation: the first read waits until a view or panel is on screen.
      services.shown.whenShown(() => void this.refresh()),
    );
  }

  private enabled(): boolean {
    return vscode.workspace.getConfiguration(Settings.section).get<boolean>(Settings.usageStatusBar, true) !== false;
  }

  /** The refresh interval from the setting, bounded to 1 minute – 1 day. */
  intervalMsFromSettings(): number {
    const minutes = vscode.workspace
      .getConfiguration(Settings.section)
      .get<number>(Settings.usageStatusBarRefreshMinutes, 15);
    return Math.min(MAX_MINUTES, Math.max(MIN_MINUTES, Number.isFinite(minutes) ? Math.round(minutes) : 15)) * 60_000;
  }

  /** Whether anything needs the reads: the item, or the alerts. */
  polling(): boolean {
    return this.timer !== undefined;
  }

  private schedule(): void {
    const ms = this.intervalMsFromSettings();
    if (this.timer && ms === this.intervalMs) return;
    this.stopTimer();
    this.intervalMs = ms;
    this.timer = setInterval(() => void this.refresh(), ms);
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Reads the current period's summary and shows it (one request at a time). */
  refresh(): Promise<void> {
    this.inFlight ??= this.refreshNow().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async refreshNow(now?: number, windowId?: string): Promise<void> {
    const { environments: store, vault, connection } = this.services;
    const env = store.active();
    const item = this.enabled();
    if (
      (!item && !this.alerts.enabled()) ||
      !env ||
      store.capabilities(env.id).usage === false ||
      !(await vault.usable(env))
    ) {
      this.stopTimer();
      this.hide();
      return;
    }
    this.schedule();
    if (!item) this.hide();
    const api = connection.api;
    if (!api) return this.hide();
    const period = currentPeriod(now);
    try {
      const claim = this.coordinator.claim(env.id, period, this.intervalMs, now, windowId);
      let summary: UsageSummary;
      if (claim.read) {
        this.services.recorder.statusBarRead('reads');
        summary = await api.usage.summary(period);
        this.coordinator.publish(env.id, summary, now ?? Date.now(), windowId);
      } else {
        this.services.recorder.statusBarRead('shared');
        summary = claim.summary;
      }
      if (store.active()?.id !== env.id) return;
      if (item) this.show(env.id, summary);
      await this.alerts.check(env.id, summary);
    } catch (error) {
      if (isApiError(error) && (error.kind === 'forbidden' || error.kind === 'unauthorized')) return this.hide();
      if (this.shownFor !== env.id) return this.hide();
      // Keep the last figure, and say it could not be refreshed.
      this.tooltipText = `${this.tooltipText.split('\n\n⚠')[0]}\n\n⚠ ${vscode.l10n.t('Could not refresh: {0}', describeError(error, env.label))}`;
      this.item.tooltip = safeText(this.tooltipText);
    }
  }

  /** Shows a summary read elsewhere (the dashboard) when it is the active environment's current period. */
  showSummaryReadElsewhere(environmentId: string, summary: UsageSummary): void {
    if (this.services.environments.active()?.id !== environmentId || summary.billingPeriod !== currentPeriod()) return;
    // A read is a read: the other windows need not make theirs this interval.
    this.coordinator.publish(environmentId, summary, Date.now());
    if (this.enabled()) this.show(environmentId, summary);
    void this.alerts.check(environmentId, summary);
  }

  /** Per environment: the day its calls passed the included amount, as a dashboard's breakdown found it. */
  private readonly crossings = new Map<string, { period: string; crossing: Crossing }>();
  private lastSummary?: { environmentId: string; summary: UsageSummary };

  /** The day an environment's calls passed their included amount (from the dashboard's day-by-day data). */
  showCrossing(environmentId: string, period: string, crossing: Crossing): void {
    this.crossings.set(environmentId, { period, crossing });
    const last = this.lastSummary;
    if (last?.environmentId === environmentId && last.summary.billingPeriod === period && this.visible)
      this.show(environmentId, last.summary);
  }

  /**
   * One tick of the timer as a window with this id would run it at `now` (tests: a second
   * window sharing this window's global state). The same code the timer runs.
   */
  tick(windowId: string, now: number): Promise<void> {
    return this.refreshNow(now, windowId);
  }

  /** Shows the calls of a summary. */
  private show(environmentId: string, summary: UsageSummary): void {
    this.lastSummary = { environmentId, summary };
    const known = this.crossings.get(environmentId);
    const look = usageLook(
      summary,
      this.services.environments.list().find((e) => e.id === environmentId),
      known?.period === summary.billingPeriod ? known.crossing : undefined,
    );
    const { percent, level } = look;
    // A shape as well as the colour: a warning sign from 80 %, an error sign past the included amount.
    const icon = level === 'error' ? '$(error)' : level === 'warning' ? '$(warning)' : '$(graph)';
    this.item.text = `${icon} ${vscode.l10n.t('calls {0}', percent)}`;
    this.item.backgroundColor = look.background ? new vscode.ThemeColor(look.background) : undefined;
    this.tooltipText = look.tooltip;
    this.item.tooltip = safeText(this.tooltipText);
    this.item.accessibilityInformation = { label: look.accessibility };
    this.item.show();
    this.visible = true;
    this.shownFor = environmentId;
    this.level = level;
  }

  private level?: MeterLevel;

  private hide(): void {
    this.item.hide();
    this.visible = false;
    this.shownFor = undefined;
    this.level = undefined;
  }

  view(): UsageStatusBarView {
    return {
      visible: this.visible,
      text: this.item.text,
      level: this.level,
      background: this.item.backgroundColor?.id,
      tooltip: typeof this.item.tooltip === 'string' ? this.item.tooltip : '',
      accessibility: this.visible ? this.item.accessibilityInformation?.label : undefined,
    };
  }

  dispose(): void {
    this.stopTimer();
    for (const s of this.subscriptions) s.dispose();
    this.item.dispose();
  }
}

/** When the calls passed their included amount: the day the records show, never a projected date. */
function crossingLine(crossing: Crossing | undefined, locale: string | undefined): string {
  if (!crossing)
    return vscode.l10n.t(
      "API calls are past the included amount; the usage dashboard's breakdown shows the day they passed it.",
    );
  const day = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${crossing.day}T00:00:00Z`),
  );
  return crossing.exact
    ? vscode.l10n.t('API calls passed the included amount on {0} (UTC, from the records).', day)
    : vscode.l10n.t(
        "API calls passed the included amount around {0} (UTC, the records' daily shape scaled to the calls).",
        day,
      );
}

// How the calls item looks for a summary: its share, colour, tooltip and what a screen reader says.

/** The status bar's yellow: the calls meter is at or past its warning threshold. */
const USAGE_WARNING_BACKGROUND = 'statusBarItem.warningBackground';

interface UsageLook {
  /** The calls' share of the included amount, as shown ("85%"). */
  percent: string;
  level: MeterLevel;
  /** The theme colour of the item's background, when it has one. */
  background?: string;
  /** Plain text (the caller makes it safe). */
  tooltip: string;
  accessibility: string;
}

function usageLook(
  summary: UsageSummary,
  env: { label: string; production?: boolean } | undefined,
  crossing: Crossing | undefined,
): UsageLook {
  const locale = currentLocale();
  const calls = meterFigures('calls', summary.usage.calls);
  const percent = meterTexts(calls, locale).percent;
  const lines = USAGE_METERS.map((name) => {
    const texts = meterTexts(meterFigures(name, summary.usage[name]), locale);
    return `${meterName(name)}: ${vscode.l10n.t('{0} of {1}', texts.used, texts.included)} (${texts.percent})${texts.overage ? ` ${vscode.l10n.t('overage {0}', texts.overage)}` : ''}`;
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
      `${periodLabel(summary.billingPeriod, locale)} · ${summary.tier}`,
      ...lines,
      ...(calls.level === 'error' ? [crossingLine(crossing, locale)] : []),
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
