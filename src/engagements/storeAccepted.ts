// The store's writes the service accepted (202) and does not show yet: each is looked for
// again (`lookAgain`) until the service shows it, a read shows it, or it is cancelled.
import { holdsChanges, isCreated } from '../api/engagements';
import type { ServiceApi } from '../api/service';
import type { AcceptedWrite, Engagement } from '../api/types';
import { type AcceptedOutcome, type LookOptions, lookAgain } from './pending';
import type { PendingWrite } from './storeTypes';

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
