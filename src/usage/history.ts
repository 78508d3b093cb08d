// Closed billing periods never change: their trend points are kept per environment in the
// global state (shared by every window) and never read again. Only usage figures are kept,
// never a key; an environment's entry goes with the environment or its key, and is not used
// once its base URL changes.
import type { MementoLike } from '../shared/perEnvironment';
import type { TrendPoint } from '../core/trend';

interface Entry {
  baseUrl: string;
  points: Record<string, TrendPoint>;
}

interface Stored {
  version: 1;
  entries: Record<string, Entry>;
}

/** Periods kept per environment (more than the trend shows, fewer than forever). */
const MAX_PERIODS = 24;

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNum = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

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
  constructor(
    private readonly memento: MementoLike,
    private readonly key: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  private entries(): Record<string, Entry> {
    const stored = this.memento.get<Stored>(this.key);
    return stored?.version === 1 && isObj(stored.entries) ? { ...stored.entries } : {};
  }

  private save(entries: Record<string, Entry>): Promise<void> {
    const value: Stored | undefined = Object.keys(entries).length ? { version: 1, entries } : undefined;
    return Promise.resolve(this.memento.update(this.key, value)).then(undefined, this.onError);
  }

  /** The stored closed periods of an environment at this base URL. */
  read(environmentId: string, baseUrl: string): Map<string, TrendPoint> {
    const entry = this.entries()[environmentId];
    const points = new Map<string, TrendPoint>();
    if (!isObj(entry) || entry.baseUrl !== baseUrl || !isObj(entry.points)) return points;
    for (const [period, point] of Object.entries(entry.points))
      if (isStoredPoint(period, point)) points.set(period, point);
    return points;
  }

  /** Adds closed periods (data or no data; never a failed read). */
  write(environmentId: string, baseUrl: string, points: readonly TrendPoint[]): Promise<void> {
    const keep = points.filter((p) => p.status !== 'error');
    if (keep.length === 0) return Promise.resolve();
    const entries = this.entries();
    const previous = entries[environmentId];
    const merged: Record<string, TrendPoint> =
      isObj(previous) && previous.baseUrl === baseUrl && isObj(previous.points) ? { ...previous.points } : {};
    for (const point of keep) merged[point.period] = point;
    const newest = Object.keys(merged).sort().slice(-MAX_PERIODS);
    entries[environmentId] = { baseUrl, points: Object.fromEntries(newest.map((p) => [p, merged[p]])) };
    return this.save(entries);
  }

  forget(environmentId: string): void {
    const entries = this.entries();
    if (!(environmentId in entries)) return;
    delete entries[environmentId];
    void this.save(entries);
  }

  keepOnly(environmentIds: readonly string[]): void {
    const entries = this.entries();
    const stale = Object.keys(entries).filter((id) => !environmentIds.includes(id));
    if (stale.length === 0) return;
    for (const id of stale) delete entries[id];
    void this.save(entries);
  }
}
