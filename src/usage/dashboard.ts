// The state of one environment's dashboard and the requests that fill it: what it shows when it
// opens, what a failed read means for it, and what of it is kept. The panel posts this state
// to the webview; tests read it through the exports. Every HTTP request goes through the
// environment's ServiceApi.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { ServiceApi } from '../api/service';
import type { UsageSummary } from '../api/types';
import { currentLocale } from '../core/l10n';
import { projectPeriod } from '../core/meters';
import { choosePeriod, currentPeriod, periodLabel } from '../core/period';
import type { KeySort, RecordFilter } from '../core/records';
import { isFilterActive, keyColumn, sortKeyRows } from '../core/records';
import type { Environment } from '../session/model';
import type { Services } from '../services';
import { describeError, serviceReason } from '../api/errorText';
import type { KeysByMask, SectionData, SectionName } from './sections';
import {
  ByKeyReads,
  PERIOD_SECTIONS,
  RecordsPages,
  RecordsScan,
  SECTIONS,
  SummaryReads,
  filterKeyName,
  readFilteredPage,
  readKeys,
  readRecordsPage,
  recordsShown,
  summarySection,
} from './sections';
import { readTrend } from '../api/usage';
import type { KeyCalls } from '../core/trend';
import type { Crossing } from '../core/breakdown';
import { breakdownOf } from './breakdown';
import { keysOverTime } from './keyTrends';
import type { BreakdownChoice } from './protocol';
import type { Blocked, DashboardState, ErrorView, ExportView, Section, TrendData, ViewState } from './protocol';
import type { SavedDashboard, UsageHistory } from './persisted';

export interface DashboardHooks {
  /** The state changed (post it). */
  changed(): void;
  /** What an earlier dashboard of this environment showed last. */
  saved?(environmentId: string): SavedDashboard | undefined;
  /** Everything loaded: keep it for the next time. */
  save?(environmentId: string, saved: SavedDashboard): void;
  /** A summary was read (the status bar reuses the current period's). */
  summaryLoaded?(environmentId: string, summary: UsageSummary): void;
  /** Closed periods of the trend, kept across sessions and windows. */
  history?: UsageHistory;
  /** The per-key budgets of the setting (by key name or id). */
  keyBudgets?(): ReadonlyMap<string, number>;
  /** A period's keys were read (the budget warnings check them). */
  keysLoaded?(environmentId: string, period: string, keys: KeyCalls[]): void;
  /** The day the calls meter of a period passed its included amount was found in its records. */
  crossingFound?(environmentId: string, period: string, crossing: Crossing): void;
}

export class Dashboard {
  readonly state: DashboardState;
  private readonly controllers: Partial<Record<SectionName, AbortController>> = {};
  private readonly running = new Set<Promise<unknown>>();
  private disposed = false;
  /** Every record of the period, read for a filter (and the filtered export). */
  readonly scan = new RecordsScan();
  /** What the records table learned of the service's paging for the period shown. */
  private readonly pages = new RecordsPages();
  /** Summaries asked for during one load: the trend and the meters share the current period's. */
  private readonly summaries = new SummaryReads((summary) => this.hooks.summaryLoaded?.(this.environmentId, summary));
  /** Usage by key asked for during one load: the per-key table and the per-key trends share a period's. */
  private readonly byKeys = new ByKeyReads();
  /** The per-key table's masked ids → the key id and name (host side only). */
  private keysByMask: KeysByMask = new Map();

  constructor(
    private readonly services: Services,
    view: ViewState,
    private readonly hooks: DashboardHooks,
  ) {
    const env = services.environments.get(view.environmentId);
    this.state = initialState(view, env, hooks.saved?.(view.environmentId));
  }

  /** The state as the webview shows it: the records' key ids as the per-key table shows them. */
  shown(): DashboardState {
    const data = this.state.details.data;
    const keys = this.state.keys.data;
    const perKey =
      keys && this.state.trend.data
        ? keysOverTime(keys, this.keysByMask, this.state.trend.data, this.hooks.keyBudgets?.() ?? new Map(), Date.now())
        : undefined;
    return {
      ...this.state,
      ...(data ? { details: { ...this.state.details, data: recordsShown(data, this.keysByMask) } } : {}),
      ...(keys && perKey ? { keys: { ...this.state.keys, data: { ...keys, ...perKey } } } : {}),
    };
  }

  get environmentId(): string {
    return this.state.view.environmentId;
  }

  environment(): Environment | undefined {
    return this.services.environments.get(this.environmentId);
  }

