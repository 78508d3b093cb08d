// Which rows of the tree VS Code got since it last changed: a reveal waits for its row to
// reach VS Code's window first.
import type { TreeNode } from './treeNodes';

/**
 * What VS Code was given since the tree last changed: each row listed (getChildren) points
 * to the last row of its listing, and VS Code sends a listing on once it has made the item
 * of its last row (getTreeItem). Who waits for a row to reach VS Code's window.
 */
export class GivenRows {
  private listedUpTo = new WeakMap<TreeNode, TreeNode>();
  private made = new WeakSet<TreeNode>();
  private readonly waiting = new Set<{ node: TreeNode; done: () => void }>();

  /** The tree changed: nothing of it is given yet. */
  clear(): void {
    this.listedUpTo = new WeakMap();
    this.made = new WeakSet();
  }

  /** Rows handed to VS Code by getChildren: each points to the listing's last row. */
  listing(rows: TreeNode[]): TreeNode[] {
    const last = rows.at(-1);
    if (last) for (const row of rows) this.listedUpTo.set(row, last);
    return rows;
  }

  /** VS Code made the item of a row (getTreeItem). */
  madeItem(node: TreeNode): void {
    this.made.add(node);
    if (this.waiting.size) for (const waiter of [...this.waiting]) if (this.isGiven(waiter.node)) waiter.done();
  }

  /** Whether VS Code got this row since the tree last changed. */
  isGiven(node: TreeNode): boolean {
    const last = this.listedUpTo.get(node);
    return last !== undefined && this.made.has(last);
  }

  /** Resolves when VS Code next gets this row (it asks after a refresh of a visible tree), or after `timeoutMs`. */
  whenGiven(node: TreeNode, timeoutMs: number): Promise<void> {
    if (this.isGiven(node)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const waiter = {
        node,
        done: () => {
          clearTimeout(timer);
          this.waiting.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.done, timeoutMs);
      this.waiting.add(waiter);
    });
  }
}
