// The dashboard's state on its own: what it shows when it opens (the data last shown for the
// period, marked as updating), what of it is kept for the next time, the estimate for the
// current period, and the state of a dashboard that cannot show usage.
import * as vscode from 'vscode';
import { currentLocale } from '../core/l10n';
import { currentPeriod, periodLabel } from '../core/period';
import { projectPeriod } from '../core/projection';
import type { Environment } from '../session/model';
import type {
  Blocked,
  DashboardState,
  DetailsData,
  KeysData,
  Section,
  SummaryData,
  TrendData,
  ViewState,
} from './protocol';
import type { RecordsScan } from './recordsScan';

/** What a dashboard showed last, saved so that it can be shown at once when it opens again. */
export interface SavedDashboard {
  /** When the data was read (ms since epoch). */
  fetchedAt: number;
  period: string;
  summary?: SummaryData;
  keys?: KeysData;
  details?: DetailsData;
}

/**
 * A dashboard's first state: the data last shown for this period appears at once, marked as
 * updating until the requests started by `load()` answer.
 */
export function initialState(
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
export function keptWhileLoading<T extends { period: string } | TrendData>(
  data: T | undefined,
  period: string,
): T | undefined {
  if (!data) return undefined;
  return ('points' in data ? data.current === currentPeriod() : data.period === period) ? data : undefined;
}

/** What of the state is kept for the next time (undefined: nothing of the period shown is ready). */
export function toSave(state: DashboardState): SavedDashboard | undefined {
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
export function project(state: DashboardState, scan: RecordsScan): void {
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
  state.summary = { status: 'loading' };
  state.keys = { status: 'loading' };
  state.details = { status: 'loading' };
  state.trend = { status: 'loading' };
}

/** Why a period typed in cannot be shown (the notice the dashboard shows instead). */
export function periodRefused(input: string, reason: 'future' | 'invalid'): string {
  return reason === 'future'
    ? vscode.l10n.t(
        '{0} has not started yet: usage is known up to {1}.',
        periodLabel(input, currentLocale()),
        periodLabel(currentPeriod(), currentLocale()),
      )
    : vscode.l10n.t('"{0}" is not a billing period (YYYY-MM).', input);
}
