// The messages between the dashboard's host and its webview, both ways, and the texts the
// host gives the webview. Part of the protocol (protocol.ts): no `vscode`, no DOM.
import type { RecordFilter } from '../core/recordFilter';
import type { KeyColumn, SortDirection } from '../core/records';
import type { CommandName, DashboardState } from './protocolState';

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
  | { type: 'webviewError'; message: string };
