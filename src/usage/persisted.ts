// What the usage feature keeps across sessions and windows, per environment, in VS Code's
// mementos (on top of PerEnvironmentStore): the trend points of closed periods, the summary
// read most recently by any window, which alerts were shown, and the dashboard last shown.
// No `vscode` here: unit tests drive each store with a memento of their own.

// Closed billing periods never change: their trend points are kept per environment in the
// global state (shared by every window) and never read again. Only usage figures are kept,
// never a key; an environment's entry goes with the environment or its key, and is not used
// once its base URL changes. Only kept to save reads: a failed save is logged, not told (the
// periods are read from the service again).
import type { UsageSummary } from '../api/types';
import { comparePeriods, currentPeriod, shiftPeriod } from '../core/period';
import type { TrendPoint } from '../core/trend';
import type { Layout, MementoLike, SaveFailed } from '../shared/perEnvironment';
import { PerEnvironmentStore, unversioned } from '../shared/perEnvironment';
import type { DetailsData, KeysData, SummaryData } from './protocol';

interface Entry {
  baseUrl: string;
  points: Record<string, TrendPoint>;
}

/** Periods kept per environment (more than the trend shows, fewer than forever). */
const MAX_PERIODS = 24;

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNum = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isEntry = (value: unknown): value is Entry =>
  isObj(value) && typeof value.baseUrl === 'string' && isObj(value.points);

function isStoredPoint(period: string, value: unknown): value is TrendPoint {
  if (!isObj(value) || value.period !== period) return false;
  if (value.status === 'noData') return true;
  return (
    value.status === 'data' &&
    typeof value.tier === 'string' &&
    isObj(value.meters) &&
    Object.values(value.meters).every((m) => isObj(m) && isNum(m.used) && isNum(m.included)) &&
    (value.keys === undefined ||
      (Array.isArray(value.keys) &&
        value.keys.every(
          (k) => isObj(k) && typeof k.keyId === 'string' && typeof k.name === 'string' && isNum(k.calls),
        )))
  );
}

export class UsageHistory {
  private readonly store: PerEnvironmentStore<Entry>;

  constructor(memento: MementoLike, key: string, failed?: SaveFailed) {
    this.store = new PerEnvironmentStore(memento, key, { isValid: isEntry, failed });
  }

  /** The stored closed periods of an environment at this base URL. */
  read(environmentId: string, baseUrl: string): Map<string, TrendPoint> {
    const entry = this.store.read(environmentId);
    const points = new Map<string, TrendPoint>();
    if (entry?.baseUrl !== baseUrl) return points;
    for (const [period, point] of Object.entries(entry.points))
      if (isStoredPoint(period, point)) points.set(period, point);
    return points;
  }

  /** Adds closed periods (data or no data; never a failed read). */
  async write(environmentId: string, baseUrl: string, points: readonly TrendPoint[]): Promise<void> {
    const keep = points.filter((p) => p.status !== 'error');
    if (keep.length === 0) return;
    const previous = this.store.read(environmentId);
    const merged: Record<string, TrendPoint> = previous?.baseUrl === baseUrl ? { ...previous.points } : {};
    for (const point of keep) merged[point.period] = point;
    const newest = Object.keys(merged).sort().slice(-MAX_PERIODS);
    const entry: Entry = { baseUrl, points: Object.fromEntries(newest.map((p) => [p, merged[p]])) };
    await this.store.change((entries) => {
      entries[environmentId] = entry;
      return true;
    });
  }

  forget(environmentId: string): void {
    this.store.forget(environmentId);
  }

  keepOnly(environmentIds: readonly string[]): void {
    this.store.keepOnly(environmentIds);
  }
}

// One read of the current period's summary per interval across all open windows. Each window
// has a timer; before it reads, it looks in the global state (shared by the windows) whether
// another window read this environment's summary within the interval. If so it uses that
// summary; if not, it records that it reads now, then reads and shares what it got.
// Only usage figures are kept there, never a key. It is read from VS Code's global state
// itself, not through `OwnState`: another window's reads must be seen. Only kept to share
// reads: a failed save is logged, not told (each window then reads on its own).
interface SharedRead {
  /** When a window started its read (ms since epoch). */
  at: number;
  /** Which window. */
  window: string;
  summary?: UsageSummary;
}

const isSharedRead = (value: unknown): value is SharedRead => isObj(value) && typeof value.at === 'number';

/** A share of the interval: a window whose timer fires a little early still leaves the read to the other. */
const FRESH_SHARE = 0.9;

export type Claim = { read: true } | { read: false; summary: UsageSummary; by: string };

export class ReadCoordinator {
  private readonly store: PerEnvironmentStore<SharedRead>;