  /** The client of this dashboard's environment (the shared one when it is the active environment). */
  api(): ServiceApi | undefined {
    const env = this.environment();
    if (!env) return undefined;
    return this.services.connection.environment?.id === env.id
      ? this.services.connection.api
      : this.services.connection.createApi(env);
  }

  /** Resolves once nothing this dashboard started is still running. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    void work.finally(() => this.running.delete(work)).catch(() => undefined);
    return work;
  }

  /** Reads everything again (keeping the data on screen while it loads). */
  load(sections: readonly SectionName[] = SECTIONS): Promise<void> {
    return this.track(this.loadNow(sections));
  }

  private async loadNow(sections: readonly SectionName[]): Promise<void> {
    const env = this.environment();
    this.state.currentPeriod = currentPeriod();
    if (!env) return this.block(removedBlock());
    this.state.environment = { id: env.id, label: env.label, production: env.production === true };
    if (!(await this.services.vault.usable(env))) return this.block(noKeyBlock(env.label));
    this.state.blocked = undefined;
    this.summaries.clear();
    this.byKeys.clear();
    // Refresh reads the whole period again too.
    if (sections.length === SECTIONS.length) {
      this.scan.clear(currentPeriod());
      this.pages.clear();
      // A breakdown of the current period is of records read before: it goes (asked for again, it is read again).
      const shown = this.state.breakdown?.data?.period;
      if (shown !== undefined && !this.scan.cached(shown)) this.state.breakdown = undefined;
    }
    const succeeded = await Promise.all(sections.map((name) => this.loadSection(name)));
    project(this.state, this.scan);
    this.breakDownKept();
    if (succeeded.some(Boolean)) {
      this.state.updatedAt = Date.now();
      const saved = toSave(this.state);
      if (saved) this.hooks.save?.(this.environmentId, saved);
    }
    this.hooks.changed();
  }

  private block(blocked: Parameters<typeof blockState>[1]): void {
    for (const name of SECTIONS) this.controllers[name]?.abort();
    this.breakdownController?.abort();
    this.scan.clear();
    this.pages.clear();
    blockState(this.state, blocked);
    this.hooks.changed();
  }

  private fetch<K extends SectionName>(name: K, api: ServiceApi, signal: AbortSignal): Promise<SectionData[K]>;
  private async fetch(name: SectionName, api: ServiceApi, signal: AbortSignal): Promise<SectionData[SectionName]> {
    const { period, sort, filter } = this.state.view;
    switch (name) {
      case 'summary':
        return summarySection(await this.summaries.of(api, period, signal), period);
      case 'keys': {
        const keys = await readKeys(
          this.byKeys.of(api, period, signal),
          period,
          sort,
          this.services.vault.get(this.environmentId),
        );
        this.keysByMask = keys.byMask;
        this.nameFilterKey();
        this.hooks.keysLoaded?.(
          this.environmentId,
          period,
          keys.data.rows.flatMap((row) => {
            const key = keys.byMask.get(row.maskedKeyId);
            return key ? [{ keyId: key.keyId, name: key.name, calls: row.calls }] : [];
          }),
        );
        return keys.data;
      }
      case 'trend':
        return this.readTrend(api, signal);
      case 'details':
        return isFilterActive(filter)
          ? readFilteredPage(this.scan, api, this.state, filter, signal, () => this.hooks.changed())
          : readRecordsPage(api, this.state.view, signal, this.pages);
    }
  }

  private async readTrend(api: ServiceApi, signal: AbortSignal): Promise<SectionData['trend']> {
    const env = this.environment();
    const history =
      this.hooks.history && env
        ? { store: this.hooks.history, environmentId: env.id, baseUrl: env.baseUrl }
        : undefined;
    const read = await readTrend(
      (p) => this.summaries.of(api, p, signal),
      history,
      currentPeriod(),
      (error) => describeError(error, this.state.environment.label),
      (p) => this.byKeys.of(api, p, signal),
    );
    this.services.recorder.trendRequests(this, read.requests);
    return read.data;
  }

  /** Resolves to true when the section loaded. */
  private async loadSection(name: SectionName): Promise<boolean> {
    this.controllers[name]?.abort();
    const controller = new AbortController();
    this.controllers[name] = controller;
    const kept = keptWhileLoading(this.state[name].data, this.state.view.period);
    this.setSection(name, { status: 'loading', data: kept });
    this.hooks.changed();
    const api = this.api();
    if (!api) return false;
    try {
      const data = await this.fetch(name, api, controller.signal);
      if (controller.signal.aborted || this.disposed) return false;
      this.setSection(name, { status: 'ready', data });
      return true;
    } catch (error) {
      if (controller.signal.aborted || this.disposed) return false;
      this.fail(name, error, kept);
      return false;
    } finally {
      if (this.controllers[name] === controller) delete this.controllers[name];
      this.hooks.changed();
    }
  }

