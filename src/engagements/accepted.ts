// Writes the service accepted (202) and does not show yet. Each is looked for again on one
// schedule, about a minute in all, until it appears, the window ends, or what is shown
// belongs to another environment or key; meanwhile the tree shows each (`PendingOverlay`): a
// create as a row of its own, an update's new values on its row. No `vscode` here: unit tests
// run it in plain Node with a clock of their own.
import { holdsChanges, isCreated } from '../api/engagements';
import type { ServiceApi } from '../api/service';
import type { AcceptedWrite, EngagementChanges, WriteResult } from '../api/types';
import type { Engagement } from '../core/engagement';

/**
 * The waits before each look for an accepted write, after the look made with its answer:
 * 0.5 s, then doubling to 8 s, then every 15 s, about a minute in all (60.5 s, 8 looks). The
 * one place that says how often and how long; a look is one GET of the engagement named, or
 * one search when the answer named nothing.
 */
export const ACCEPTED_LOOK_DELAYS_MS: readonly number[] = [500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000];

/** Waits `ms`, or less when `signal` aborts. Never rejects. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });

/** What became of an accepted write. */
export type AcceptedOutcome =
  /** The service shows it (an update: with every field sent). */
  | { kind: 'shown'; result: WriteResult }
  /** Every look of the window found nothing: the service has not shown it yet. */
  | { kind: 'notShown' }
  /** Stopped: another environment or key, or the view went away. */
  | { kind: 'cancelled' };

export interface LookOptions {
  /** Default ACCEPTED_LOOK_DELAYS_MS. */
  delays?: readonly number[];
  sleep?: Sleep;
  /** A look that failed (the network, a 5xx): reported, and the next look goes ahead. */
  onError?: (error: unknown) => void;
}

/** Looks for an accepted write on the schedule: `look` answers the result once it is there. */
export async function lookAgain(
  look: (signal: AbortSignal) => Promise<WriteResult | undefined>,
  signal: AbortSignal,
  options: LookOptions = {},
): Promise<AcceptedOutcome> {
  const sleep = options.sleep ?? realSleep;
  for (const delay of options.delays ?? ACCEPTED_LOOK_DELAYS_MS) {
    await sleep(delay, signal);
    if (signal.aborted) return { kind: 'cancelled' };
    try {
      const result = await look(signal);
      if (signal.aborted) return { kind: 'cancelled' };
      if (result) return { kind: 'shown', result };
    } catch (error) {
      if (signal.aborted) return { kind: 'cancelled' };
      options.onError?.(error);
    }
  }
  return { kind: 'notShown' };
}

/** A write the service accepted (202) and does not show yet, as the store keeps it. */
export interface PendingWrite {
  /** Its own key, for the tree's row. */
  readonly key: string;
  readonly write: AcceptedWrite;
}

// The store's writes the service accepted (202) and does not show yet: each is looked for
// again (`lookAgain`) until the service shows it, a read shows it, or it is cancelled.
/** What the accepted writes tell the store. */
export interface AcceptedHost {
  /** The service shows a write: its engagement takes its place (`created`: a new one). */
  shown(engagement: Engagement, created: boolean): void;
  /** The writes pending changed. */
  changed(): void;
}

export class AcceptedWrites {
  /** Writes accepted and not shown yet, by key; each with the look that ends it. */
  private readonly writes = new Map<
    string,
    { entry: PendingWrite; abort: AbortController; end: (outcome: AcceptedOutcome) => void }
  >();
  private count = 0;

  constructor(private readonly host: AcceptedHost) {}

  /** Oldest first. */
  entries(): PendingWrite[] {
    return [...this.writes.values()].map((p) => p.entry);
  }

  /** Starts looking for a write again; `stop` ends the look too. Resolves with what became of it. */
  track(api: ServiceApi, write: AcceptedWrite, stop: AbortSignal, looks?: LookOptions): Promise<AcceptedOutcome> {
    const key = `pending:${++this.count}`;
    const abort = new AbortController();
    let end!: (outcome: AcceptedOutcome) => void;
    const ended = new Promise<AcceptedOutcome>((resolve) => (end = resolve));
    this.writes.set(key, { entry: { key, write }, abort, end });
    this.host.changed();
    const signal = AbortSignal.any([abort.signal, stop]);
    void lookAgain((look) => api.engagements.findAccepted(write, { signal: look }), signal, looks)
      .catch((): AcceptedOutcome => ({ kind: 'notShown' }))
      .then((outcome) => this.end(key, outcome, true));
    return ended;
  }

