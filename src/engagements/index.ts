// The Engagements feature: the store of the active environment's engagements, the tree view,
// and the commands to refresh, page, sort/group/filter, open, copy, create and update.
import * as vscode from 'vscode';
import type { Engagement } from '../api/types';
import { Commands, Settings, StateKeys, Views } from '../shared/constants';
import { type EngagementQuery, isDefaultQuery } from '../core/query';
import { displayText } from '../core/text';
import { originOf } from '../session/model';
import type { Feature, Services } from '../shared/services';
import { forgetWithEnvironmentOrKey, saveFailed } from '../shared/perEnvironment';
import { engagementCache } from './cache';
import { type EngagementDeps, pickEngagement, singleTarget, targetsFromArgs } from './common';
import { copyId, openDetails } from './details';
import type { DetailsPanel } from './detailsPanel';
import type { DetailsView } from './detailsProtocol';
import type { GoToTimeline } from './goTo';
import type { EditField } from './edit';
import { QueryState } from './queryState';
import { EngagementStore } from './store';
import type { TreeNode } from './tree';
import { EngagementsView } from './view';

/** A tree item as plain data, for tests to read what the view shows. */
export interface TreeItemData {
  kind: TreeNode['kind'];
  id?: string;
  label: string;
  description?: string;
  tooltip?: string;
  /** How VS Code is told to render the tooltip: a trusted one could run command links, HTML could carry tags. */
  tooltipTrusted?: boolean;
  tooltipHtml?: boolean;
  icon?: string;
  color?: string;
  /** What a screen reader says for the row (`accessibilityInformation`). */
  accessibility?: { label: string; role?: string };
  contextValue?: string;
  collapsible: boolean;
  command?: string;
  children?: TreeItemData[];
}

export interface EngagementsExports {
  /** Resolves once no load, refresh or Load more is in flight. */
  settled(): Promise<void>;
  /** The root items as the tree shows them (groups with their children), after loading. */
  tree(): Promise<TreeItemData[]>;
  /** The engagements loaded, in the service's order. */
  loaded(): Engagement[];
  totalCount(): number;
  query(): EngagementQuery;
  /** The view's description (the active filter) and message (why loading failed). */
  description(): string | undefined;
  message(): string | undefined;
  /** Context keys this view set: state and filtered. */
  contextValues(): Record<string, unknown>;
  /** Ids of the engagements selected in the tree. */
  selection(): string[];
  visible(): boolean;
  autoRefreshRunning(): boolean;
  /** Short notices shown in the status bar (newest last). */
  notices(): string[];
  /** The last time VS Code asked for the roots and got engagements (performance.now()), and whether they were the saved page. */
  served(): { at: number; count: number; fromCache: boolean } | undefined;
  /** True while the items shown are the page saved by an earlier session (no refresh landed yet). */
  fromCache(): boolean;
  /** Every engagement is loaded (a whole-set read landed). */
  complete(): boolean;
  /** The details panel: the engagement shown and the view last posted to its webview. */
  details(): { id: string; view?: DetailsView; ready: boolean; visible: boolean; webviewErrors: string[] } | undefined;
  /** Hands a message to the details panel exactly as if its webview had sent it. */
  detailsMessage(message: unknown): Promise<void>;
  closeDetails(): void;
  /** The last Go to Engagement: when it showed the loaded and then all engagements, and its quick pick while open. */
  goTo(): GoToTimeline | undefined;
}

