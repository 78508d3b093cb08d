// The dashboard's protocol, shared by the host and the webview: the state the host posts, the
// messages each side sends, and the checks the host applies to everything the webview sends.
// No `vscode`, no DOM.
import type { MeterFigures, PeriodProjection } from '../core/meters';
import { isPeriod } from '../core/period';
import type { KeyColumn, KeyRow, KeySort, OpenRecord, RecordFilter, SortDirection, StatusClass } from '../core/records';
import {
  DEFAULT_DETAILS_PAGE_SIZE,
  DEFAULT_KEY_SORT,
  KEY_COLUMNS,
  MAX_DETAILS_PAGE_SIZE,
  STATUS_CLASSES,
} from '../core/records';
import type { TrendPoint } from '../core/trend';
import type { Breakdown, Crossing, Daily } from '../core/breakdown';

/** `{0}`, `{1}` … in a template replaced by the arguments, as text. */
export { fillPlaceholders as fill } from '../core/l10n';

// The dashboard's state as the host posts it to the webview, and the view state the webview
// keeps across reloads. Part of the protocol (protocol.ts): no `vscode`, no DOM.
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
  /** What the breakdown groups by and sums (absent: by key, counting). */
  breakdown?: BreakdownChoice;
}

export interface BreakdownChoice {
  column: string;
  sumColumn?: string;
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
  /** Per masked key id: its calls over the trend's periods, its projection and budget. */
  perKey?: Record<string, KeyOverTime>;
  /** The periods of `KeyOverTime.calls`, oldest first. */
  trendPeriods?: string[];
}

export interface KeyOverTime {
  /** Calls in each of the trend's periods (null: no data, or that period's keys could not be read). */
  calls: Array<number | null>;
  /** The calls expected by the period's end at the pace so far (the current period only). */
  projected?: number;
  /** The budget the setting gives the key, and where it stands against it. */
  budget?: number;
  budgetState?: 'within' | 'projected' | 'passed';
}

/** The period's records read whole, broken down. Key ids are masked as the per-key table shows them. */
export interface BreakdownData {
  period: string;
  /** Columns to group by, and the numeric ones to sum. */
  columns: string[];
  numeric: string[];
  breakdown: Breakdown;
  /** A group's words when its value alone says little (a key's name for its masked id). */
  labels: Record<string, string>;
  daily: Daily;
  /** Records read, records the service announced but not read (past the cap or not paged to), and the cap. */
  read: number;
  missing: number;
  cap: number;
  capped: boolean;
  /** When the calls meter passed its included amount (from `daily`). */
  crossing?: Crossing;
}

export interface DetailsData {
  period: string;
  page: number;
  pageSize: number;
  /** How many records there are, as the service said or as counted; absent while the end is not known. */
  totalCount?: number;
  /** A next page may hold records (absent: as the total says). */
  hasNext?: boolean;
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
  /** What the records are read for: the records filter or the breakdown. */
  purpose: 'filter' | 'breakdown';
  loaded: number;
  total: number;
}

const COMMANDS = ['replaceKey', 'switchEnvironment', 'showLogs', 'addEnvironment'] as const;
type CommandName = (typeof COMMANDS)[number];

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
  /** The period read whole and broken down; absent until asked for. */
  breakdown?: Section<BreakdownData>;
  projection?: ProjectionView;
  scan?: ScanView;
  /** The name of the key the records are filtered to, when the per-key table knows it. */
  filterKeyName?: string;
  export?: ExportView;
}

