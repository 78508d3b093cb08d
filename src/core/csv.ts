// Export of usage records to CSV (RFC 4180, with spreadsheet formula injection defused) and
// to JSON. Pure.
import { deriveColumns, type OpenRecord } from './records';

/** A cell starting with one of these is read as a formula by spreadsheets. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: text quoted when needed, quotes doubled, formula-leading text prefixed with `'`. */
export function csvField(value: unknown): string {
  let text: string;
  if (value === undefined || value === null) text = '';
  else if (typeof value === 'string') text = FORMULA_START.test(value) ? `'${value}` : value;
  else if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : '';
  else if (typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
  else text = JSON.stringify(value) ?? '';
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header row of the columns, then one row per record; lines end in CRLF. */
export function toCsv(
  records: readonly OpenRecord[],
  columns: readonly string[] = deriveColumns(records, Number.POSITIVE_INFINITY),
): string {
  const lines = [columns.map(csvField).join(',')];
  for (const record of records) lines.push(columns.map((column) => csvField(record[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export interface JsonExportMeta {
  billingPeriod: string;
  exportedAt: string;
}

/** The records exactly as the service sent them, with the period they belong to. */
export function toJsonExport(records: readonly OpenRecord[], meta: JsonExportMeta): string {
  return `${JSON.stringify({ billingPeriod: meta.billingPeriod, exportedAt: meta.exportedAt, count: records.length, records }, null, 2)}\n`;
}