function toData(provider: EngagementsView['provider'], node: TreeNode): TreeItemData {
  const item = provider.resolveTreeItem(provider.getTreeItem(node), node);
  const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath : undefined;
  const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
  const data: TreeItemData = {
    kind: node.kind,
    id: node.kind === 'engagement' ? node.engagement.id : item.id,
    label,
    description: typeof item.description === 'string' ? item.description : undefined,
    tooltip:
      item.tooltip instanceof vscode.MarkdownString
        ? item.tooltip.value
        : typeof item.tooltip === 'string'
          ? item.tooltip
          : undefined,
    tooltipTrusted: item.tooltip instanceof vscode.MarkdownString ? Boolean(item.tooltip.isTrusted) : undefined,
    tooltipHtml: item.tooltip instanceof vscode.MarkdownString ? Boolean(item.tooltip.supportHtml) : undefined,
    icon: icon?.id,
    color: icon?.color?.id,
    accessibility: item.accessibilityInformation
      ? { label: item.accessibilityInformation.label, role: item.accessibilityInformation.role }
      : undefined,
    contextValue: item.contextValue,
    collapsible: item.collapsibleState !== undefined && item.collapsibleState !== vscode.TreeItemCollapsibleState.None,
    command: item.command?.command,
  };
  if (node.kind === 'group') data.children = provider.getChildren(node).map((child) => toData(provider, child));
  return data;
}