  constructor(
    memento: MementoLike,
    key: string,
    readonly windowId: string,
    failed?: SaveFailed,
  ) {
    this.store = new PerEnvironmentStore(memento, key, { isValid: isSharedRead, failed, layout: unversioned });
  }

  /**
   * Whether this window should read now. It should not when another window read the
   * summary of `period` less than an interval ago: then that summary is given.
   */
  claim(environmentId: string, period: string, intervalMs: number, now = Date.now(), windowId = this.windowId): Claim {
    const entry = this.store.read(environmentId);
    if (entry && entry.window !== windowId && now - entry.at < intervalMs * FRESH_SHARE && entry.at <= now + 1000) {
      const summary = entry.summary;
      if (isObj(summary) && summary.billingPeriod === period) return { read: false, summary, by: entry.window };
    }
    void this.store.write(environmentId, { at: now, window: windowId });
    return { read: true };
  }

  /** Shares the summary this window read. */
  publish(environmentId: string, summary: UsageSummary, at: number, windowId = this.windowId): void {
    void this.store.write(environmentId, { at, window: windowId, summary });
  }

  keepOnly(environmentIds: readonly string[]): void {
    this.store.keepOnly(environmentIds);
  }

  forget(environmentId: string): void {
    this.store.forget(environmentId);
  }
}

// The usage alerts' marks in the global state: when each alert was shown, and which periods the
// user muted ("Don't Show Again for This Period"), per environment. Shared by every window: an
// alert marked by one is not shown by another. Only ids and times are kept, never a key.
/** When each alert was shown (or muted): `environmentId|period|meter|threshold` (or `…|muted`). */
type Marks = Record<string, number>;

const isMarks = (value: unknown): value is Marks =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The marks sit in one object of every environment's ids, as since the first build (windows of
 * an earlier build share the global state): an environment's entry is the ids it starts.
 */
const byEnvironmentPrefix: Layout = {
  read: (stored) => {
    const entries: Record<string, Marks> = {};
    if (isMarks(stored)) for (const [id, at] of Object.entries(stored)) (entries[id.split('|')[0]] ??= {})[id] = at;
    return entries;
  },
  write: (entries) => {
    const marks = Object.assign({}, ...Object.values(entries).filter(isMarks)) as Marks;
    return Object.keys(marks).length ? marks : undefined;
  },
};

export class AlertMarks {
  private readonly store: PerEnvironmentStore<Marks>;

  constructor(memento: MementoLike, key: string, failed?: SaveFailed) {
    this.store = new PerEnvironmentStore(memento, key, { isValid: isMarks, failed, layout: byEnvironmentPrefix });
  }

  /** The marks of an environment, by id. */
  read(environmentId: string): Marks {
    return this.store.read(environmentId) ?? {};
  }

  /**
   * Marks `ids` (all of `environmentId`) at `now`; marks of periods before the previous one are
   * forgotten. `lost`: what the user did that a failed save loses, told to them.
   */
  remember(environmentId: string, ids: readonly string[], now = Date.now(), lost?: string): Promise<boolean> {
    const oldest = shiftPeriod(currentPeriod(now), -1);
    return this.store.change((entries) => {
      const marks: Marks = { ...(entries[environmentId] as Marks | undefined) };
      for (const id of ids) marks[id] = now;
      entries[environmentId] = marks;
      for (const each of Object.values(entries).filter(isMarks))
        for (const id of Object.keys(each)) {
          const period = id.split('|')[1] ?? '';
          if (!/^\d{4}-\d{2}$/.test(period) || comparePeriods(period, oldest) < 0) delete each[id];
        }
      return true;
    }, lost);
  }

  forget(environmentId: string): void {
    this.store.forget(environmentId);
  }

  keepOnly(environmentIds: readonly string[]): void {
    this.store.keepOnly(environmentIds);
  }
}

// Checks what a workspace memento holds before a dashboard shows it as the last data read:
// an entry from an older version or edited by hand is ignored, never posted to the webview.
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
    (value.totalCount === undefined || isNumber(value.totalCount)) &&
    (value.hasNext === undefined || typeof value.hasNext === 'boolean') &&
    Array.isArray(value.columns) &&
    value.columns.every((c) => typeof c === 'string') &&
    Array.isArray(value.records) &&
    value.records.every(isObj)
  );
}

/** What a dashboard showed last, saved so that it can be shown at once when it opens again. */
export interface SavedDashboard {
  /** When the data was read (ms since epoch). */
  fetchedAt: number;
  period: string;
  summary?: SummaryData;
  keys?: KeysData;
  details?: DetailsData;
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
