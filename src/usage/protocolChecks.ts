// The checks the host applies to everything the webview sends, and to a saved view state after
// a reload: anything that is not exactly part of the protocol is dropped. No `vscode`, no DOM.
import { isPeriod } from '../core/period';
import { type RecordFilter, STATUS_CLASSES, type StatusClass } from '../core/recordFilter';
import {
  DEFAULT_DETAILS_PAGE_SIZE,
  DEFAULT_KEY_SORT,
  MAX_DETAILS_PAGE_SIZE,
  KEY_COLUMNS,
  type KeyColumn,
  type SortDirection,
} from '../core/records';
import type { WebviewMessage, WebviewTiming } from './protocolMessages';
import { type CommandName, COMMANDS, type ViewState } from './protocolState';

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
  };
}