export function registerEngagements(services: Services) {
  const { connection, context } = services;
  const cache = engagementCache(
    context.workspaceState,
    StateKeys.engagementsCache,
    saveFailed(services, 'the engagements shown'),
  );
  const store = new EngagementStore({
    environmentId: () => connection.environment?.id,
    api: () => connection.api,
    hasKey: () => connection.hasKey(),
    pageSize: () =>
      Math.min(
        100,
        Math.max(1, Math.round(vscode.workspace.getConfiguration(Settings.section).get<number>(Settings.pageSize, 25))),
      ),
    cache,
  });
  const query = new QueryState(context.workspaceState);
  const view = new EngagementsView(
    store,
    query,
    () => connection.environment?.label,
    () => {
      const env = connection.environment;
      return env?.source === 'workspace'
        ? vscode.l10n.t('{0} (workspace) — {1}', displayText(env.label), originOf(env.baseUrl))
        : undefined;
    },
    () => connection.capabilities().write === false,
  );
  if (view.treeView.visible) services.shown.mark();
  const deps: EngagementDeps = { services, store, query, view, notices: [] };
  // The details panel (and its webview code) is loaded when first opened, not at activation.
  let details: DetailsPanel | undefined;
  const detailsPanel = async () => (details ??= new (await import('./detailsPanel')).DetailsPanel(() => deps));
  let goTo: GoToTimeline | undefined;
  let wasFresh = false;
  context.subscriptions.push(
    query,
    view,
    // Reads and the looks for accepted writes in flight stop with the view.
    { dispose: () => store.dispose() },
    { dispose: () => details?.dispose() },
    // A write refused for lack of engagements:write (remembered per environment until its key is replaced).
    services.environments.onDidChangeCapabilities(() => view.update()),
    // A sort, grouping or filter remembered from an earlier session applies to every
    // engagement too: when an environment's first page has come in from the service (not
    // the saved copy), the rest are read, within the whole-set limit. Only then: a read the
    // user cancelled, or kept to what is loaded, stays so.
    store.onDidChange(() => {
      const shown = store.snapshot();
      const fresh = shown.phase === 'loaded' && !shown.fromCache;
      const firstLoad = fresh && !wasFresh;
      wasFresh = fresh;
      if (!firstLoad || shown.readingAll || shown.complete || !shown.hasMore || isDefaultQuery(query.current)) return;
      void import('./wholeSet').then(({ ensureWholeSet }) => ensureWholeSet(deps, { restored: true }));
    }),
    // Another environment, URL or key: what is shown belongs to the old one.
    connection.onDidChange(() => {
      store.reset();
      if (view.treeView.visible) void store.ensureLoaded();
    }),
    view.treeView.onDidChangeVisibility(({ visible }) => {
      if (visible) services.shown.mark();
    }),
    ...forgetWithEnvironmentOrKey(services, cache),
  );

  // The flows to create, edit, sort, group and filter are loaded (import()) when first used,
  // not at activation: the bundle loaded at activation stays small.
  const editOne =
    (field: EditField | undefined, title: string) =>
    async (...args: unknown[]) => {
      const target = await singleTarget(deps, args, title);
      if (target) await (await import('./edit')).editEngagement(deps, target, field);
    };
  const queryCommand =
    (name: 'sortEngagements' | 'groupEngagements' | 'filterEngagements' | 'clearFilter') => async () =>
      (await import('./queryCommands'))[name](deps);

  return {
    commands: {
      [Commands.refreshEngagements]: () => store.refresh(),
      [Commands.loadMoreEngagements]: () => store.loadMore(),
      [Commands.showMoreEngagements]: (list: unknown) => {
        if (typeof list === 'string') view.provider.showMore(list);
      },
      [Commands.createEngagement]: async () => (await import('./create')).createEngagement(deps),
      [Commands.editEngagement]: editOne(undefined, vscode.l10n.t('Edit engagement…')),
      [Commands.renameEngagement]: editOne('name', vscode.l10n.t('Rename engagement…')),
      [Commands.editEngagementDescription]: editOne('description', vscode.l10n.t('Edit the description of…')),
      [Commands.changeEngagementStatus]: async (...args: unknown[]) => {
        const targets = targetsFromArgs(deps, args);
        if (Array.isArray(targets) && targets.length > 1)
          return (await import('./statusChange')).changeStatusOfMany(deps, targets);
        const target = Array.isArray(targets)
          ? targets[0]
          : typeof targets === 'string'
            ? await singleTarget(deps, args, '')
            : await pickEngagement(deps, vscode.l10n.t('Change the status of…'));
        if (target) await (await import('./edit')).editEngagement(deps, target, 'status');
      },
      [Commands.openEngagement]: async (...args: unknown[]) => openDetails(deps, await detailsPanel(), args),
      [Commands.copyEngagementId]: (...args: unknown[]) => copyId(deps, args),
      [Commands.sortEngagements]: queryCommand('sortEngagements'),
      [Commands.groupEngagements]: queryCommand('groupEngagements'),
      [Commands.filterEngagements]: queryCommand('filterEngagements'),
      [Commands.clearEngagementFilter]: queryCommand('clearFilter'),
      [Commands.goToEngagement]: async () =>
        (await import('./goTo')).goToEngagement(
          deps,
          async (id) => openDetails(deps, await detailsPanel(), [id]),
          (timeline) => {
            goTo = timeline;
          },
        ),
      [Commands.cancelReadingEngagements]: () => store.cancelLoadAll(),
      // The tree's own Collapse All; the title shows it only while the view is grouped.
      [Commands.collapseAll]: () =>
        vscode.commands.executeCommand(`workbench.actions.treeView.${Views.engagements}.collapseAll`),
    },
    parts: {
      settled: () => store.settled(),
      tree: async () => {
        await store.ensureLoaded();
        return view.provider.roots().map((node) => toData(view.provider, node));
      },
      loaded: () => [...store.snapshot().items],
      totalCount: () => store.snapshot().totalCount,
      query: () => query.current,
      description: () => view.treeView.description,
      message: () => view.treeView.message,
      contextValues: () => view.contextValues(),
      selection: () =>
        view.treeView.selection.flatMap((node) => (node.kind === 'engagement' ? [node.engagement.id] : [])),
      visible: () => view.treeView.visible,
      autoRefreshRunning: () => view.autoRefreshRunning,
      notices: () => [...deps.notices],
      served: () => (view.provider.served ? { ...view.provider.served } : undefined),
      fromCache: () => store.snapshot().fromCache,
      complete: () => store.snapshot().complete,
      details: () => details?.current,
      detailsMessage: async (message) => (await detailsPanel()).receive(message),
      closeDetails: () => details?.close(),
      goTo: () => goTo,
    },
    // The chat tools read and write through the same store (one whole set shared with the tree).
    store,
  } satisfies Feature<EngagementsExports> & { store: EngagementStore };
}
