// Usage detail records: the contract leaves their fields open, so the table's columns come
// from the records themselves, and values of any shape are shown compactly; their page sizes,
// filters and export to CSV or JSON. Pure.
import { ENGAGEMENT_FIELDS } from './engagement';
import type { SortDirection } from './query';
import { foldLines } from './text';

export type { SortDirection };

export type OpenRecord = Record<string, unknown>;

/** Every field the records carry, in order of first appearance (`id` first when present). */
export function deriveColumns(records: readonly OpenRecord[], limit = 40): string[] {
  const seen = new Set<string>();
  const columns: string[] = [];
  for (const record of records) {
    for (const field of Object.keys(record)) {
      if (seen.has(field)) continue;
      seen.add(field);
      columns.push(field);
    }
  }
  const id = columns.indexOf('id');
  if (id > 0) columns.unshift(...columns.splice(id, 1));
  return columns.slice(0, limit);
}

/** Units a field name may end in, as a header says them ("durationMs" → "Duration (ms)"). */
const UNITS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    ms: 'ms',
    sec: 's',
    secs: 's',
    seconds: 's',
    bytes: 'bytes',
    kb: 'KB',
    mb: 'MB',
    gb: 'GB',
    tb: 'TB',
    pct: '%',
    percent: '%',
  }),
);
/** Words a header writes in capitals. */
const ACRONYMS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    id: 'ID',
    ids: 'IDs',
    url: 'URL',
    uri: 'URI',
    http: 'HTTP',
    ip: 'IP',
    api: 'API',
    sdk: 'SDK',
    utc: 'UTC',
    json: 'JSON',
  }),
);

/**
 * A field name as a column header a person reads: camelCase, snake_case and kebab-case split
 * into words, the first capitalised, acronyms in capitals, a unit at the end said in brackets
 * (`statusCode` → "Status code", `keyId` → "Key ID", `storage_gb` → "Storage (GB)"). The name
 * itself stays in the header's tooltip and in exports.
 */
