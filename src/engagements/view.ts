// The Engagements tree view: wires the store and the query to the TreeView, keeps the
// welcome state, the description (active filter) and the message (why a load failed) up to
// date, and refreshes when the view becomes visible with stale data or on an interval.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { formatCount, relativeTime } from '../core/format';
import { applyQuery, describeFilter } from '../core/query';
import { safeText } from '../core/text';
import { ContextKeys, Settings, Views } from '../shared/constants';
import type { Recorder } from '../shared/recorder';
import { describeError, serviceReason } from '../api/errorText';
import type { QueryState, TreeNode } from './tree';
import { EngagementTreeProvider } from './tree';
import type { EngagementStore, StoreSnapshot } from './store';

/** The longest a reveal waits for VS Code to get a row it has just been told about. */
const REVEAL_WAIT_MS = 3_000;

/** Minimum time between two tree repaints that only update "updated N min ago". */
const CLOCK_TICK_MS = 60_000;

export class EngagementsView implements vscode.Disposable {
  readonly provider: EngagementTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  private readonly disposables: vscode.Disposable[] = [];
  /** The context keys this view set, as last set. */
  readonly context: Record<string, unknown> = {};
  private autoRefresh?: ReturnType<typeof setInterval>;
  private clock?: ReturnType<typeof setInterval>;
  private progress?: { done: () => void };
  /** Groups the user collapsed (they start expanded). */
  private readonly collapsed = new Set<string>();
  /** What the tree last rendered: a change that leaves it as it was does not re-render it. */
  private rendered?: {
    items: StoreSnapshot['items'];
    query: unknown;
    hasMore: boolean;
    totalCount: number;
    loadingMore: boolean;
    environmentId?: string;
    /** The keys of the writes shown as pending. */
    pending: string;
  };

