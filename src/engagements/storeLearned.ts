// What the store keeps besides the last read: local writes made while a read was in flight
// (merged into its result), and the statuses and types seen in the data (for the picks).
import type { Engagement } from '../api/types';

/** Local writes made while a load was in flight; merged into its result. */
export class LocalWrites {
  private readonly writes = new Map<string, { engagement: Engagement; created: boolean }>();

  record(engagement: Engagement, created: boolean): void {
    this.writes.set(engagement.id, { engagement, created });
  }

  clear(): void {
    this.writes.clear();
  }

  /** What a read fetched, with the writes made meanwhile (newer ones, and creates it lacks); then forgets them. */
  merge(fetched: Engagement[]): Engagement[] {
    if (this.writes.size === 0) return fetched;
    let out = fetched;
    for (const { engagement, created } of this.writes.values()) {
      const index = out.findIndex((e) => e.id === engagement.id);
      if (index < 0) {
        if (created) out = [engagement, ...out];
      } else if (Date.parse(engagement.updatedAt) > Date.parse(out[index].updatedAt)) {
        out = out.map((e, i) => (i === index ? engagement : e));
      }
    }
    this.writes.clear();
    return out;
  }
}

/** Statuses (first spelling kept) and types seen in this environment's data. */
export class SeenValues {
  private readonly statusesSeen = new Map<string, string>();
  private readonly typesSeen = new Set<string>();

  learn(items: readonly Engagement[]): void {
    for (const e of items) {
      const key = e.status.toLowerCase();
      if (e.status.trim() !== '' && !this.statusesSeen.has(key)) this.statusesSeen.set(key, e.status);
      if (e.type.trim() !== '') this.typesSeen.add(e.type);
    }
  }

  clear(): void {
    this.statusesSeen.clear();
    this.typesSeen.clear();
  }

  statuses(): string[] {
    return [...this.statusesSeen.values()];
  }

  types(): string[] {
    return [...this.typesSeen];
  }
}
