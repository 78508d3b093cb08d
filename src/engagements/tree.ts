// The tree of the Engagements view. It renders the store's snapshot through the query (sort,
// group, filter); it never talks HTTP. Tree nodes are kept per id, so `reveal`, selection
// and expansion find the same element after a refresh. How rows look: treeItems.ts.
import * as vscode from 'vscode';
import type { Engagement } from '../api/types';
import { applyQuery } from '../core/query';
import { engagementsRecord } from '../testing/record/engagements';
import type { QueryState } from './queryState';
import type { EngagementStore } from './store';
import { GivenRows } from './treeGiven';
import type { EngagementNode, GroupNode, LoadMoreNode, ShowMoreNode, TreeNode } from './treeNodes';
import { engagementItem, groupItem, loadMoreItem, pendingItem, showMoreItem, withTooltip } from './treeItems';
import { PageOrder, ROW_STEP, stepped } from './treePaging';
import { PendingOverlay } from './treePending';

export { isEngagementNode } from './treeNodes';
export type { TreeNode } from './treeNodes';

export class EngagementTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly engagementNodes = new Map<string, EngagementNode>();
  private readonly groupNodes = new Map<string, GroupNode>();
  private readonly loadMoreNode: LoadMoreNode = { kind: 'loadMore', id: 'loadMore' };
  /** The environment of the roots last listed: thousands of rows are asked for right after. */
  private environmentId?: string;
  /** Rows shown of each long list (`root` or a group's id), beyond the first ROW_STEP; reset by a new query or environment. */
  private readonly shownRows = new Map<string, number>();
  private shownFor?: { query: unknown; environmentId: string };
  private readonly showMoreNodes = new Map<string, ShowMoreNode>();
  private readonly given = new GivenRows();
  /**
   * Tree items already made, per engagement object and minute (the description says
   * "updated 3 min ago"): a tree of thousands re-renders on every Load more, and most of its
   * items have not changed. The tooltip is made only when VS Code asks (resolveTreeItem).
   */
  private items = new WeakMap<Engagement, { minute: number; environmentId: string; item: vscode.TreeItem }>();
  private readonly pending = new PendingOverlay();
  private readonly pageOrder = new PageOrder();

  constructor(
    private readonly store: EngagementStore,
    private readonly query: QueryState,
  ) {}

  /** Tells VS Code to ask again (the store or the query changed, or time passed). */
  refresh(): void {
    this.given.clear();
    this.changed.fire(undefined);
  }

  /** Tells VS Code to ask again for the "Load more…" item only. */
  refreshLoadMore(): void {
    this.changed.fire(this.loadMoreNode);
  }

  /** The root elements as the tree shows them now. */
  roots(): TreeNode[] {
    const snapshot = this.store.snapshot();
    const environmentId = (this.environmentId = snapshot.environmentId ?? '');
    if (this.shownFor?.query !== this.query.current || this.shownFor.environmentId !== environmentId) {
      this.shownRows.clear();
      this.shownFor = { query: this.query.current, environmentId };
    }
    const pending = this.pending.rows(snapshot);
    if (snapshot.items.length === 0) return pending;
    const result = applyQuery(this.pending.items(snapshot), this.query.current);
    const live = new Set(snapshot.items.map((e) => e.id));
    for (const id of this.engagementNodes.keys()) if (!live.has(id)) this.engagementNodes.delete(id);
    let roots: TreeNode[];
    if (result.groups) {
      const by = this.query.current.group as 'status' | 'type';
      roots = result.groups.map((group) => {
        const id = groupId(by, group.key);
        let node = this.groupNodes.get(id);
        if (!node) this.groupNodes.set(id, (node = { kind: 'group', id, group, by }));
        node.group = group;
        for (const e of group.items) this.nodeFor(e, node);
        return node;
      });
    } else {
      roots = this.rowsOf('root', this.pageOrder.apply(snapshot, this.query.current, result.items), undefined);
    }
    // Rows loaded but not shown come first; then what the service has not sent yet.
    if (snapshot.hasMore && roots.at(-1)?.kind !== 'showMore') roots.push(this.loadMoreNode);
    return pending.length ? [...pending, ...roots] : roots;
  }

  /** The first rows of a list (as many as shown so far, when `stepped`), and "Show more…" when there are more. */
  private rowsOf(list: string, items: readonly Engagement[], parent: GroupNode | undefined): TreeNode[] {
    const shown = stepped(this.store.snapshot()) ? this.rowsShown(list, items.length) : items.length;
    const rows: TreeNode[] = [];
    for (let i = 0; i < shown; i++) rows.push(this.nodeFor(items[i], parent));
    if (shown < items.length) {
      let more = this.showMoreNodes.get(list);
      if (!more) this.showMoreNodes.set(list, (more = { kind: 'showMore', id: `showMore:${list}`, list }));
      more.parent = parent;
      rows.push(more);
    }
    return rows;
  }

  private rowsShown(list: string, length: number): number {
    return Math.min(length, this.shownRows.get(list) ?? ROW_STEP);
  }

  /** Shows the next ROW_STEP rows of a list. */
  showMore(list: string): void {
    this.shownRows.set(list, (this.shownRows.get(list) ?? ROW_STEP) + ROW_STEP);
    this.refresh();
  }

  /**
   * Makes the row of an engagement part of what the tree lists (showing more rows of its list
   * when it lies further down); true when the tree changed for it.
   */
  include(id: string): boolean {
    const snapshot = this.store.snapshot();
    if (!stepped(snapshot)) return false;
    const result = applyQuery(this.pending.items(snapshot), this.query.current);
    const by = this.query.current.group;
    const group = result.groups?.find((g) => g.items.some((e) => e.id === id));
    const list = group ? groupId(by, group.key) : 'root';
    const items = group ? group.items : result.items;
    const index = items.findIndex((e) => e.id === id);
    if (index < this.rowsShown(list, items.length)) return false;
    this.shownRows.set(list, Math.ceil((index + 1) / ROW_STEP) * ROW_STEP);
    this.refresh();
    this.roots();
    return true;
  }

  /** Whether VS Code got this row since the tree last changed. */
  isGiven(node: TreeNode): boolean {
    return this.given.isGiven(node);
  }

  /** Resolves when VS Code next gets this row (it asks after a refresh of a visible tree), or after `timeoutMs`. */
  whenGiven(node: TreeNode, timeoutMs: number): Promise<void> {
    return this.given.whenGiven(node, timeoutMs);
  }

  /** The node showing an engagement, if it is in the tree (after `roots()`). */
  find(id: string): EngagementNode | undefined {
    return this.engagementNodes.get(id);
  }

  private nodeFor(engagement: Engagement, parent: GroupNode | undefined): EngagementNode {
    let node = this.engagementNodes.get(engagement.id);
    if (!node) this.engagementNodes.set(engagement.id, (node = { kind: 'engagement', id: engagement.id, engagement }));
    node.engagement = engagement;
    node.parent = parent;
    return node;
  }

  getChildren(element?: TreeNode): TreeNode[] {
    if (!element) {
      // Asking for the roots is what a visible view does: the first load starts here.
      void this.store.ensureLoaded();
      const roots = this.given.listing(this.roots());
      if (TEST_SEAMS && roots.length > 0)
        engagementsRecord.served = {
          at: performance.now(),
          count: roots.length,
          fromCache: this.store.snapshot().fromCache,
        };
      return roots;
    }
    if (element.kind === 'group') return this.given.listing(this.rowsOf(element.id, element.group.items, element));
    return [];
  }

  getParent(element: TreeNode): TreeNode | undefined {
    return element.kind === 'engagement' || element.kind === 'showMore' ? element.parent : undefined;
  }

  getTreeItem(element: TreeNode): vscode.TreeItem {
    this.given.madeItem(element);
    if (element.kind === 'engagement') return this.engagementItem(element.engagement);
    if (element.kind === 'group') return groupItem(element);
    if (element.kind === 'showMore') return this.showMoreItem(element);
    if (element.kind === 'pending') return pendingItem(element, this.environmentId ?? '');
    return loadMoreItem(this.store.snapshot());
  }

  private engagementItem(engagement: Engagement): vscode.TreeItem {
    // VS Code asks for the items of the roots just listed: their environment is the one listed.
    const environmentId = this.environmentId ?? this.store.snapshot().environmentId ?? '';
    const minute = Math.floor(Date.now() / 60_000);
    const made = this.items.get(engagement);
    if (made && made.minute === minute && made.environmentId === environmentId) return made.item;
    const item = engagementItem(engagement, environmentId, {
      tooltip: false,
      pending: this.pending.has(engagement.id),
    });
    this.items.set(engagement, { minute, environmentId, item });
    return item;
  }

  /** The tooltip (every field as Markdown), made when VS Code is about to show it. */
  resolveTreeItem(item: vscode.TreeItem, element: TreeNode): vscode.TreeItem {
    if (element.kind === 'engagement') withTooltip(item, element.engagement, this.pending.has(element.id));
    return item;
  }

  private showMoreItem(node: ShowMoreNode): vscode.TreeItem {
    const items = node.parent
      ? node.parent.group.items
      : applyQuery(this.pending.items(this.store.snapshot()), this.query.current).items;
    return showMoreItem(node, this.rowsShown(node.list, items.length), items.length);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function groupId(by: string, key: string): string {
  return `group:${by}:${key}`;
}
