// The tree of the Engagements view. It renders the store's snapshot through the query (sort,
// group, filter; `QueryState`); it never talks HTTP. Tree nodes are kept per id, so `reveal`,
// selection and expansion find the same element after a refresh. Here too: how rows look,
// long lists a step at a time, which rows VS Code was given, and accepted writes as rows.
import * as vscode from 'vscode';
import type { Engagement } from '../core/engagement';
import { describeEngagement, engagementMarkdown, fieldText, nameText, statusLook } from '../core/engagementText';
import { formatCount } from '../core/format';
import type { EngagementGroup, EngagementQuery } from '../core/query';
import { applyQuery, isDefaultQuery, isFiltered, normaliseQuery } from '../core/query';
import { displayText, safeText, shortLabel } from '../core/text';
import { Commands, StateKeys } from '../shared/constants';
import type { Recorder } from '../shared/recorder';
import type { EngagementStore, StoreSnapshot } from './store';
import type { PendingNode } from './accepted';
import { PendingOverlay } from './accepted';

/** The view's sort, grouping and filter, remembered per workspace. */
export class QueryState implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<EngagementQuery>();
  readonly onDidChange = this.changed.event;
  private value: EngagementQuery;

  constructor(private readonly memento: vscode.Memento) {
    this.value = normaliseQuery(memento.get(StateKeys.engagementsQuery));
  }

  get current(): EngagementQuery {
    return this.value;
  }

  get filtered(): boolean {
    return isFiltered(this.value.filter);
  }

  /** Applies at once (the view repaints); resolves once it is remembered. */
  async update(changes: Partial<EngagementQuery>): Promise<void> {
    this.value = normaliseQuery({ ...this.value, ...changes });
    this.changed.fire(this.value);
    await this.memento.update(StateKeys.engagementsQuery, this.value);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

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
    private readonly recorder: Recorder,
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
      this.recorder.treeServed(roots.length, this.store.snapshot().fromCache);
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

/** A group's tree id; the group whose value is unknown has one no value can give. */
function groupId(by: string, key: string | undefined): string {
  return key === undefined ? `group-unknown:${by}` : `group:${by}:${key}`;
}

// The elements of the Engagements tree: an engagement, a group, "Load more…", "Show more…",
// and a create the service accepted and does not show yet.
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

/** "Show more…": the next rows of a long list already loaded (the roots, or a group's rows). */
export interface ShowMoreNode {
  readonly kind: 'showMore';
  readonly id: string;
  /** The list it extends: `root`, or the id of its group. */
  readonly list: string;
  parent?: GroupNode;
}

export type TreeNode = EngagementNode | GroupNode | LoadMoreNode | ShowMoreNode | PendingNode;

export function isEngagementNode(value: unknown): value is EngagementNode {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as TreeNode).kind === 'engagement' &&
    typeof (value as EngagementNode).engagement === 'object'
  );
}

// How the rows of the Engagements tree look: an engagement (its tooltip made on demand), a
// group, a pending create, "Show more…" and "Load more…". Made from plain data; no state.
/**
 * The tree item of an engagement; its tooltip too unless `tooltip: false` (then resolveTreeItem
 * adds it). `pending`: it shows the new values of an update the service accepted and does not
 * show yet, and says so.
 */
