// The usage alerts' marks in the global state: when each alert was shown, and which periods the
// user muted ("Don't Show Again for This Period"), per environment. Shared by every window: an
// alert marked by one is not shown by another. Only ids and times are kept, never a key.
import { comparePeriods, currentPeriod, shiftPeriod } from '../core/period';
import { type Layout, type MementoLike, PerEnvironmentStore, type SaveFailed } from '../shared/perEnvironment';

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
