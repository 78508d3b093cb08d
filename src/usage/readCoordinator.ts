// One read of the current period's summary per interval across all open windows. Each window
// has a timer; before it reads, it looks in the global state (shared by the windows) whether
// another window read this environment's summary within the interval. If so it uses that
// summary; if not, it records that it reads now, then reads and shares what it got.
// Only usage figures are kept there, never a key.
import type { MementoLike } from '../shared/perEnvironment';
import type { UsageSummary } from '../api/types';

interface SharedRead {
  /** When a window started its read (ms since epoch). */
  at: number;
  /** Which window. */
  window: string;
  summary?: UsageSummary;
}

type Reads = Record<string, SharedRead>;

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A share of the interval: a window whose timer fires a little early still leaves the read to the other. */
const FRESH_SHARE = 0.9;

export type Claim = { read: true } | { read: false; summary: UsageSummary; by: string };

export class ReadCoordinator {
  constructor(
    private readonly memento: MementoLike,
    private readonly key: string,
    readonly windowId: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  private reads(): Reads {
    const value = this.memento.get<Reads>(this.key);
    return isObj(value) ? { ...value } : {};
  }

  /**
   * Whether this window should read now. It should not when another window read the
   * summary of `period` less than an interval ago: then that summary is given.
   */
  claim(environmentId: string, period: string, intervalMs: number, now = Date.now(), windowId = this.windowId): Claim {
    const reads = this.reads();
    const entry = reads[environmentId];
    if (
      isObj(entry) &&
      entry.window !== windowId &&
      typeof entry.at === 'number' &&
      now - entry.at < intervalMs * FRESH_SHARE &&
      entry.at <= now + 1000
    ) {
      const summary = entry.summary;
      if (isObj(summary) && summary.billingPeriod === period) return { read: false, summary, by: entry.window };
    }
    reads[environmentId] = { at: now, window: windowId };
    this.save(reads);
    return { read: true };
  }

  /** Shares the summary this window read. */
  publish(environmentId: string, summary: UsageSummary, at: number, windowId = this.windowId): void {
    const reads = this.reads();
    reads[environmentId] = { at, window: windowId, summary };
    this.save(reads);
  }

  keepOnly(environmentIds: readonly string[]): void {
    const reads = this.reads();
    const stale = Object.keys(reads).filter((id) => !environmentIds.includes(id));
    if (stale.length === 0) return;
    for (const id of stale) delete reads[id];
    this.save(reads);
  }

  forget(environmentId: string): void {
    const reads = this.reads();
    if (!(environmentId in reads)) return;
    delete reads[environmentId];
    this.save(reads);
  }

  private save(reads: Reads): void {
    this.memento.update(this.key, Object.keys(reads).length ? reads : undefined).then(undefined, this.onError);
  }
}
