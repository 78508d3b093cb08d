// Closed billing periods never change: their trend points are kept per environment in the
// global state (shared by every window) and never read again. Only usage figures are kept,
// never a key; an environment's entry goes with the environment or its key, and is not used
// once its base URL changes. Only kept to save reads: a failed save is logged, not told (the
// periods are read from the service again).
import { type MementoLike, PerEnvironmentStore, type SaveFailed } from '../shared/perEnvironment';
import type { TrendPoint } from '../core/trend';

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
    Object.values(value.meters).every((m) => isObj(m) && isNum(m.used) && isNum(m.included))
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
