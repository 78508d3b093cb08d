// The state of one environment's dashboard and the requests that fill it. The panel posts
// this state to the webview; tests read it through the exports. Every HTTP request goes
// through the environment's ServiceApi.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { ServiceApi } from '../api/service';
import type { UsageSummary } from '../api/types';
import { currentLocale } from '../core/l10n';
import { meterFigures, USAGE_METERS } from '../core/meters';
import { choosePeriod, currentPeriod, periodLabel } from '../core/period';
import { projectPeriod } from '../core/projection';
import { isFilterActive, type RecordFilter } from '../core/recordFilter';
import { deriveColumns, keyIdOfApiKey, keyRows, sortKeyRows, type KeySort } from '../core/records';
import type { Environment } from '../session/model';
import type { Services } from '../shared/services';
import { describeError, serviceReason } from '../ui/errors';
import type {
  Blocked,
  DashboardState,
  DetailsData,
  ErrorView,
  ExportView,
  KeysData,
  Section,
  SummaryData,
  TrendData,
  ViewState,
} from './protocol';
import type { UsageHistory } from './history';
import { filtered, RecordsScan } from './recordsScan';
import { readTrend } from './trend';

interface SectionData {
  summary: SummaryData;
  keys: KeysData;
  details: DetailsData;
  trend: TrendData;
}
type SectionName = keyof SectionData;
const SECTIONS: readonly SectionName[] = ['summary', 'keys', 'details', 'trend'];
/** What changes with the period shown (the trend always ends at the current period). */
const PERIOD_SECTIONS: readonly SectionName[] = ['summary', 'keys', 'details'];

/** What a dashboard showed last, saved so that it can be shown at once when it opens again. */
export interface SavedDashboard {
  /** When the data was read (ms since epoch). */
  fetchedAt: number;
  period: string;
  summary?: SummaryData;
  keys?: KeysData;
  details?: DetailsData;
}

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
}

export class Dashboard {
  readonly state: DashboardState;
  private readonly controllers: Partial<Record<SectionName, AbortController>> = {};
  private readonly running = new Set<Promise<unknown>>();
  private disposed = false;
  /** Every record of the period, read for a filter (and the filtered export). */
  readonly scan = new RecordsScan();
  /** Summaries asked for during one load: the trend and the meters share the current period's. */
  private reads = new Map<string, Promise<UsageSummary>>();
  /** The per-key table's masked ids → the key id and name (host side only). */
  private keysByMask = new Map<string, { keyId: string; name: string }>();
  /** Summaries the last trend read asked of the service (the rest came from the stored history). */
  trendRequests = 0;