  /** Ends an accepted write's look: shown (its engagement takes its place), not shown, or cancelled. */
  private end(key: string, outcome: AcceptedOutcome, upsert: boolean): void {
    const pending = this.writes.get(key);
    if (!pending) return;
    this.writes.delete(key);
    pending.abort.abort();
    if (outcome.kind === 'shown' && upsert)
      this.host.shown(outcome.result.engagement, pending.entry.write.pending === 'create');
    else this.host.changed();
    pending.end(outcome);
  }

  /** Accepted writes that a read now shows are done: the engagement read takes their place. */
  shownIn(items: readonly Engagement[]): void {
    for (const [key, { entry }] of [...this.writes]) {
      const write = entry.write;
      const engagement =
        write.pending === 'update'
          ? items.find((e) => e.id === write.id && holdsChanges(e, write.changes))
          : items.find((e) =>
              write.id !== undefined ? e.id === write.id : isCreated(e, write.input, write.createdFrom),
            );
      if (!engagement) continue;
      const source =
        write.pending === 'update' ? 'reread' : write.id !== undefined ? (write.named ?? 'named') : 'search';
      this.end(key, { kind: 'shown', result: { engagement, source, accepted: true } }, false);
    }
  }

  cancel(): void {
    for (const key of [...this.writes.keys()]) this.end(key, { kind: 'cancelled' }, false);
  }
}

/** A create the service accepted (202) and does not show yet: the name and type typed, marked pending. */
export interface PendingNode {
  readonly kind: 'pending';
  readonly id: string;
  pending: PendingWrite & { write: { pending: 'create' } };
}

/** What the overlay reads of the store's snapshot. */
interface Shown {
  readonly pending: readonly PendingWrite[];
  readonly items: readonly Engagement[];
}

// Writes the service accepted (202) and does not show yet, as the tree shows them: a create
// as a row of its own, an update's new values on its row.
export class PendingOverlay {
  /** Engagements shown with the new values of an update the service accepted and does not show yet. */
  private ids = new Set<string>();
  private overlaid = new WeakMap<Engagement, { changes: string; engagement: Engagement }>();
  private readonly nodes = new Map<string, PendingNode>();

  /** Whether an engagement is shown with the new values of an accepted update. */
  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Creates the service accepted and does not show yet: first, whatever the sort, group or filter. */
  rows(snapshot: Shown): PendingNode[] {
    const rows: PendingNode[] = [];
    const live = new Set<string>();
    for (const entry of snapshot.pending) {
      if (entry.write.pending !== 'create') continue;
      live.add(entry.key);
      let node = this.nodes.get(entry.key);
      if (!node)
        this.nodes.set(
          entry.key,
          (node = { kind: 'pending', id: entry.key, pending: entry as PendingNode['pending'] }),
        );
      rows.push(node);
    }
    for (const key of this.nodes.keys()) if (!live.has(key)) this.nodes.delete(key);
    return rows;
  }

  /**
   * The engagements as the tree shows them: with the new values of updates the service
   * accepted and does not show yet (the store keeps what the service said).
   */
  items(snapshot: Shown): readonly Engagement[] {
    const changes = new Map<string, EngagementChanges>();
    for (const { write } of snapshot.pending)
      if (write.pending === 'update') changes.set(write.id, { ...changes.get(write.id), ...write.changes });
    this.ids = new Set(changes.keys());
    if (changes.size === 0) return snapshot.items;
    return snapshot.items.map((e) => {
      const change = changes.get(e.id);
      if (!change) return e;
      const key = JSON.stringify(change);
      const made = this.overlaid.get(e);
      if (made?.changes === key) return made.engagement;
      const engagement = { ...e, ...change };
      this.overlaid.set(e, { changes: key, engagement });
      return engagement;
    });
  }
}
