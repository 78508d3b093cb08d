// How the rows of the Engagements tree look: an engagement (its tooltip made on demand), a
// group, a pending create, "Show more…" and "Load more…". Made from plain data; no state.
import * as vscode from 'vscode';
import type { Engagement } from '../api/types';
import { Commands } from '../shared/constants';
import { describeEngagement, engagementMarkdown } from '../core/engagementText';
import { formatCount } from '../core/format';
import { statusLook } from '../core/status';
import { displayText, safeText, shortLabel } from '../core/text';
import type { StoreSnapshot } from './storeTypes';
import type { GroupNode, PendingNode, ShowMoreNode } from './treeNodes';
import { ROW_STEP } from './treePaging';

/**
 * The tree item of an engagement; its tooltip too unless `tooltip: false` (then resolveTreeItem
 * adds it). `pending`: it shows the new values of an update the service accepted and does not
 * show yet, and says so.
 */
export function engagementItem(
  engagement: Engagement,
  environmentId: string,
  options: { tooltip?: boolean; pending?: boolean } = {},
): vscode.TreeItem {
  const look = statusLook(engagement.status);
  // Shortened with an ellipsis (the whole name is in the tooltip and the details); a name with
  // nothing visible shows the id, so no row is ever blank.
  const name = shortLabel(engagement.name, engagement.id);
  const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
  item.id = `engagement:${environmentId}:${engagement.id}`;
  const described = describeEngagement(engagement, Date.now());
  // Colour alone never carries the status: statuses the contract does not name are written out.
  const description = look.kind === 'other' ? `${displayText(look.text)} · ${described}` : described;
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
export function withTooltip(item: vscode.TreeItem, engagement: Engagement, pending: boolean): void {
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
export function pendingItem(node: PendingNode, environmentId: string): vscode.TreeItem {
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

export function groupItem(node: GroupNode): vscode.TreeItem {
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
  item.tooltip = safeText(
    by === 'status'
      ? vscode.l10n.t('Status {0}: {1} loaded', group.label, group.items.length)
      : vscode.l10n.t('Type {0}: {1} loaded', group.label, group.items.length),
  );
  // The status in words (the icon's colour is not read out), and how many.
  item.accessibilityInformation = {
    label:
      by === 'status'
        ? vscode.l10n.t(
            'Status {0}, {1} engagements',
            displayText(look?.text ?? group.label),
            formatCount(group.items.length),
          )
        : vscode.l10n.t('Type {0}, {1} engagements', displayText(group.label), formatCount(group.items.length)),
  };
  return item;
}

/** "Show more…": the next ROW_STEP rows of a list of `total` rows, `shown` of them listed. */
export function showMoreItem(node: ShowMoreNode, shown: number, total: number): vscode.TreeItem {
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
export function loadMoreItem(snapshot: StoreSnapshot): vscode.TreeItem {
  const shown = formatCount(snapshot.items.length);
  const total = formatCount(snapshot.totalCount);
  const label = snapshot.loadingMore
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