export function columnTitle(field: string): string {
  const words = field
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  if (words.length === 0) return field;
  const unit = words.length > 1 ? UNITS.get(words[words.length - 1]) : undefined;
  if (unit) words.pop();
  const text = words
    .map((word, i) => ACRONYMS.get(word) ?? (i === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word))
    .join(' ');
  return unit ? `${text} (${unit})` : text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function scalar(value: unknown): string | undefined {
  if (value === undefined) return '';
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}

function inline(value: unknown, depth: number): string {
  const simple = scalar(value);
  if (simple !== undefined) return simple;
  if (depth >= 2) return JSON.stringify(value) ?? '';
  if (Array.isArray(value)) return `[${value.map((item) => inline(item, depth + 1)).join(', ')}]`;
  if (isPlainObject(value)) {
    const inner = Object.entries(value)
      .map(([key, item]) => `${key}: ${inline(item, depth + 1)}`)
      .join(', ');
    return depth === 0 ? inner : `{${inner}}`;
  }
  return String(value);
}

/**
 * One line for a table cell: scalars as they are (null as an empty cell), `{region: eu, sdk: node}` as
 * `region: eu, sdk: node`, arrays as `[a, b]`; cut with an ellipsis past `max` characters.
 */
export function compactValue(value: unknown, max = 80): string {
  if (value === null) return '';
  const text = foldLines(inline(value, 0)).replace(/\s+/g, ' ');
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

/** The whole value for a tooltip: strings as they are, anything else as indented JSON. */
export function fullValue(value: unknown): string {
  if (value === null) return '';
  const simple = scalar(value);
  if (simple !== undefined) return simple;
  return JSON.stringify(value, null, 2) ?? '';
}

// ---- usage by key ----

export interface KeyUsageInput {
  keyId: string;
  name: string;
  calls: number;
  lastUsedAt: string;
}

export interface KeyRow {
  name: string;
  /** The key id with its middle hidden: `key_…dmin`. */
  maskedKeyId: string;
  calls: number;
  /** Share of the period's calls over all keys, 0–1. */
  share: number;
  lastUsedAt: string;
  /** The key of the environment this dashboard shows. */
  current: boolean;
}

export const KEY_COLUMNS: readonly KeyColumn[] = ['name', 'keyId', 'calls', 'share', 'lastUsedAt'];

/** Shows the start and end of an id, never all of it: at least a third is hidden (`key_admin` → `key…min`). */
export function maskKeyId(keyId: string, extraSuffix = 0): string {
  const chars = Array.from(keyId);
  if (chars.length <= 3) return '…';
  const hidden = Math.max(1, Math.floor(chars.length / 3));
  const prefix = Math.min(4, Math.floor((chars.length - hidden) / 2));
  const suffix = Math.min(chars.length - prefix - 1, prefix + extraSuffix);
  return `${chars.slice(0, prefix).join('')}…${chars.slice(chars.length - suffix).join('')}`;
}

/** How a table shows its ids: as many characters of the start and of the end of each. */
interface MaskShape {
  prefix: number;
  suffix: number;
}

function naturalPrefix(chars: readonly string[]): number {
  const hidden = Math.max(1, Math.floor(chars.length / 3));
  return Math.min(4, Math.floor((chars.length - hidden) / 2));
}

/** One id in a table's shape; an id too short for it shows what it can (at least a third hidden). */
function maskWith(keyId: string, shape: MaskShape): string {
  const chars = Array.from(keyId);
  if (chars.length <= 3) return '…';
  const room = chars.length - Math.max(1, Math.floor(chars.length / 3));
  const prefix = Math.min(shape.prefix, room);
  const suffix = Math.min(shape.suffix, room - prefix);
  return `${chars.slice(0, prefix).join('')}…${chars.slice(chars.length - suffix).join('')}`;
}

/**
 * Masks for the ids of one table, all in the same shape (as many characters at the start of
 * each, as many at the end: never "k_…01" beside "k…63"), the shape of the shortest id; where
 * two masks would be the same, every id shows one more character at each end in turn until
 * they differ (never the whole id, at least a third hidden).
 */
export function maskKeyIds(keyIds: readonly string[]): string[] {
  const long = keyIds.map((id) => Array.from(id)).filter((chars) => chars.length > 3);
  if (long.length === 0) return keyIds.map(() => '…');
  const base = Math.min(...long.map(naturalPrefix));
  const distinct = new Set(keyIds).size;
  const longest = Math.max(...long.map((chars) => chars.length));
  let masks = keyIds.map((id) => maskWith(id, { prefix: base, suffix: base }));
  for (let step = 1; step <= 2 * longest && new Set(masks).size < distinct; step++) {
    const shape = { prefix: base + Math.floor(step / 2), suffix: base + Math.ceil(step / 2) };
    const next = keyIds.map((id) => maskWith(id, shape));
    if (next.every((mask, i) => mask === masks[i])) break;
    masks = next;
  }
  return masks;
}

/**
 * The key id a key carries, when keys have the form `<keyId>.<secret>` (the service's keys
 * do). Undefined when the key does not have that form: then no row can be marked.
 */
export function keyIdOfApiKey(key: string | undefined): string | undefined {
  if (!key) return undefined;
  const dot = key.indexOf('.');
  if (dot <= 0 || dot === key.length - 1) return undefined;
  const id = key.slice(0, dot);
  return /^[\w-]{1,128}$/.test(id) ? id : undefined;
}

/** Rows for the per-key table: the share of all calls, the masked id, the current key marked. */
export function keyRows(keys: readonly KeyUsageInput[], currentKeyId?: string): KeyRow[] {
  const total = keys.reduce((sum, key) => sum + Math.max(0, key.calls), 0);
  const masks = maskKeyIds(keys.map((key) => key.keyId));
  return keys.map((key, i) => ({
    name: key.name,
    maskedKeyId: masks[i],
    calls: key.calls,
    share: total > 0 ? Math.max(0, key.calls) / total : 0,
    lastUsedAt: key.lastUsedAt,
    current: currentKeyId !== undefined && key.keyId === currentKeyId,
  }));
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

function time(iso: string): number | undefined {
  const value = Date.parse(iso);
  return Number.isNaN(value) ? undefined : value;
}

/**
 * A sorted copy. Ties keep a stable order by name, then id; rows with no usable
 * `lastUsedAt` go last in both directions.
 */
export function sortKeyRows(rows: readonly KeyRow[], sort: KeySort): KeyRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const byName = (a: KeyRow, b: KeyRow) =>
    collator.compare(a.name, b.name) || collator.compare(a.maskedKeyId, b.maskedKeyId);
  const compare = (a: KeyRow, b: KeyRow): number => {
    switch (sort.column) {
      case 'name':
        return sign * byName(a, b);
      case 'keyId':
        return sign * collator.compare(a.maskedKeyId, b.maskedKeyId) || byName(a, b);
      case 'calls':
      case 'share':
        return sign * (a.calls - b.calls) || byName(a, b);
      case 'lastUsedAt': {
        const ta = time(a.lastUsedAt);
        const tb = time(b.lastUsedAt);
        if (ta === undefined || tb === undefined) return ta === tb ? byName(a, b) : ta === undefined ? 1 : -1;
        return sign * (ta - tb) || byName(a, b);
      }
    }
  };
  return [...rows].sort(compare);
}

// The usage records' page sizes and the key table's first order: what the extension needs of
// src/core/records.ts when it starts (a dashboard opened or restored), without loading it.
/** Rows per page of the usage records: the contract's default and maximum. */
export const DEFAULT_DETAILS_PAGE_SIZE = 25;
export const MAX_DETAILS_PAGE_SIZE = 100;

export type KeyColumn = 'name' | 'keyId' | 'calls' | 'share' | 'lastUsedAt';

export interface KeySort {
  column: KeyColumn;
  direction: SortDirection;
}

export const DEFAULT_KEY_SORT: KeySort = { column: 'calls', direction: 'desc' };

// Filtering the usage records of a whole period: by key, by a column's value, and by the
// class of a status code. The records are open (the contract names no field), so the
// columns are found in the records themselves. Pure.
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export interface RecordFilter {
  /** The key id (as in the records' key column) to keep. */
  keyId?: string;
  /** A column and the text its value must contain (case-insensitive); without a column, any column. */
  column?: string;
  text?: string;
  status?: StatusClass;
  /** A group of the breakdown: records whose `column` reads exactly `value` (see `groupValue`). */
  group?: { column: string; value: string };
  /** A day of the day-by-day bars (YYYY-MM-DD, UTC): records of that day. */
  day?: string;
}

export function isFilterActive(filter: RecordFilter | undefined): filter is RecordFilter {
  return (
    filter !== undefined &&
    (filter.keyId !== undefined ||
      (filter.text ?? '').trim() !== '' ||
      filter.status !== undefined ||
      filter.group !== undefined ||
      filter.day !== undefined)
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

/** A cell's value as a group of the breakdown: its compact text, whole (an empty cell is the group ""). */
export function groupValue(value: unknown): string {
  return compactValue(value, 200);
}

/** The column holding each record's time (`timestamp`, `time`, `occurred_at`, `createdAt` …), if any. */
export function timeColumn(columns: readonly string[]): string | undefined {
  for (const wanted of ['timestamp', 'time', 'occurredat', 'createdat', 'at', 'date']) {
    const found = columns.find((c) => normalise(c) === wanted);
    if (found) return found;
  }
  return undefined;
}

/** The UTC day (YYYY-MM-DD) of an ISO time, or undefined. */
export function utcDay(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString().slice(0, 10);
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
  const time = filter.day !== undefined ? timeColumn(columns) : undefined;
  return records.filter((record) => {
    if (filter.group !== undefined && groupValue(record[filter.group.column]) !== filter.group.value) return false;
    if (filter.day !== undefined && (time === undefined || utcDay(record[time]) !== filter.day)) return false;
    if (filter.keyId !== undefined && (keyCol === undefined || compactValue(record[keyCol], 10_000) !== filter.keyId))
      return false;
    if (filter.status !== undefined && (statusCol === undefined || statusClassOf(record[statusCol]) !== filter.status))
      return false;
    if (needle && !searched.some((column) => compactValue(record[column], 10_000).toLowerCase().includes(needle)))
      return false;
    return true;
  });
}

// Export of usage records to CSV (RFC 4180, with spreadsheet formula injection defused) and
// to JSON. Pure.
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

/** The contract's field names (section 2), by their letters alone: `key_id`, `KeyID` and `keyId` are one name. */
const CONTRACT_FIELDS: ReadonlyMap<string, string> = new Map(
  [
    ...ENGAGEMENT_FIELDS,
    'billingPeriod',
    'tier',
    'usage',
    'used',
    'included',
    'overage',
    'keyId',
    'calls',
    'webhooks',
    'lastUsedAt',
  ].map((name) => [name.toLowerCase(), name]),
);

/**
 * The name an export gives a field: the contract's name where the field is one of its fields
 * spelled otherwise (`key_id` → `keyId`, `last_used_at` → `lastUsedAt`), else the name as the
 * service sent it (`http_method` stays), so exports of two services line up.
 */
function exportName(field: string): string {
  return CONTRACT_FIELDS.get(field.toLowerCase().replace(/[^a-z]/g, '')) ?? field;
}

/** Export names for the columns; a name two columns would share keeps each as sent. */
function exportNames(columns: readonly string[]): string[] {
  const names = columns.map(exportName);
  return names.map((name, i) => (names.indexOf(name) !== names.lastIndexOf(name) ? columns[i] : name));
}

/** A header row of the columns (in the contract's names, see `exportName`), then one row per record; lines end in CRLF. */
export function toCsv(
  records: readonly OpenRecord[],
  columns: readonly string[] = deriveColumns(records, Number.POSITIVE_INFINITY),
): string {
  const lines = [exportNames(columns).map(csvField).join(',')];
  for (const record of records) lines.push(columns.map((column) => csvField(record[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export interface JsonExportMeta {
  billingPeriod: string;
  exportedAt: string;
}

/** The records' values as the service sent them, their fields in the contract's names (see `exportName`), with the period they belong to. */
export function toJsonExport(records: readonly OpenRecord[], meta: JsonExportMeta): string {
  const columns = deriveColumns(records, Number.POSITIVE_INFINITY);
  const exported = exportNames(columns);
  const names = new Map(columns.map((column, i) => [column, exported[i]]));
  const renamed = columns.every((c) => names.get(c) === c)
    ? records
    : records.map((record) => Object.fromEntries(Object.entries(record).map(([k, v]) => [names.get(k) ?? k, v])));
  return `${JSON.stringify({ billingPeriod: meta.billingPeriod, exportedAt: meta.exportedAt, count: records.length, records: renamed }, null, 2)}\n`;
}
