// Filtering the usage records of a whole period: by key, by a column's value, and by the
// class of a status code. The records are open (the contract names no field), so the
// columns are found in the records themselves. Pure.
import { compactValue, type OpenRecord } from './records';

export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export interface RecordFilter {
  /** The key id (as in the records' key column) to keep. */
  keyId?: string;
  /** A column and the text its value must contain (case-insensitive); without a column, any column. */
  column?: string;
  text?: string;
  status?: StatusClass;
}

export function isFilterActive(filter: RecordFilter | undefined): filter is RecordFilter {
  return (
    filter !== undefined &&
    (filter.keyId !== undefined || (filter.text ?? '').trim() !== '' || filter.status !== undefined)
  );
}

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');

/** The column that names a record's key (`keyId`, `key_id`, `apiKeyId` …), if any. */
export function keyColumn(columns: readonly string[]): string | undefined {
  return columns.find((c) => normalise(c) === 'keyid') ?? columns.find((c) => normalise(c) === 'apikeyid');
}

/** The column holding an HTTP status code (`statusCode`, `status_code`, `httpStatus`, `status`), if any. */
export function statusColumn(columns: readonly string[]): string | undefined {
  for (const wanted of ['statuscode', 'httpstatus', 'status']) {
    const found = columns.find((c) => normalise(c) === wanted);
    if (found) return found;
  }
  return undefined;
}

/** `404` → `4xx`; anything that is not a status code gives undefined. */
export function statusClassOf(value: unknown): StatusClass | undefined {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d{3}\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 200 || n > 599) return undefined;
  return `${Math.floor(n / 100)}xx` as StatusClass;
}

/** The records that pass every part of the filter, in their order. */
export function filterRecords(
  records: readonly OpenRecord[],
  columns: readonly string[],
  filter: RecordFilter,
): OpenRecord[] {
  const keyCol = filter.keyId !== undefined ? keyColumn(columns) : undefined;
  const statusCol = filter.status !== undefined ? statusColumn(columns) : undefined;
  const needle = (filter.text ?? '').trim().toLowerCase();
  const searched = filter.column !== undefined ? [filter.column] : columns;
  return records.filter((record) => {
    if (filter.keyId !== undefined && (keyCol === undefined || compactValue(record[keyCol], 10_000) !== filter.keyId))
      return false;
    if (filter.status !== undefined && (statusCol === undefined || statusClassOf(record[statusCol]) !== filter.status))
      return false;
    if (needle && !searched.some((column) => compactValue(record[column], 10_000).toLowerCase().includes(needle)))
      return false;
    return true;
  });
}
