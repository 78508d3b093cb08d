// The tree of the Engagements view. It renders the store's snapshot through the query (sort,
// group, filter); it never talks HTTP. Tree nodes are kept per id, so `reveal`, selection
// and expansion find the same element after a refresh.
import * as vscode from 'vscode';
import type { Engagement } from '../api/types';
import { Commands } from '../constants';
import { describeEngagement, engagementMarkdown } from '../core/engagementText';
import { formatCount } from '../core/format';
import { applyQuery, type EngagementGroup } from '../core/query';
import { statusLook } from '../core/status';
import { displayText, shortLabel } from '../core/text';
import type { QueryState } from './queryState';
import type { EngagementStore } from './store';

export interface EngagementNode {
  readonly kind: 'engagement';
  readonly id: string;
  engagement: Engagement;
  parent?: GroupNode;
}

export interface GroupNode {
  readonly kind: 'group';
  readonly id: string;
  group: EngagementGroup;
  by: 'status' | 'type';
}

export interface LoadMoreNode {
  readonly kind: 'loadMore';
  readonly id: string;
}

export type TreeNode = EngagementNode | GroupNode | LoadMoreNode;

export function isEngagementNode(value: unknown): value is EngagementNode {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as TreeNode).kind === 'engagement' &&
    typeof (value as EngagementNode).engagement === 'object'
  );
}