  private setSection<K extends SectionName>(name: K, section: Section<SectionData[K]>): void {
    (this.state as unknown as Record<SectionName, Section<unknown>>)[name] = section;
  }

  private fail(name: SectionName, error: unknown, kept: SectionData[SectionName] | undefined): void {
    const label = this.state.environment.label;
    const failure = failureOf(error, label);
    if ('blocked' in failure) return this.block(failure.blocked);
    this.services.log.warn(
      `Usage dashboard of "${label}": could not load ${name} — ${error instanceof Error ? error.message : String(error)}`,
    );
    this.setSection(name, { status: 'error', error: failure.error, data: kept });
  }

  // ---- what the webview asks for ----

  setPeriod(input: string): Promise<void> {
    const choice = choosePeriod(input);
    if (!choice.ok) {
      this.state.notice = { level: 'warning', text: periodRefused(input, choice.reason) };
      this.hooks.changed();
      return Promise.resolve();
    }
    this.state.notice = undefined;
    if (choice.period === this.state.view.period) return this.load();
    this.state.view.period = choice.period;
    this.state.view.page = 1;
    this.state.updatedAt = undefined;
    // "Exported … to …" told of the period left behind; an export still running stays.
    if (this.state.export?.phase !== 'running') this.state.export = undefined;
    return this.load(PERIOD_SECTIONS);
  }

  // ---- the records filter ----

  setFilter(asked: RecordFilter): Promise<void> {
    const filter = this.keyGroupAsKey(asked);
    this.state.view.filter = isFilterActive(filter) ? { ...filter } : undefined;
    this.state.view.page = 1;
    this.nameFilterKey();
    return this.load(['details']);
  }

  /** A click on a key of the per-key table: the records of that key (the webview knows only the masked id). */
  filterKey(maskedKeyId: string): Promise<void> {
    const key = this.keysByMask.get(maskedKeyId);
    if (!key) return Promise.resolve();
    return this.setFilter({ ...this.state.view.filter, keyId: key.keyId });
  }

  /** A group of the breakdown by key is the key's filter (the webview knows its masked id only). */
  private keyGroupAsKey(filter: RecordFilter): RecordFilter {
    const group = filter.group;
    const column = this.state.breakdown?.data?.breakdown.column;
    if (!group || column === undefined || group.column !== column || column !== keyColumnOf(this.state)) return filter;
    const key = this.keysByMask.get(group.value) ?? this.groupKeys.get(group.value);
    if (!key) return filter;
    const rest = { ...filter };
    delete rest.group;
    return { ...rest, keyId: key.keyId };
  }

  /** Masked ids of the breakdown's key groups → the key (ids the per-key table does not list, too). */
  private groupKeys: KeysByMask = new Map();
  private breakdownController?: AbortController;

  /** Reads the period whole (at most the cap, with progress and Cancel), then breaks it down. */
  readBreakdown(): Promise<void> {
    return this.track(this.readBreakdownNow());
  }

  private async readBreakdownNow(): Promise<void> {
    const api = this.api();
    const period = this.state.view.period;
    if (!api || this.state.blocked) return;
    this.breakdownController?.abort();
    const controller = new AbortController();
    this.breakdownController = controller;
    const kept = this.state.breakdown?.data?.period === period ? this.state.breakdown.data : undefined;
    this.state.breakdown = { status: 'loading', data: kept };
    this.hooks.changed();
    try {
      await this.scan.read(
        api,
        period,
        (loaded, total) => {
          if (controller.signal.aborted) return;
          this.state.scan = { phase: 'running', purpose: 'breakdown', loaded, total };
          this.hooks.changed();
        },
        controller.signal,
      );
      if (controller.signal.aborted || this.disposed || this.state.view.period !== period) return;
      this.breakDownKept();
    } catch (error) {
      if (controller.signal.aborted || this.disposed) return;
      if (isApiError(error) && error.kind === 'cancelled') this.state.breakdown = undefined;
      else {
        const failure = failureOf(error, this.state.environment.label);
        if ('blocked' in failure) return this.block(failure.blocked);
        this.state.breakdown = { status: 'error', error: failure.error, data: kept };
      }
    } finally {
      if (this.breakdownController === controller) {
        this.breakdownController = undefined;
        if (this.state.scan?.purpose === 'breakdown') this.state.scan = undefined;
      }
      this.hooks.changed();
    }
  }

