// The elements of the Engagements tree: an engagement, a group, "Load more…", "Show more…",
// and a create the service accepted and does not show yet.
import type { Engagement } from '../api/types';
import type { EngagementGroup } from '../core/query';
import type { PendingWrite } from './storeTypes';

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

/** A create the service accepted (202) and does not show yet: the name and type typed, marked pending. */
export interface PendingNode {
  readonly kind: 'pending';
  readonly id: string;
  pending: PendingWrite & { write: { pending: 'create' } };
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