export class EngagementTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly engagementNodes = new Map<string, EngagementNode>();
  private readonly groupNodes = new Map<string, GroupNode>();
  private readonly loadMoreNode: LoadMoreNode = { kind: 'loadMore', id: 'loadMore' };
  /** When VS Code last got engagements for the roots (performance.now()), for measurements. */
  served?: { at: number; count: number; fromCache: boolean };
  /**
   * Tree items already made, per engagement object and minute (the description says
   * "updated 3 min ago"): a tree of thousands re-renders on every Load more, and most of its
   * items have not changed. The tooltip is made only when VS Code asks (resolveTreeItem).
   */
  private items = new WeakMap<Engagement, { minute: number; environmentId: string; item: vscode.TreeItem }>();

  constructor(
    private readonly store: EngagementStore,
    private readonly query: QueryState,
  ) {}

  /** Tells VS Code to ask again (the store or the query changed, or time passed). */
  refresh(): void {
    this.changed.fire(undefined);
  }

  /** Tells VS Code to ask again for the "Load more…" item only. */
  refreshLoadMore(): void {
    this.changed.fire(this.loadMoreNode);
  }

  /** The root elements as the tree shows them now. */
  roots(): TreeNode[] {
    const snapshot = this.store.snapshot();
    if (snapshot.items.length === 0) return [];
    const result = applyQuery(snapshot.items, this.query.current);
    const live = new Set(snapshot.items.map((e) => e.id));
    for (const id of this.engagementNodes.keys()) if (!live.has(id)) this.engagementNodes.delete(id);
    let roots: TreeNode[];
    if (result.groups) {
      const by = this.query.current.group as 'status' | 'type';
      roots = result.groups.map((group) => {
        const id = `group:${by}:${group.key}`;
        let node = this.groupNodes.get(id);
        if (!node) this.groupNodes.set(id, (node = { kind: 'group', id, group, by }));
        node.group = group;
        for (const e of group.items) this.nodeFor(e, node);
        return node;
      });
    } else {
      roots = result.items.map((e) => this.nodeFor(e, undefined));
    }
    if (snapshot.hasMore) roots.push(this.loadMoreNode);
    return roots;
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
      const roots = this.roots();
      if (roots.length > 0)
        this.served = { at: performance.now(), count: roots.length, fromCache: this.store.snapshot().fromCache };
      return roots;
    }
    if (element.kind === 'group') return element.group.items.map((e) => this.nodeFor(e, element));
    return [];
  }

  getParent(element: TreeNode): TreeNode | undefined {
    return element.kind === 'engagement' ? element.parent : undefined;
  }

  getTreeItem(element: TreeNode): vscode.TreeItem {
    if (element.kind === 'engagement') return this.engagementItem(element.engagement);
    if (element.kind === 'group') return groupItem(element);
    return this.loadMoreItem();
  }

  private engagementItem(engagement: Engagement): vscode.TreeItem {
    const environmentId = this.store.snapshot().environmentId ?? '';
    const minute = Math.floor(Date.now() / 60_000);
    const made = this.items.get(engagement);
    if (made && made.minute === minute && made.environmentId === environmentId) return made.item;
    const item = engagementItem(engagement, environmentId, { tooltip: false });
    this.items.set(engagement, { minute, environmentId, item });
    return item;
  }

  /** The tooltip (every field as Markdown), made when VS Code is about to show it. */
  resolveTreeItem(item: vscode.TreeItem, element: TreeNode): vscode.TreeItem {
    if (element.kind === 'engagement' && item.tooltip === undefined)
      item.tooltip = engagementTooltip(element.engagement);
    return item;
  }

  private loadMoreItem(): vscode.TreeItem {
    const snapshot = this.store.snapshot();
    const shown = formatCount(snapshot.items.length);
    const total = formatCount(snapshot.totalCount);
    const item = new vscode.TreeItem(
      snapshot.loadingMore
        ? vscode.l10n.t('Loading more… ({0} of {1})', shown, total)
        : vscode.l10n.t('Load more… ({0} of {1})', shown, total),
    );
    item.id = 'loadMore';
    item.iconPath = new vscode.ThemeIcon(snapshot.loadingMore ? 'loading~spin' : 'fold-down');
    item.contextValue = 'loadMore';
    item.tooltip = vscode.l10n.t('Load the next page. Sorting, grouping and filtering read every engagement first.');
    item.command = { command: Commands.loadMoreEngagements, title: vscode.l10n.t('Load More Engagements') };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The tree item of an engagement; its tooltip too unless `tooltip: false` (then resolveTreeItem adds it). */
export function engagementItem(
  engagement: Engagement,
  environmentId: string,
  options: { tooltip?: boolean } = {},
): vscode.TreeItem {
  const look = statusLook(engagement.status);
  // Shortened with an ellipsis (the whole name is in the tooltip and the details); a name with
  // nothing visible shows the id, so no row is ever blank.
  const name = shortLabel(engagement.name, engagement.id);
  const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
  item.id = `engagement:${environmentId}:${engagement.id}`;
  const description = describeEngagement(engagement, Date.now());
  // Colour alone never carries the status: statuses the contract does not name are written out.
  item.description = look.kind === 'other' ? `${displayText(look.text)} · ${description}` : description;
  item.iconPath = new vscode.ThemeIcon(look.icon, look.colorId ? new vscode.ThemeColor(look.colorId) : undefined);
  if (options.tooltip !== false) item.tooltip = engagementTooltip(engagement);
  item.contextValue = `engagement status-${look.kind}`;
  // A click (or Enter) opens the details in the one reusable details tab.
  item.command = {
    command: Commands.openEngagement,
    title: vscode.l10n.t('Open Engagement Details'),
    arguments: [engagement.id],
  };
  item.accessibilityInformation = {
    label: `${name}, ${vscode.l10n.t('status {0}', displayText(look.text))}, ${description}`,
  };
  return item;
}

/** Every field as untrusted Markdown without HTML: no command link in it can run. */
export function engagementTooltip(engagement: Engagement): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString(engagementMarkdown(engagement, { heading: false }));
  tooltip.isTrusted = false;
  tooltip.supportHtml = false;
  return tooltip;
}

function groupItem(node: GroupNode): vscode.TreeItem {
  const { group, by } = node;
  const look = by === 'status' ? statusLook(group.label) : undefined;
  const item = new vscode.TreeItem(
    displayText(look ? look.text : group.label),
    vscode.TreeItemCollapsibleState.Expanded,
  );
  item.id = node.id;
  item.description = formatCount(group.items.length);
  item.iconPath = look
    ? new vscode.ThemeIcon(look.icon, look.colorId ? new vscode.ThemeColor(look.colorId) : undefined)
    : new vscode.ThemeIcon('tag');
  item.contextValue = `group group-${by}`;
  item.tooltip =
    by === 'status'
      ? vscode.l10n.t('Status {0}: {1} loaded', group.label, group.items.length)
      : vscode.l10n.t('Type {0}: {1} loaded', group.label, group.items.length);
  return item;
}