// The messages between the dashboard's host and its webview, both ways, and the texts the
// host gives the webview. Part of the protocol (protocol.ts): no `vscode`, no DOM.
/** Every text the webview shows that is not data; the host fills it through `vscode.l10n`. */
export const UI_STRING_KEYS = [
  'billingPeriod',
  'previousPeriod',
  'nextPeriod',
  'chooseMonth',
  'refresh',
  'updated',
  'updating',
  'tier',
  'production',
  'metersHeading',
  'meter.calls',
  'meter.webhooks',
  'meter.storage_gb',
  'meterOf',
  'meterOverage',
  'meterNoAllowance',
  'levelWarning',
  'levelError',
  'meterAria',
  'keysHeading',
  'col.name',
  'col.keyId',
  'col.calls',
  'col.share',
  'col.lastUsedAt',
  'currentKey',
  'sortBy',
  'keysEmpty',
  'never',
  'detailsHeading',
  'detailsEmpty',
  'pageOf',
  'recordsRange',
  'pageOnly',
  'recordsRangeOpen',
  'previousPage',
  'nextPage',
  'pageSize',
  'exportCsv',
  'exportJson',
  'exporting',
  'cancel',
  'exportDone',
  'exportCancelled',
  'exportFailed',
  'retry',
  'emptyPeriod',
  'loading',
  'dismiss',
  'command.replaceKey',
  'command.switchEnvironment',
  'command.showLogs',
  'command.addEnvironment',
  'trendHeading',
  'trendAria',
  'trendPoint',
  'noData',
  'trendChange',
  'trendChangeNew',
  'trendFailed',
  'col.period',
  'col.used',
  'col.included',
  'estimate',
  'projection',
  'projectionOver',
  'projectionWithin',
  'projectionLinear',
  'projectionDaily',
  'periodDays',
  'filterHeading',
  'filterColumn',
  'filterText',
  'filterStatus',
  'filterAnyStatus',
  'filterAnyColumn',
  'filterKey',
  'filterByKey',
  'clearFilter',
  'applyFilter',
  'scanning',
  'filteredCount',
  'filterNoMatch',
  'exportFiltered',
  'breakdownHeading',
  'breakdownRead',
  'breakdownReadTitle',
  'breakdownGroupBy',
  'breakdownSum',
  'breakdownCount',
  'breakdownValue',
  'breakdownRecords',
  'breakdownShare',
  'breakdownOther',
  'breakdownEmptyValue',
  'breakdownFilter',
  'breakdownCapped',
  'breakdownMissing',
  'breakdownRecordsRead',
  'dailyHeading',
  'dailyUsual',
  'dailyNoUsual',
  'dailyBar',
  'dailyMarked',
  'dailyCauseKey',
  'dailyCauseKeyCall',
  'dailyCauseCall',
  'dailyUndated',
  'filterGroup',
  'filterDay',
  'crossedOn',
  'crossedAround',
  'crossedUnknown',
  'keyTrend',
  'keyProjected',
  'keyBudget',
  'keyBudgetPassed',
  'keyBudgetProjected',
  'col.trend',
] as const;
export type UiStringKey = (typeof UI_STRING_KEYS)[number];
export type UiStrings = Record<UiStringKey, string>;

/**
 * `init` gives the webview the user's locale (numbers and dates are formatted with Intl in it),
 * its texts and the extension's translated bundle (for the words of src/core; none in English).
 */
export type HostMessage =
  | { type: 'init'; locale: string; strings: UiStrings; messages?: Record<string, string> }
  | { type: 'update'; state: DashboardState };

/** When the webview's document started loading, its script started and it said `ready` (ms since epoch). */
export interface WebviewTiming {
  navigationStart: number;
  scriptStart: number;
  ready: number;
}

export type WebviewMessage =
  | { type: 'ready'; timing?: WebviewTiming }
  | { type: 'setPeriod'; period: string }
  | { type: 'refresh' }
  | { type: 'setPage'; page: number }
  | { type: 'setPageSize'; pageSize: number }
  | { type: 'sort'; column: KeyColumn; direction: SortDirection }
  | { type: 'export'; format: 'csv' | 'json' }
  | { type: 'cancelExport' }
  | { type: 'dismissNotice' }
  | { type: 'command'; command: CommandName }
  | { type: 'setFilter'; filter: RecordFilter }
  | { type: 'filterKey'; maskedKeyId: string }
  | { type: 'cancelScan' }
  | { type: 'breakdown' }
  | { type: 'setBreakdown'; choice: BreakdownChoice }
  | { type: 'webviewError'; message: string };

// The checks the host applies to everything the webview sends, and to a saved view state after
// a reload: anything that is not exactly part of the protocol is dropped. No `vscode`, no DOM.
type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isWholeIn = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
const isColumn = (value: unknown): value is KeyColumn =>
  typeof value === 'string' && (KEY_COLUMNS as readonly string[]).includes(value);
const isDirection = (value: unknown): value is SortDirection => value === 'asc' || value === 'desc';

const MAX_PAGE = 100_000;

/**
 * Reads a message from the webview. Anything that is not exactly one of `WebviewMessage`
 * gives undefined; the result is a fresh object holding only the known fields.
 */