  /** Groups by another column, or sums another (the records read are kept: nothing is read). */
  setBreakdown(choice: BreakdownChoice): void {
    this.state.view.breakdown = { ...choice };
    this.breakDownKept();
    this.hooks.changed();
  }

  /** The breakdown of the period shown, from its records when they were read (else as it was). */
  private breakDownKept(): void {
    const period = this.state.view.period;
    const scan = this.scan.cached(period);
    if (!scan) {
      if (this.state.breakdown?.data && this.state.breakdown.data.period !== period) this.state.breakdown = undefined;
      return;
    }
    const summary = this.state.summary.data;
    const calls = summary?.period === period ? summary.meters.find((m) => m.name === 'calls') : undefined;
    const made = breakdownOf(scan, this.state.view.breakdown, this.keysByMask, Date.now(), calls);
    this.groupKeys = made.groupKeys;
    if (!made.data.columns.includes(this.state.view.breakdown?.column ?? '')) this.state.view.breakdown = undefined;
    this.state.breakdown = { status: 'ready', data: made.data };
    if (made.data.crossing) this.hooks.crossingFound?.(this.environmentId, period, made.data.crossing);
  }

  /** Stops reading the whole period: the filter is dropped and the records are paged as before. */
  cancelScan(): Promise<void> {
    if (this.state.scan?.purpose === 'breakdown' || this.breakdownController) {
      this.breakdownController?.abort();
      this.scan.cancel();
      this.state.scan = undefined;
      // What was read of the period before stays; a read that had not ended leaves nothing.
      const kept = this.state.breakdown?.data;
      this.state.breakdown = kept && this.scan.cached(kept.period) ? { status: 'ready', data: kept } : undefined;
      this.hooks.changed();
      return Promise.resolve();
    }
    this.controllers.details?.abort();
    this.scan.cancel();
    this.state.scan = undefined;
    this.state.view.filter = undefined;
    this.state.filterKeyName = undefined;
    return this.load(['details']);
  }

  private nameFilterKey(): void {
    this.state.filterKeyName = filterKeyName(this.keysByMask, this.state.view.filter?.keyId);
  }

  setPage(page: number): Promise<void> {
    this.state.view.page = page;
    return this.load(['details']);
  }

  setPageSize(pageSize: number): Promise<void> {
    // Keep the first record on screen in view.
    const first = (this.state.view.page - 1) * this.state.view.pageSize;
    this.state.view.pageSize = pageSize;
    this.state.view.page = Math.floor(first / pageSize) + 1;
    return this.load(['details']);
  }

  sort(sort: KeySort): void {
    this.state.view.sort = { ...sort };
    const keys = this.state.keys;
    if (keys.data) keys.data = { ...keys.data, rows: sortKeyRows(keys.data.rows, sort) };
    this.hooks.changed();
  }

  dismissNotice(): void {
    this.state.notice = undefined;
    this.hooks.changed();
  }

  setExport(view: ExportView | undefined): void {
    this.state.export = view;
    this.hooks.changed();
  }

  dispose(): void {
    this.disposed = true;
    for (const name of SECTIONS) this.controllers[name]?.abort();
    this.breakdownController?.abort();
  }
}

// The dashboard's state on its own: what it shows when it opens (the data last shown for the
// period, marked as updating), what of it is kept for the next time, the estimate for the
// current period, and the state of a dashboard that cannot show usage.
/**
 * A dashboard's first state: the data last shown for this period appears at once, marked as
 * updating until the requests started by `load()` answer.
 */
function initialState(
  view: ViewState,
  env: Environment | undefined,
  saved: SavedDashboard | undefined,
): DashboardState {
  const last = saved?.period === view.period ? saved : undefined;
  const details =
    last?.details && last.details.page === view.page && last.details.pageSize === view.pageSize
      ? last.details
      : undefined;
  return {
    environment: {
      id: view.environmentId,
      label: env?.label ?? view.environmentId,
      production: env?.production === true,
    },
    view: { ...view },
    currentPeriod: currentPeriod(),
    updatedAt: last?.fetchedAt,
    summary: { status: 'loading', data: last?.summary },
    keys: { status: 'loading', data: last?.keys },
    details: { status: 'loading', data: details },
    trend: { status: 'loading' },
  };
}

/** What a section shows while it loads again: its data, when it is of the period shown (the trend: of this month). */
function keptWhileLoading<T extends { period: string } | TrendData>(
  data: T | undefined,
  period: string,
): T | undefined {
  if (!data) return undefined;
  return ('points' in data ? data.current === currentPeriod() : data.period === period) ? data : undefined;
}

