// One read of the current period's summary per interval across all open windows. Each window
// has a timer; before it reads, it looks in the global state (shared by the windows) whether
// another window read this environment's summary within the interval. If so it uses that
// summary; if not, it records that it reads now, then reads and shares what it got.
// Only usage figures are kept there, never a key. It is read from VS Code's global state
// itself, not through `OwnState`: another window's reads must be seen. Only kept to share
// reads: a failed save is logged, not told (each window then reads on its own).
import { type MementoLike, PerEnvironmentStore, type SaveFailed, unversioned } from '../shared/perEnvironment';
import type { UsageSummary } from '../api/types';

interface SharedRead {
  /** When a window started its read (ms since epoch). */
  at: number;
  /** Which window. */
  window: string;
  summary?: UsageSummary;
}

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
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