export function parseWebviewMessage(value: unknown): WebviewMessage | undefined {
  if (!isObject(value) || typeof value.type !== 'string') return undefined;
  switch (value.type) {
    case 'ready':
      return isTiming(value.timing) ? { type: 'ready', timing: { ...value.timing } } : { type: 'ready' };
    case 'refresh':
    case 'breakdown':
    case 'cancelScan':
    case 'cancelExport':
    case 'dismissNotice':
      return { type: value.type };
    case 'setPeriod':
      return isPeriod(value.period) ? { type: 'setPeriod', period: value.period } : undefined;
    case 'setPage':
      return isWholeIn(value.page, 1, MAX_PAGE) ? { type: 'setPage', page: value.page } : undefined;
    case 'setPageSize':
      return isWholeIn(value.pageSize, 1, MAX_DETAILS_PAGE_SIZE)
        ? { type: 'setPageSize', pageSize: value.pageSize }
        : undefined;
    case 'sort':
      return isColumn(value.column) && isDirection(value.direction)
        ? { type: 'sort', column: value.column, direction: value.direction }
        : undefined;
    case 'export':
      return value.format === 'csv' || value.format === 'json' ? { type: 'export', format: value.format } : undefined;
    case 'command':
      return typeof value.command === 'string' && (COMMANDS as readonly string[]).includes(value.command)
        ? { type: 'command', command: value.command as CommandName }
        : undefined;
    case 'setFilter': {
      const filter = parseFilter(value.filter);
      return filter ? { type: 'setFilter', filter } : undefined;
    }
    case 'setBreakdown': {
      const choice = parseBreakdownChoice(value.choice);
      return choice ? { type: 'setBreakdown', choice } : undefined;
    }
    case 'filterKey':
      return isShortText(value.maskedKeyId) ? { type: 'filterKey', maskedKeyId: value.maskedKeyId } : undefined;
    case 'webviewError':
      return typeof value.message === 'string'
        ? { type: 'webviewError', message: value.message.slice(0, 500) }
        : undefined;
    default:
      return undefined;
  }
}

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;
const isTiming = (value: unknown): value is WebviewTiming =>
  isObject(value) && isTime(value.navigationStart) && isTime(value.scriptStart) && isTime(value.ready);

const isShortText = (value: unknown): value is string => typeof value === 'string' && value.length <= 200;

/** What to group by and sum: two column names; anything else gives undefined. */
function parseBreakdownChoice(value: unknown): BreakdownChoice | undefined {
  if (!isObject(value) || !isShortText(value.column) || value.column === '') return undefined;
  if (value.sumColumn !== undefined && (!isShortText(value.sumColumn) || value.sumColumn === '')) return undefined;
  return { column: value.column, ...(value.sumColumn !== undefined ? { sumColumn: value.sumColumn } : {}) };
}

const isDay = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

/** A records filter: known fields of the right types only; anything else gives undefined. */
export function parseFilter(value: unknown): RecordFilter | undefined {
  if (!isObject(value)) return undefined;
  const filter: RecordFilter = {};
  for (const field of ['keyId', 'column', 'text'] as const) {
    const item = value[field];
    if (item === undefined) continue;
    if (!isShortText(item)) return undefined;
    if (item !== '') filter[field] = item;
  }
  if (value.status !== undefined) {
    if (!(STATUS_CLASSES as readonly unknown[]).includes(value.status)) return undefined;
    filter.status = value.status as StatusClass;
  }
  if (value.group !== undefined) {
    const group = value.group;
    if (!isObject(group) || !isShortText(group.column) || group.column === '' || !isShortText(group.value))
      return undefined;
    filter.group = { column: group.column, value: group.value };
  }
  if (value.day !== undefined) {
    if (!isDay(value.day)) return undefined;
    filter.day = value.day;
  }
  return filter;
}

/**
 * Reads a saved view state (from the serializer after a reload). Fields that are missing or
 * wrong fall back to defaults; without an environment id the state is unusable.
 */
export function parseViewState(value: unknown, fallbackPeriod: string): ViewState | undefined {
  if (
    !isObject(value) ||
    typeof value.environmentId !== 'string' ||
    value.environmentId === '' ||
    value.environmentId.length > 200
  )
    return undefined;
  const sort =
    isObject(value.sort) && isColumn(value.sort.column) && isDirection(value.sort.direction)
      ? { column: value.sort.column, direction: value.sort.direction }
      : { ...DEFAULT_KEY_SORT };
  return {
    environmentId: value.environmentId,
    period: isPeriod(value.period) ? value.period : fallbackPeriod,
    sort,
    page: isWholeIn(value.page, 1, MAX_PAGE) ? value.page : 1,
    pageSize: isWholeIn(value.pageSize, 1, MAX_DETAILS_PAGE_SIZE) ? value.pageSize : DEFAULT_DETAILS_PAGE_SIZE,
    ...(value.filter !== undefined && parseFilter(value.filter) ? { filter: parseFilter(value.filter) } : {}),
    ...(parseBreakdownChoice(value.breakdown) ? { breakdown: parseBreakdownChoice(value.breakdown) } : {}),
  };
}
