// The Engagements feature's test probes: what the tree, the store, the details panel and Go to
// Engagement show, read from the parts the feature built and from what it recorded for tests
// (record.ts). In development and test builds only (see src/buildConstants.d.ts).
import * as vscode from 'vscode';
import type { Engagement } from '../core/engagement';
import type { EngagementQuery } from '../core/query';
import type { DetailsView } from '../engagements/detailsProtocol';
import type { EngagementsParts } from '../engagements/index';
import type { TreeNode } from '../engagements/tree';
import type { EngagementsView } from '../engagements/view';
import { engagementsRecord, type GoToTimeline } from './record';

/** A tree item as plain data, for tests to read what the view shows. */
interface TreeItemData {
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

export function engagementsProbe(parts: EngagementsParts): EngagementsExports {
  const { store, view, query, details } = parts;
  const record = engagementsRecord;
  return {
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
    contextValues: () => ({ ...view.context }),
    selection: () =>
      view.treeView.selection.flatMap((node) => (node.kind === 'engagement' ? [node.engagement.id] : [])),
    visible: () => view.treeView.visible,
    autoRefreshRunning: () => record.autoRefreshing,
    notices: () => [...record.notices],
    served: () => (record.served ? { ...record.served } : undefined),
    fromCache: () => store.snapshot().fromCache,
    complete: () => store.snapshot().complete,
    details: () => {
      const showing = details.showing;
      if (!showing) return undefined;
      const { view: shown, webviewErrors } = record.details;
      return { ...showing, view: shown as DetailsView | undefined, webviewErrors: [...webviewErrors] };
    },
    detailsMessage: async (message) => details.receive(message),
    closeDetails: () => details.close(),
    goTo: () => record.goTo,
  };
}