function engagementItem(
  engagement: Engagement,
  environmentId: string,
  options: { tooltip?: boolean; pending?: boolean } = {},
): vscode.TreeItem {
  const look = statusLook(engagement.status);
  // Shortened with an ellipsis (the whole name is in the tooltip and the details); a name with
  // nothing visible shows the id, so no row is ever blank.
  const name = shortLabel(nameText(engagement), engagement.id);
  const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
  item.id = `engagement:${environmentId}:${engagement.id}`;
  const described = describeEngagement(engagement, Date.now());
  // Colour alone never carries the status: statuses the contract does not name, and one the
  // service sent none of readably, are written out.
  const status =
    look.kind === 'other' ? displayText(look.text) : look.kind === 'unknown' ? vscode.l10n.t('status unknown') : '';
  const description = status ? `${status} · ${described}` : described;
  item.description = options.pending ? `${vscode.l10n.t('pending')} · ${description}` : description;
  item.iconPath = new vscode.ThemeIcon(look.icon, look.colorId ? new vscode.ThemeColor(look.colorId) : undefined);
  if (options.tooltip !== false) item.tooltip = engagementTooltip(engagement, options.pending);
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

/** Adds the tooltip of an engagement's item made without one, when VS Code is about to show it. */
function withTooltip(item: vscode.TreeItem, engagement: Engagement, pending: boolean): void {
  if (item.tooltip === undefined) item.tooltip = engagementTooltip(engagement, pending);
}

/** Every field as untrusted Markdown without HTML: no command link in it can run. */
function engagementTooltip(engagement: Engagement, pending = false): vscode.MarkdownString {
  const fields = engagementMarkdown(engagement, { heading: false });
  const tooltip = new vscode.MarkdownString(
    pending
      ? `${vscode.l10n.t('Pending: the service accepted this change and does not show it yet.')}\n\n${fields}`
      : fields,
  );
  tooltip.isTrusted = false;
  tooltip.supportHtml = false;
  return tooltip;
}

/** A create the service accepted and does not show yet: the name and type typed, its own icon, "pending". */
function pendingItem(node: PendingNode, environmentId: string): vscode.TreeItem {
  const { name, type } = node.pending.write.input;
  const label = shortLabel(name, vscode.l10n.t('(no name)'));
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = `pending:${environmentId}:${node.id}`;
  item.description = vscode.l10n.t('pending · {0}', shortLabel(type, ''));
  item.iconPath = new vscode.ThemeIcon('watch');
  item.contextValue = 'pending';
  item.tooltip = safeText(
    vscode.l10n.t(
      '“{0}” ({1}): the service accepted it and does not show it yet. It is looked for again for about a minute and shown here when the service shows it.',
      displayText(name),
      displayText(type),
    ),
  );
  item.accessibilityInformation = { label: `${label}, ${vscode.l10n.t('pending')}, ${displayText(type)}` };
  return item;
}

function groupItem(node: GroupNode): vscode.TreeItem {
  const { group, by } = node;
  const look = by === 'status' ? statusLook(group.label) : undefined;
  const label = fieldText(group.label);
  const item = new vscode.TreeItem(displayText(look ? look.text : label), vscode.TreeItemCollapsibleState.Expanded);
  item.id = node.id;
  item.description = formatCount(group.items.length);
  item.iconPath = look
    ? new vscode.ThemeIcon(look.icon, look.colorId ? new vscode.ThemeColor(look.colorId) : undefined)
    : new vscode.ThemeIcon('tag');
  item.contextValue = `group group-${by}`;
  item.tooltip = safeText(
    by === 'status'
      ? vscode.l10n.t('Status {0}: {1} loaded', look?.text ?? label, group.items.length)
      : vscode.l10n.t('Type {0}: {1} loaded', label, group.items.length),
  );
  // The status in words (the icon's colour is not read out), and how many.
  item.accessibilityInformation = {
    label:
      by === 'status'
        ? vscode.l10n.t(
            'Status {0}, {1} engagements',
            displayText(look?.text ?? label),
            formatCount(group.items.length),
          )
        : vscode.l10n.t('Type {0}, {1} engagements', displayText(label), formatCount(group.items.length)),
  };
  return item;
}

/** "Show more…": the next ROW_STEP rows of a list of `total` rows, `shown` of them listed. */
function showMoreItem(node: ShowMoreNode, shown: number, total: number): vscode.TreeItem {
  const label = vscode.l10n.t(
    'Show {0} more… ({1} of {2})',
    formatCount(Math.min(ROW_STEP, total - shown)),
    formatCount(shown),
    formatCount(total),
  );
  const item = new vscode.TreeItem(label);
  item.id = node.id;
  item.iconPath = new vscode.ThemeIcon('fold-down');
  item.contextValue = 'showMore';
  const tooltip = vscode.l10n.t(
    'Every engagement is loaded; the view lists them {0} at a time. Go to Engagement finds any of them.',
    formatCount(ROW_STEP),
  );
  item.tooltip = tooltip;
  item.accessibilityInformation = { label: `${label}. ${tooltip}` };
  item.command = {
    command: Commands.showMoreEngagements,
    title: vscode.l10n.t('Show More Engagements'),
    arguments: [node.list],
  };
  return item;
}

/** "Load more…": the next page from the service. */
function loadMoreItem(snapshot: StoreSnapshot): vscode.TreeItem {
  const shown = formatCount(snapshot.items.length);
  const total = formatCount(snapshot.totalCount);
  // Without a total said, only what was read is counted: "(50 loaded)", never "(50 of 51)".
  const label = snapshot.totalEstimated
    ? snapshot.loadingMore
      ? vscode.l10n.t('Loading more… ({0} loaded)', shown)
      : vscode.l10n.t('Load more… ({0} loaded)', shown)
    : snapshot.loadingMore
      ? vscode.l10n.t('Loading more… ({0} of {1})', shown, total)
      : vscode.l10n.t('Load more… ({0} of {1})', shown, total);
  const item = new vscode.TreeItem(label);
  item.id = 'loadMore';
  item.iconPath = new vscode.ThemeIcon(snapshot.loadingMore ? 'loading~spin' : 'fold-down');
  item.contextValue = 'loadMore';
  item.tooltip = vscode.l10n.t('Load the next page. Sorting, grouping and filtering read every engagement first.');
  item.accessibilityInformation = { label: `${label}. ${item.tooltip}` };
  item.command = { command: Commands.loadMoreEngagements, title: vscode.l10n.t('Load More Engagements') };
  return item;
}

// How the tree lists many rows: long lists a step at a time ("Show more…"), and with the
// default sort, the pages in the order they came, so rows a Load more brought go below.
/**
 * Rows a list of the tree shows before a "Show more…" row. VS Code sends every row a tree
 * lists to the window and back, each time the tree changes: 10,000 rows took about a second
 * of the machine's time per refresh, to show a screenful of them.
 */
const ROW_STEP = 1_000;

/**
 * Whether long lists are shown ROW_STEP rows at a time: a whole set read at once, or pages
 * that brought more than a step each (a service that sends thousands for one page, or every
 * engagement at once). Pages of up to a step loaded one by one with "Load more…" are shown as
 * they come: the user asked for each.
 */
function stepped(snapshot: StoreSnapshot): boolean {
  return snapshot.complete || snapshot.items.length > ROW_STEP * Math.max(1, snapshot.pages);
}

/**
 * With the default sort, the page each engagement came with (1: the first page, and any
 * engagement that came otherwise, e.g. created here): Load more adds rows below the ones
 * shown, never among them above where the user is reading.
 */
class PageOrder {
  private readonly cameWith = new Map<string, number>();
  private pagesSeen = 0;
  private pagesFor?: string;
  private pageOrdered?: { items: readonly Engagement[]; pages: number; result: Engagement[] };

  /**
   * With the default sort and pages loaded one by one: each page's rows sorted, the pages in
   * the order they came, so rows a Load more brought go below those already shown.
   */
  apply(snapshot: StoreSnapshot, query: EngagementQuery, sorted: Engagement[]): Engagement[] {
    const environmentId = snapshot.environmentId ?? '';
    if (!isDefaultQuery(query) || snapshot.complete) {
      this.cameWith.clear();
      this.pagesSeen = 0;
      return sorted;
    }
    if (this.pagesFor !== environmentId || snapshot.pages < this.pagesSeen) {
      this.cameWith.clear();
      this.pagesSeen = 0;
    }
    const page = this.pagesSeen > 0 && snapshot.pages > this.pagesSeen ? snapshot.pages : 1;
    for (const e of snapshot.items) if (!this.cameWith.has(e.id)) this.cameWith.set(e.id, page);
    this.pagesSeen = snapshot.pages;
    this.pagesFor = environmentId;
    if (snapshot.pages <= 1) return sorted;
    const kept = this.pageOrdered;
    if (kept && kept.items === sorted && kept.pages === snapshot.pages) return kept.result;
    const pageOf = (e: Engagement) => this.cameWith.get(e.id) ?? 1;
    // Array.prototype.sort is stable: within a page, the sort's order.
    const result = [...sorted].sort((a, b) => pageOf(a) - pageOf(b));
    this.pageOrdered = { items: sorted, pages: snapshot.pages, result };
    return result;
  }
}

// Which rows of the tree VS Code got since it last changed: a reveal waits for its row to
// reach VS Code's window first.
/**
 * What VS Code was given since the tree last changed: each row listed (getChildren) points
 * to the last row of its listing, and VS Code sends a listing on once it has made the item
 * of its last row (getTreeItem). Who waits for a row to reach VS Code's window.
 */
class GivenRows {
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
