// Sorting, grouping and filtering of engagements, done on the client: the contract gives the
// list endpoint no query parameters for them. Pure, so the tree and the tests share it.
import type { Engagement } from './engagement';
import { l10n } from './l10n';

export type SortField = 'updated' | 'created' | 'name' | 'evaluations';
export type SortDirection = 'asc' | 'desc';
export type GroupBy = 'none' | 'status' | 'type';

export interface EngagementFilter {
  /** Show only these statuses (compared case-insensitively); empty or absent: all. */
  statuses?: string[];
  /** Show only these types; empty or absent: all. */
  types?: string[];
  /** Name contains this text (case- and accent-insensitive); empty or absent: all. */
  nameContains?: string;
}

export interface EngagementQuery {
  sort: SortField;
  direction: SortDirection;
  group: GroupBy;
  filter: EngagementFilter;
}

export const SORT_FIELDS: readonly SortField[] = ['updated', 'created', 'name', 'evaluations'];
const GROUPS: readonly GroupBy[] = ['none', 'status', 'type'];

/** The natural direction of each field: newest, A to Z, most evaluations first. */
export function naturalDirection(field: SortField): SortDirection {
  return field === 'name' ? 'asc' : 'desc';
}

export function defaultQuery(): EngagementQuery {
  return { sort: 'updated', direction: 'desc', group: 'none', filter: {} };
}

function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list = [...new Set(value.filter((v): v is string => typeof v === 'string' && v.trim() !== ''))];
  return list.length ? list : undefined;
}

/** Reads a persisted query defensively: anything unknown falls back to the default. */
export function normaliseQuery(value: unknown): EngagementQuery {
  const base = defaultQuery();
  if (typeof value !== 'object' || value === null) return base;
  const raw = value as Record<string, unknown>;
  const sort = SORT_FIELDS.includes(raw.sort as SortField) ? (raw.sort as SortField) : base.sort;
  const direction = raw.direction === 'asc' || raw.direction === 'desc' ? raw.direction : naturalDirection(sort);
  const group = GROUPS.includes(raw.group as GroupBy) ? (raw.group as GroupBy) : base.group;
  const rawFilter =
    typeof raw.filter === 'object' && raw.filter !== null ? (raw.filter as Record<string, unknown>) : {};
  const filter: EngagementFilter = {};
  const statuses = stringList(rawFilter.statuses);
  const types = stringList(rawFilter.types);
  if (statuses) filter.statuses = statuses;
  if (types) filter.types = types;
  if (typeof rawFilter.nameContains === 'string' && rawFilter.nameContains.trim() !== '')
    filter.nameContains = rawFilter.nameContains.trim();
  return { sort, direction, group, filter };
}

/**
 * True for the view's default: last updated first, no group, no filter. The default keeps the
 * view cheap (pages load one by one, "Load more…"); a sort, group or filter the user chooses
 * reads the whole set first.
 */
export function isDefaultQuery(query: EngagementQuery): boolean {
  return query.sort === 'updated' && query.direction === 'desc' && query.group === 'none' && !isFiltered(query.filter);
}

export function isFiltered(filter: EngagementFilter): boolean {
  return Boolean(filter.statuses?.length || filter.types?.length || filter.nameContains?.trim());
}

function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** A field the service sent none of readably (undefined) matches no value a filter names. */
export function matchesFilter(engagement: Engagement, filter: EngagementFilter): boolean {
  const { status, type, name } = engagement;
  if (filter.statuses?.length && !filter.statuses.some((s) => s.toLowerCase() === status?.toLowerCase())) return false;
  if (filter.types?.length && (type === undefined || !filter.types.includes(type))) return false;
  const needle = filter.nameContains?.trim();
  if (needle && (name === undefined || !fold(name).includes(fold(needle)))) return false;
  return true;
}

/** Unknown (the service sent none readably) is undefined: it sorts last. */
function time(iso: string | undefined): number | undefined {
  if (iso === undefined) return undefined;
  const value = Date.parse(iso);
  return Number.isNaN(value) ? Number.NEGATIVE_INFINITY : value;
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** The number a field sorts by; `undefined` for the name (compared by the collator). */
function numericKey(field: SortField): ((engagement: Engagement) => number | undefined) | undefined {
  switch (field) {
    case 'updated':
      return (e) => time(e.updatedAt);
    case 'created':
      return (e) => time(e.createdAt);
    case 'evaluations':
      return (e) => e.evaluationCount;
    case 'name':
      return undefined;
  }
}

/** Two sort keys in the direction asked; an unknown one after every known one, either way. */
function byKey(a: number | undefined, b: number | undefined, sign: number): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  return sign * (a - b);
}