  constructor(
    private readonly services: Services,
    view: ViewState,
    private readonly hooks: DashboardHooks,
  ) {
    const env = services.environments.get(view.environmentId);
    // The data last shown for this period appears at once, marked as updating until the
    // requests started by `load()` answer.
    const saved = hooks.saved?.(view.environmentId);
    const last = saved?.period === view.period ? saved : undefined;
    const details =
      last?.details && last.details.page === view.page && last.details.pageSize === view.pageSize
        ? last.details
        : undefined;
    this.state = {
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
    if (!env)
      return this.block({
        reason: 'removed',
        message: vscode.l10n.t('The environment of this dashboard was removed.'),
        actions: ['addEnvironment'],
      });
    this.state.environment = { id: env.id, label: env.label, production: env.production === true };
    if (!(await this.services.vault.usable(env))) {
      return this.block({
        reason: 'noKey',
        message: vscode.l10n.t('The API key of {0} is not on this machine. Enter it to see usage.', env.label),
        actions: ['replaceKey', 'switchEnvironment'],
      });
    }
    this.state.blocked = undefined;
    this.reads = new Map();
    // Refresh reads the whole period again too.
    if (sections.length === SECTIONS.length) this.scan.clear();
    const succeeded = await Promise.all(sections.map((name) => this.loadSection(name)));
    this.project();
    if (succeeded.some(Boolean)) {
      this.state.updatedAt = Date.now();
      this.saveShown();
    }
    this.hooks.changed();
  }

  /** The estimate for the current period; none for a closed one. */
  private project(): void {
    const { period } = this.state.view;
    const summary = this.state.summary;
    if (summary.status !== 'ready' || summary.data.period !== period) {
      if (summary.data?.period !== period) this.state.projection = undefined;
      return;
    }
    const scan = this.scan.cached(period);
    const stamps = scan?.columns.includes('timestamp')
      ? scan.records.map((r) => r.timestamp).filter((t): t is string => typeof t === 'string')
      : undefined;
    this.state.projection = projectPeriod(period, summary.data.meters, Date.now(), stamps);
  }

  /** One summary per period and load, shared by the sections that need it. */
  private summaryOf(api: ServiceApi, period: string, signal: AbortSignal): Promise<UsageSummary> {
    let read = this.reads.get(period);
    if (!read) {
      read = api.usage.summary(period, { signal });
      this.reads.set(period, read);
      read.then(
        (summary) => {
          if (!signal.aborted) this.hooks.summaryLoaded?.(this.environmentId, summary);
        },
        () => undefined,
      );
    }
    return read;
  }

  private saveShown(): void {
    const { period } = this.state.view;
    const ready = <T extends { period: string }>(section: Section<T>): T | undefined =>
      section.status === 'ready' && section.data.period === period ? section.data : undefined;
    // A filtered page is not what a dashboard opened afresh shows: it is not kept.
    const details = ready(this.state.details);
    const saved: SavedDashboard = {
      fetchedAt: this.state.updatedAt ?? Date.now(),
      period,
      summary: ready(this.state.summary),
      keys: ready(this.state.keys),
      details: details?.filtered ? undefined : details,
    };
    if (saved.summary || saved.keys || saved.details) this.hooks.save?.(this.environmentId, saved);
  }

  private block(blocked: Blocked): void {
    for (const name of SECTIONS) this.controllers[name]?.abort();
    this.scan.clear();
    this.state.blocked = blocked;
    // Nothing of what an earlier key read stays: not its tier, figures or "updated" time.
    this.state.updatedAt = undefined;
    this.state.projection = undefined;
    this.state.scan = undefined;
    this.state.summary = { status: 'loading' };
    this.state.keys = { status: 'loading' };
    this.state.details = { status: 'loading' };
    this.state.trend = { status: 'loading' };
    this.hooks.changed();
  }

  private fetch<K extends SectionName>(name: K, api: ServiceApi, signal: AbortSignal): Promise<SectionData[K]>;
  private async fetch(name: SectionName, api: ServiceApi, signal: AbortSignal): Promise<SectionData[SectionName]> {
    const { period, page, pageSize, sort } = this.state.view;
    switch (name) {
      case 'summary': {
        const summary = await this.summaryOf(api, period, signal);
        return {
          period,
          tier: summary.tier,
          meters: USAGE_METERS.map((meter) => meterFigures(meter, summary.usage[meter])),
        };
      }
      case 'keys': {
        const [byKey, key] = await Promise.all([
          api.usage.byKey(period, { signal }),
          this.services.vault.get(this.environmentId),
        ]);
        // Only a boolean per row leaves this function: the key never reaches the webview.
        const rows = keyRows(byKey.keys, keyIdOfApiKey(key));
        this.keysByMask = new Map(
          rows.map((row, i) => [row.maskedKeyId, { keyId: byKey.keys[i].keyId, name: row.name }]),
        );
        this.nameFilterKey();
        return { period, rows: sortKeyRows(rows, sort), totalCalls: rows.reduce((sum, row) => sum + row.calls, 0) };
      }
      case 'trend': {
        const env = this.environment();
        const current = currentPeriod();
        const history =
          this.hooks.history && env
            ? { store: this.hooks.history, environmentId: env.id, baseUrl: env.baseUrl }
            : undefined;
        const read = await readTrend(
          (p) => this.summaryOf(api, p, signal),
          history,
          current,
          (error) => describeError(error, this.state.environment.label),
        );
        this.trendRequests = read.requests;
        return read.data;
      }
      case 'details': {
        const filter = this.state.view.filter;
        if (isFilterActive(filter)) return this.filteredPage(api, period, filter, signal);
        let result = await api.usage.details({ billingPeriod: period, page, pageSize }, { signal });
        if (result.data.length > pageSize && result.data.length >= result.totalCount) {
          // The service sent every record at once: page them here, in the size the user chose.
          const last = Math.max(1, Math.ceil(result.data.length / pageSize));
          this.state.view.page = Math.min(page, last);
          const records = result.data.slice((this.state.view.page - 1) * pageSize, this.state.view.page * pageSize);
          return {
            period,
            page: this.state.view.page,
            pageSize,
            totalCount: result.data.length,
            columns: deriveColumns(records),
            records,
          };
        }
        // Otherwise the service's own paging counts: its page size (it may cap) and the page it answered.
        const lastPage = Math.max(1, Math.ceil(result.totalCount / result.pageSize));
        if (page > lastPage && result.totalCount > 0) {
          // A restored page past the end (fewer records now): show the last one.
          result = await api.usage.details({ billingPeriod: period, page: lastPage, pageSize }, { signal });
        }
        this.state.view.page = result.page;
        const records = result.data.slice(0, Math.max(pageSize, result.pageSize));
        return {
          period,
          page: result.page,
          pageSize: result.pageSize,
          totalCount: result.totalCount,
          columns: deriveColumns(records),
          records,
        };
      }
    }
  }

  /** A page of the records of the whole period that pass the filter (read once, filtered here). */
  private async filteredPage(
    api: ServiceApi,
    period: string,
    filter: RecordFilter,
    signal: AbortSignal,
  ): Promise<DetailsData> {
    try {
      const scan = await this.scan.read(
        api,
        period,
        (loaded, total) => {
          if (signal.aborted) return;
          this.state.scan = { phase: 'running', loaded, total };
          this.hooks.changed();
        },
        signal,
      );
      const matched = filtered(scan, filter);
      const { pageSize } = this.state.view;
      const pages = Math.max(1, Math.ceil(matched.length / pageSize));
      if (this.state.view.page > pages) this.state.view.page = pages;
      const page = this.state.view.page;
      const records = matched.slice((page - 1) * pageSize, page * pageSize);
      return {
        period,
        page,
        pageSize,
        totalCount: matched.length,
        columns: scan.columns,
        records,
        filtered: { matched: matched.length, total: scan.records.length },
      };
    } finally {
      if (!signal.aborted) this.state.scan = undefined;
    }
  }

  /** Resolves to true when the section loaded. */
  private async loadSection(name: SectionName): Promise<boolean> {
    this.controllers[name]?.abort();
    const controller = new AbortController();
    this.controllers[name] = controller;
    const previous = this.state[name].data;
    const kept =
      previous &&
      ('points' in previous ? previous.current === currentPeriod() : previous.period === this.state.view.period)
        ? previous
        : undefined;
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
    if (isApiError(error) && error.kind === 'forbidden') {
      this.block({
        reason: 'forbidden',
        message: [
          vscode.l10n.t(
            'The API key of {0} lacks the {1} scope, so its usage cannot be shown. Use a key that has this scope, or open the dashboard of another environment.',
            label,
            error.scope ?? 'usage:read',
          ),
          serviceReason(error),
        ]
          .filter(Boolean)
          .join(' '),
        actions: ['replaceKey', 'switchEnvironment'],
      });
      return;
    }
    if (isApiError(error) && error.kind === 'unauthorized') {
      const noKey = error.status === undefined;
      this.block({
        reason: noKey ? 'noKey' : 'unauthorized',
        message: noKey
          ? vscode.l10n.t('The API key of {0} is not on this machine. Enter it to see usage.', label)
          : [
              vscode.l10n.t('The service rejected the API key of {0} (401). Replace the key to see usage.', label),
              serviceReason(error),
            ]
              .filter(Boolean)
              .join(' '),
        actions: ['replaceKey', 'showLogs'],
      });
      return;
    }
    this.services.log.warn(
      `Usage dashboard of "${label}": could not load ${name} — ${error instanceof Error ? error.message : String(error)}`,
    );
    const view: ErrorView = {
      kind: isApiError(error) ? error.kind : 'unknown',
      message: describeError(error, label),
      retryable: true,
    };
    this.setSection(name, { status: 'error', error: view, data: kept });
  }

  // ---- what the webview asks for ----

  setPeriod(input: string): Promise<void> {
    const choice = choosePeriod(input);
    if (!choice.ok) {
      const latest = periodLabel(currentPeriod(), currentLocale());
      this.state.notice = {
        level: 'warning',
        text:
          choice.reason === 'future'
            ? vscode.l10n.t(
                '{0} has not started yet: usage is known up to {1}.',
                periodLabel(input, currentLocale()),
                latest,
              )
            : vscode.l10n.t('"{0}" is not a billing period (YYYY-MM).', input),
      };
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

  setFilter(filter: RecordFilter): Promise<void> {
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

  /** Stops reading the whole period: the filter is dropped and the records are paged as before. */
  cancelScan(): Promise<void> {
    this.controllers.details?.abort();
    this.scan.cancel();
    this.state.scan = undefined;
    this.state.view.filter = undefined;
    this.state.filterKeyName = undefined;
    return this.load(['details']);
  }

  private nameFilterKey(): void {
    const keyId = this.state.view.filter?.keyId;
    const key = keyId === undefined ? undefined : [...this.keysByMask.entries()].find(([, k]) => k.keyId === keyId);
    this.state.filterKeyName = key ? `${key[1].name} (${key[0]})` : undefined;
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
  }
}