  constructor(
    private readonly store: EngagementStore,
    private readonly query: QueryState,
    private readonly recorder: Recorder,
    private readonly environmentLabel: () => string | undefined,
    /** Set for an environment a workspace defines: shown in the view's description. */
    private readonly environmentMark: () => string | undefined = () => undefined,
    /** True once a write was refused for lack of `engagements:write` with the active key. */
    private readonly readOnly: () => boolean = () => false,
  ) {
    this.provider = new EngagementTreeProvider(store, query, recorder);
    this.treeView = vscode.window.createTreeView(Views.engagements, {
      treeDataProvider: this.provider,
      canSelectMany: true,
      showCollapseAll: false,
    });
    const subscription = store.onDidChange(() => this.update());
    this.disposables.push(
      this.provider,
      this.treeView,
      { dispose: () => subscription.dispose() },
      query.onDidChange(() => this.update()),
      this.treeView.onDidChangeVisibility(() => this.onVisibility()),
      this.treeView.onDidCollapseElement(({ element }) => void this.collapsed.add(element.id)),
      this.treeView.onDidExpandElement(({ element }) => void this.collapsed.delete(element.id)),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${Settings.section}.${Settings.autoRefreshSeconds}`)) this.onVisibility();
        if (event.affectsConfiguration(`${Settings.section}.${Settings.pageSize}`)) void this.store.refresh();
      }),
    );
    this.update();
    this.onVisibility();
  }

  /** Pushes the store's state to the tree, the context keys, the description and the message. */
  update(): void {
    const snapshot = this.store.snapshot();
    const state = viewState(snapshot, this.query);
    this.setContext(ContextKeys.state, state);
    this.setContext(ContextKeys.filtered, this.query.filtered);
    this.setContext(ContextKeys.readingAll, snapshot.readingAll !== undefined);
    this.setContext(ContextKeys.grouped, this.query.current.group !== 'none');
    this.showProgress(snapshot.refreshing || snapshot.loadingMore || snapshot.readingAll !== undefined);
    // The tree first: VS Code sends a tree's data changes and its message through one 200 ms
    // debounce, so a message set just before would hold the new rows back. The message is
    // set only when its text changes, and never for progress (that goes in the description,
    // which VS Code shows at once).
    this.repaint(snapshot);
    const description = optionalSafe(this.description(snapshot));
    if (description !== this.treeView.description) this.treeView.description = description;
    const message = optionalSafe(this.message(snapshot, state));
    if (message !== this.treeView.message) this.treeView.message = message;
  }

  /**
   * Re-renders the tree when what it shows changed; only the "Load more…" item when that is
   * all that changed. With thousands of engagements a full render is the costly part.
   */
  private repaint(snapshot: StoreSnapshot): void {
    const next = {
      items: snapshot.items,
      query: this.query.current,
      hasMore: snapshot.hasMore,
      totalCount: snapshot.totalCount,
      loadingMore: snapshot.loadingMore,
      environmentId: snapshot.environmentId,
      pending: snapshot.pending.map((p) => p.key).join(' '),
    };
    const last = this.rendered;
    this.rendered = next;
    const same =
      last !== undefined &&
      last.items === next.items &&
      last.query === next.query &&
      last.hasMore === next.hasMore &&
      last.environmentId === next.environmentId &&
      last.pending === next.pending;
    if (!same) this.provider.refresh();
    else if (last.loadingMore !== next.loadingMore || last.totalCount !== next.totalCount)
      this.provider.refreshLoadMore();
  }

  /** The title area: a workspace-defined environment, a read-only key, how many match of how many, and the active filter. */
  private description(snapshot: StoreSnapshot): string | undefined {
    const parts: string[] = [];
    const mark = this.environmentMark();
    if (mark) parts.push(mark);
    if (this.readOnly()) parts.push(vscode.l10n.t('read-only key'));
    if (snapshot.readingAll) {
      const { loaded, total } = snapshot.readingAll;
      parts.push(vscode.l10n.t('reading every engagement: {0} of {1}…', formatCount(loaded), formatCount(total)));
    } else if (this.query.filtered && snapshot.items.length > 0) {
      const matching = formatCount(applyQuery(snapshot.items, this.query.current).items.length);
      parts.push(
        snapshot.complete || !snapshot.hasMore
          ? vscode.l10n.t(
              '{0} of {1} match',
              matching,
              formatCount(Math.max(snapshot.totalCount, snapshot.items.length)),
            )
          : vscode.l10n.t('{0} of {1} loaded match', matching, formatCount(snapshot.items.length)),
      );
    }
    const filter = describeFilter(this.query.current.filter);
    if (filter) parts.push(filter);
    return parts.length ? parts.join(' · ') : undefined;
  }

  private message(snapshot: StoreSnapshot, state: EngagementsViewState): string | undefined {
    return viewMessage(snapshot, state, this.environmentLabel());
  }

  private setContext(key: string, value: unknown): void {
    if (this.context[key] === value) return;
    this.context[key] = value;
    void vscode.commands.executeCommand('setContext', key, value);
  }

  private showProgress(on: boolean): void {
    if (on && !this.progress) {
      let done!: () => void;
      const finished = new Promise<void>((resolve) => (done = resolve));
      this.progress = { done };
      void vscode.window.withProgress({ location: { viewId: Views.engagements } }, () => finished);
    } else if (!on && this.progress) {
      this.progress.done();
      this.progress = undefined;
    }
  }

  private onVisibility(): void {
    clearInterval(this.autoRefresh);
    clearInterval(this.clock);
    this.autoRefresh = undefined;
    this.clock = undefined;
    this.recorder.autoRefresh(false);
    if (!this.treeView.visible) return;
    const config = vscode.workspace.getConfiguration(Settings.section);
    const staleAfter = Math.max(0, config.get<number>(Settings.staleAfterSeconds, 300)) * 1000;
    const snapshot = this.store.snapshot();
    if (snapshot.phase === 'idle') void this.store.ensureLoaded();
    else if (snapshot.phase !== 'noEnvironment' && !snapshot.refreshing && this.store.age() >= staleAfter)
      void this.store.refresh();
    const every = Math.max(0, config.get<number>(Settings.autoRefreshSeconds, 0));
    // The interval runs only while the view is visible; hiding the view stops it.
    if (every > 0) this.autoRefresh = setInterval(() => void this.store.refresh(), every * 1000);
    this.recorder.autoRefresh(this.autoRefresh !== undefined);
    this.clock = setInterval(() => this.provider.refresh(), CLOCK_TICK_MS);
  }

  /** Shows and selects an engagement; false when the filter or paging hides it. */
  async reveal(id: string): Promise<boolean> {
    // A row further down than the tree lists is listed first ("Show more…" as far as needed).
    if (!this.provider.include(id)) this.provider.roots();
    const node = this.provider.find(id);
    if (!node || !applyQuery([node.engagement], this.query.current).items.length) return false;
    try {
      // VS Code reveals only a row its window already has: one it has not got yet (just loaded,
      // just listed, or the view was hidden) is waited for. A hidden view is opened first.
      // A row of a collapsed group comes with the group: VS Code expands it to reveal the row.
      const anchor = node.parent && this.collapsed.has(node.parent.id) ? node.parent : node;
      if (!this.provider.isGiven(anchor)) {
        const given = this.provider.whenGiven(anchor, REVEAL_WAIT_MS);
        if (!this.treeView.visible) await this.treeView.reveal(node, { select: false, focus: false });
        await given;
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      await this.treeView.reveal(node, { select: true, focus: false, expand: true });
      return true;
    } catch {
      return false;
    }
  }

  dispose(): void {
    clearInterval(this.autoRefresh);
    clearInterval(this.clock);
    this.progress?.done();
    for (const d of this.disposables) d.dispose();
  }
}

/** The view's description and message may quote an environment's label or the service: made safe. */
function optionalSafe(text: string | undefined): string | undefined {
  return text === undefined ? undefined : safeText(text);
}

// What the Engagements view says besides its rows: the welcome state (which welcome content
// shows), and the message above the tree (why a load failed, a saved page, a short list).
export type EngagementsViewState =
  | 'noEnvironment'
  | 'keyMissing'
  | 'unauthorized'
  | 'forbidden'
  | 'unreachable'
  | 'empty'
  | 'noMatch'
  | 'loading'
  | 'ready';

/** The welcome state of the view, from what the store holds and the active filter. */
function viewState(snapshot: StoreSnapshot, query: QueryState): EngagementsViewState {
  if (snapshot.phase === 'noEnvironment') return 'noEnvironment';
  if (snapshot.phase === 'keyMissing') return 'keyMissing';
  // A create the service accepted and does not show yet is a row of the tree.
  if (snapshot.items.length === 0 && !snapshot.pending.some((p) => p.write.pending === 'create')) {
    // With nothing to show, a failure explains the empty view (also after an empty list).
    if (snapshot.phase === 'failed' || (snapshot.phase === 'loaded' && snapshot.error !== undefined)) {
      const error = snapshot.error;
      if (isApiError(error) && error.kind === 'unauthorized')
        return error.status === undefined ? 'keyMissing' : 'unauthorized';
      if (isApiError(error) && error.kind === 'forbidden') return 'forbidden';
      return 'unreachable';
    }
    if (snapshot.phase === 'loaded') return 'empty';
    return 'loading';
  }
  if (!snapshot.hasMore && query.filtered && applyQuery(snapshot.items, query.current).items.length === 0)
    return 'noMatch';
  return 'ready';
}

/**
 * The message above the tree: why loading failed, a page saved earlier, engagements the service
 * will not send, rows left out for want of an id.
 */
function viewMessage(
  snapshot: StoreSnapshot,
  state: EngagementsViewState,
  env: string | undefined,
): string | undefined {
  if (state === 'unreachable') return describeError(snapshot.error, env);
  // The welcome says what to do; the service's own reason, when it gave one, shows above it.
  if (state === 'unauthorized' || state === 'forbidden') return serviceReason(snapshot.error);
  if (snapshot.fromCache && snapshot.error === undefined && snapshot.items.length > 0) {
    // Saved by an earlier session: shown at once, marked until the refresh lands.
    const saved = snapshot.fetchedAt === undefined ? '' : relativeTime(new Date(snapshot.fetchedAt).toISOString());
    return snapshot.refreshing
      ? vscode.l10n.t('Showing engagements saved {0}; refreshing…', saved)
      : vscode.l10n.t('Showing engagements saved {0}.', saved);
  }
  if (snapshot.error === undefined) {
    const parts = [snapshot.stop && stopMessage(snapshot), snapshot.skipped && skippedMessage(snapshot.skipped)];
    const said = parts.filter((part): part is string => Boolean(part));
    return said.length ? said.join(' ') : undefined;
  }
  if (snapshot.items.length === 0) return undefined;
  // A failed refresh or Load more keeps what was shown; say why, and how old it is.
  const age = snapshot.fetchedAt === undefined ? '' : relativeTime(new Date(snapshot.fetchedAt).toISOString());
  return vscode.l10n.t('Could not refresh: {0} Showing engagements read {1}.', describeError(snapshot.error, env), age);
}

/** Rows the service sent without a usable id: not listed (nothing could open or change them), and counted. */
function skippedMessage(count: number): string {
  return count === 1
    ? vscode.l10n.t('1 engagement without an id is not shown; details in the log.')
    : vscode.l10n.t('{0} engagements without an id are not shown; details in the log.', formatCount(count));
}

/** Engagements the service announced but will not page to: said, never hidden. */
export function stopMessage(snapshot: Pick<StoreSnapshot, 'items' | 'totalCount' | 'stop'>): string {
  const shown = formatCount(snapshot.items.length);
  const total = formatCount(snapshot.totalCount);
  switch (snapshot.stop) {
    case 'ignoresPage':
    case 'repeatsPages':
      return vscode.l10n.t(
        'Showing {0} of {1}: the service does not page this list (it answers the first page again).',
        shown,
        total,
      );
    case 'tooManyPages':
      return vscode.l10n.t(
        'Showing {0} of {1}: the service answers in more pages than the extension reads.',
        shown,
        total,
      );
    default:
      return vscode.l10n.t(
        'Showing {0} of {1}: the service announced more engagements than it sends. Refresh to try again.',
        shown,
        total,
      );
  }
}