/**
 * A sorted copy; ties are broken by name, then id, so the order is stable across refreshes.
 * Each date is parsed once, not at every comparison: 10,000 engagements by last update sort
 * in a tenth of the time.
 */
export function sortEngagements(
  items: readonly Engagement[],
  field: SortField,
  direction: SortDirection,
): Engagement[] {
  const sign = direction === 'asc' ? 1 : -1;
  const key = numericKey(field);
  const keys = key ? items.map(key) : undefined;
  // An unknown name sorts after every known one, either way.
  const byName = (a: Engagement, b: Engagement) =>
    a.name === undefined || b.name === undefined
      ? Number(a.name === undefined) - Number(b.name === undefined)
      : collator.compare(a.name, b.name);
  const order = items.map((_, index) => index);
  order.sort((i, j) => {
    const a = items[i];
    const b = items[j];
    const primary = keys
      ? byKey(keys[i], keys[j], sign)
      : a.name === undefined || b.name === undefined
        ? byName(a, b)
        : sign * byName(a, b);
    return primary || byName(a, b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  });
  return order.map((index) => items[index]);
}

export interface EngagementGroup {
  /** Stable key: the status (lower case) or the type; undefined for the engagements whose value is unknown. */
  key: string | undefined;
  /** The value as shown (the first spelling seen); undefined when unknown. */
  label: string | undefined;
  items: Engagement[];
}

/**
 * Filters, sorts and (optionally) groups. Groups are ordered: for status, `active` and
 * `completed` first, then the others by name; for type, by name. Items keep the sort order.
 */
/** The last query applied: the tree, the view's state and its description ask for the same one in a row. */
let lastApplied: { items: readonly Engagement[]; query: EngagementQuery; result: QueryResult } | undefined;

export interface QueryResult {
  readonly items: Engagement[];
  readonly groups?: EngagementGroup[];
}

/**
 * The engagements a query shows, sorted (and grouped). The same list and query objects as the
 * last call (the store and the query state replace, never mutate, them) give the same result
 * without sorting again: 10,000 engagements take about 100 ms to sort by name.
 */
export function applyQuery(items: readonly Engagement[], query: EngagementQuery): QueryResult {
  if (lastApplied && lastApplied.items === items && lastApplied.query === query) return lastApplied.result;
  const result = computeQuery(items, query);
  lastApplied = { items, query, result };
  return result;
}

function computeQuery(items: readonly Engagement[], query: EngagementQuery): QueryResult {
  const visible = sortEngagements(
    items.filter((e) => matchesFilter(e, query.filter)),
    query.sort,
    query.direction,
  );
  if (query.group === 'none') return { items: visible };
  const groups = new Map<string | undefined, EngagementGroup>();
  for (const engagement of visible) {
    const value = query.group === 'status' ? engagement.status : engagement.type;
    const key = query.group === 'status' ? value?.toLowerCase() : value;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, label: value, items: [] }));
    group.items.push(engagement);
  }
  // Those whose value is unknown come last.
  const rank = (key: string | undefined) =>
    key === undefined ? 3 : query.group !== 'status' ? 0 : key === 'active' ? 0 : key === 'completed' ? 1 : 2;
  const ordered = [...groups.values()].sort(
    (a, b) => rank(a.key) - rank(b.key) || collator.compare(a.label ?? '', b.label ?? ''),
  );
  return { items: visible, groups: ordered };
}

/** Values seen in the data, in first-seen order, for the filter and status picks. */
export function distinctValues(items: readonly Engagement[], field: 'status' | 'type'): string[] {
  const out: string[] = [];
  for (const engagement of items) {
    const value = engagement[field];
    if (
      value !== undefined &&
      value.trim() !== '' &&
      !out.some((v) => (field === 'status' ? v.toLowerCase() === value.toLowerCase() : v === value))
    )
      out.push(value);
  }
  return out;
}

export interface FilterWords {
  status: string;
  type: string;
  name: string;
}

/** `status: active, paused · type: onboarding · name: "audit"`; empty when nothing filters. */
export function describeFilter(
  filter: EngagementFilter,
  words: FilterWords = { status: l10n.t('status'), type: l10n.t('type'), name: l10n.t('name') },
): string {
  const parts: string[] = [];
  if (filter.statuses?.length) parts.push(`${words.status}: ${filter.statuses.join(', ')}`);
  if (filter.types?.length) parts.push(`${words.type}: ${filter.types.join(', ')}`);
  const needle = filter.nameContains?.trim();
  if (needle) parts.push(`${words.name}: "${needle}"`);
  return parts.join(' · ');
}
