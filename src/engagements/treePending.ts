// Writes the service accepted (202) and does not show yet, as the tree shows them: a create
// as a row of its own, an update's new values on its row.
import type { Engagement, EngagementChanges } from '../api/types';
import type { StoreSnapshot } from './storeTypes';
import type { PendingNode } from './treeNodes';

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
  rows(snapshot: StoreSnapshot): PendingNode[] {
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
  items(snapshot: StoreSnapshot): readonly Engagement[] {
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
