// The dashboard's state as the host posts it to the webview, and the view state the webview
// keeps across reloads. Part of the protocol (protocol.ts): no `vscode`, no DOM.
import type { MeterFigures } from '../core/meters';
import type { PeriodProjection } from '../core/projection';
import type { RecordFilter } from '../core/recordFilter';
import type { KeyRow, KeySort, OpenRecord } from '../core/records';
import type { TrendPoint } from '../core/trend';

export const DETAILS_PAGE_SIZES: readonly number[] = [10, 25, 50, 100];
/** What the webview keeps across reloads (`setState`) and the serializer restores. No key, no data. */
export interface ViewState {
  environmentId: string;
  period: string;
  sort: KeySort;
  page: number;
  pageSize: number;
  /** The records filter (whole period); absent when the records are paged from the service. */
  filter?: RecordFilter;
}

export interface ErrorView {
  kind: string;
  message: string;
  retryable: boolean;
}

/** A part of the dashboard: loading (maybe with the last data), ready, or failed (maybe with the last data). */
export type Section<T> =
  { status: 'loading'; data?: T } | { status: 'ready'; data: T } | { status: 'error'; error: ErrorView; data?: T };

export interface SummaryData {
  period: string;
  tier: string;
  meters: MeterFigures[];
}

export interface KeysData {
  period: string;
  /** Sorted as `view.sort` says. Key ids are masked; the key itself is never here. */
  rows: KeyRow[];
  totalCalls: number;
}

export interface DetailsData {
  period: string;
  page: number;
  pageSize: number;
  totalCount: number;
  columns: string[];
  records: OpenRecord[];
  /** Set when a filter applies: how many of the period's records match, of how many. */
  filtered?: { matched: number; total: number };
}

/** The last billing periods (the current one included), oldest first. */
export interface TrendData {
  current: string;
  points: TrendPoint[];
}

/** The estimate for the current period (never for a closed one). */
export type ProjectionView = PeriodProjection;

/** Reading every record of the period for a filter: its progress (a failure shows as the section's error). */
interface ScanView {
  phase: 'running';
  loaded: number;
  total: number;
}

export const COMMANDS = ['replaceKey', 'switchEnvironment', 'showLogs', 'addEnvironment'] as const;
export type CommandName = (typeof COMMANDS)[number];

/** The whole dashboard cannot show usage: say why, offer what helps. */
export interface Blocked {
  reason: 'noKey' | 'unauthorized' | 'forbidden' | 'removed';
  message: string;
  actions: CommandName[];
}

export interface ExportView {
  format: 'csv' | 'json';
  phase: 'running' | 'done' | 'cancelled' | 'failed';
  loaded: number;
  total: number;
  /** Set when done (the file's name) or failed (why). */
  detail?: string;
}

export interface Notice {
  level: 'info' | 'warning' | 'error';
  text: string;
}

export interface DashboardState {
  environment: { id: string; label: string; production: boolean };
  view: ViewState;
  /** The latest period that can be chosen. */
  currentPeriod: string;
  /** When the shown data was last loaded (epoch ms). */
  updatedAt?: number;
  notice?: Notice;
  blocked?: Blocked;
  summary: Section<SummaryData>;
  keys: Section<KeysData>;
  details: Section<DetailsData>;
  trend: Section<TrendData>;
  projection?: ProjectionView;
  scan?: ScanView;
  /** The name of the key the records are filtered to, when the per-key table knows it. */
  filterKeyName?: string;
  export?: ExportView;
}