/** What of the state is kept for the next time (undefined: nothing of the period shown is ready). */
function toSave(state: DashboardState): SavedDashboard | undefined {
  const { period } = state.view;
  const ready = <T extends { period: string }>(section: Section<T>): T | undefined =>
    section.status === 'ready' && section.data.period === period ? section.data : undefined;
  // A filtered page is not what a dashboard opened afresh shows: it is not kept.
  const details = ready(state.details);
  const saved: SavedDashboard = {
    fetchedAt: state.updatedAt ?? Date.now(),
    period,
    summary: ready(state.summary),
    keys: ready(state.keys),
    details: details?.filtered ? undefined : details,
  };
  return saved.summary || saved.keys || saved.details ? saved : undefined;
}

/** The estimate for the current period; none for a closed one. */
function project(state: DashboardState, scan: RecordsScan): void {
  const { period } = state.view;
  const summary = state.summary;
  if (summary.status !== 'ready' || summary.data.period !== period) {
    if (summary.data?.period !== period) state.projection = undefined;
    return;
  }
  const records = scan.cached(period);
  const stamps = records?.columns.includes('timestamp')
    ? records.records.map((r) => r.timestamp).filter((t): t is string => typeof t === 'string')
    : undefined;
  state.projection = projectPeriod(period, summary.data.meters, Date.now(), stamps);
}

/** The whole dashboard cannot show usage: nothing of what an earlier key read stays (not its tier, figures or "updated" time). */
export function blockState(state: DashboardState, blocked: Blocked): void {
  state.blocked = blocked;
  state.updatedAt = undefined;
  state.projection = undefined;
  state.scan = undefined;
  state.breakdown = undefined;
  state.summary = { status: 'loading' };
  state.keys = { status: 'loading' };
  state.details = { status: 'loading' };
  state.trend = { status: 'loading' };
}

/** The records' key column, as the table shows them. */
function keyColumnOf(state: DashboardState): string | undefined {
  const columns = state.breakdown?.data?.columns ?? state.details.data?.columns ?? [];
  return keyColumn(columns);
}

/** Why a period typed in cannot be shown (the notice the dashboard shows instead). */
function periodRefused(input: string, reason: 'future' | 'invalid'): string {
  return reason === 'future'
    ? vscode.l10n.t(
        '{0} has not started yet: usage is known up to {1}.',
        periodLabel(input, currentLocale()),
        periodLabel(currentPeriod(), currentLocale()),
      )
    : vscode.l10n.t('"{0}" is not a billing period (YYYY-MM).', input);
}

// What a failed read means for a dashboard: a key that is missing, rejected or lacks the
// usage:read scope blocks the whole dashboard (with what helps); anything else is the
// section's error, which Retry reads again.
const removedBlock = (): Blocked => ({
  reason: 'removed',
  message: vscode.l10n.t('The environment of this dashboard was removed.'),
  actions: ['addEnvironment'],
});

const noKeyBlock = (label: string): Blocked => ({
  reason: 'noKey',
  message: vscode.l10n.t('The API key of {0} is not on this machine. Enter it to see usage.', label),
  actions: ['replaceKey', 'switchEnvironment'],
});

/** The dashboard blocked, or the section's error. */
function failureOf(error: unknown, label: string): { blocked: Blocked } | { error: ErrorView } {
  if (isApiError(error) && error.kind === 'forbidden') {
    const message = [
      vscode.l10n.t(
        'The API key of {0} lacks the {1} scope, so its usage cannot be shown. Use a key that has this scope, or open the dashboard of another environment.',
        label,
        error.scope ?? 'usage:read',
      ),
      serviceReason(error),
    ];
    return {
      blocked: {
        reason: 'forbidden',
        message: message.filter(Boolean).join(' '),
        actions: ['replaceKey', 'switchEnvironment'],
      },
    };
  }
  if (isApiError(error) && error.kind === 'unauthorized') {
    const noKey = error.status === undefined;
    const message = noKey
      ? vscode.l10n.t('The API key of {0} is not on this machine. Enter it to see usage.', label)
      : [
          vscode.l10n.t('The service rejected the API key of {0} (401). Replace the key to see usage.', label),
          serviceReason(error),
        ]
          .filter(Boolean)
          .join(' ');
    return { blocked: { reason: noKey ? 'noKey' : 'unauthorized', message, actions: ['replaceKey', 'showLogs'] } };
  }
  return {
    error: { kind: isApiError(error) ? error.kind : 'unknown', message: describeError(error, label), retryable: true },
  };
}
