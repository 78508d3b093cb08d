// Checks what a workspace memento holds before a dashboard shows it as the last data read:
// an entry from an older version or edited by hand is ignored, never posted to the webview.
import type { DetailsData, KeysData, SummaryData } from './protocol';
import type { SavedDashboard } from './dashboardState';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function isSummary(value: unknown): value is SummaryData {
  return (
    isObj(value) &&
    typeof value.period === 'string' &&
    typeof value.tier === 'string' &&
    Array.isArray(value.meters) &&
    value.meters.every((m) => isObj(m) && typeof m.name === 'string' && isNumber(m.used) && isNumber(m.included))
  );
}

function isKeys(value: unknown): value is KeysData {
  return (
    isObj(value) &&
    typeof value.period === 'string' &&
    isNumber(value.totalCalls) &&
    Array.isArray(value.rows) &&
    value.rows.every(
      (r) => isObj(r) && typeof r.name === 'string' && typeof r.maskedKeyId === 'string' && isNumber(r.calls),
    )
  );
}

function isDetails(value: unknown): value is DetailsData {
  return (
    isObj(value) &&
    typeof value.period === 'string' &&
    isNumber(value.page) &&
    isNumber(value.pageSize) &&
    isNumber(value.totalCount) &&
    Array.isArray(value.columns) &&
    value.columns.every((c) => typeof c === 'string') &&
    Array.isArray(value.records) &&
    value.records.every(isObj)
  );
}

export function isSavedDashboard(value: unknown): value is SavedDashboard {
  if (!isObj(value) || !isNumber(value.fetchedAt) || typeof value.period !== 'string') return false;
  const { summary, keys, details } = value;
  return (
    (summary === undefined || isSummary(summary)) &&
    (keys === undefined || isKeys(keys)) &&
    (details === undefined || isDetails(details))
  );
}
