// What the chat tools and links are built from: the services, and the store of the active
// environment's engagements (the tree's, so a whole set read for the tree or for a tool is
// read once while fresh).
import type { Engagement } from '../api/types';
import type { EngagementStore } from '../engagements/store';
import type { Services } from '../shared/services';

export interface ChatDeps {
  services: Services;
  store: EngagementStore;
  /** Engagements of other environments read for a tool, by environment id, while fresh. */
  wholeSets: Map<string, { items: Engagement[]; readAt: number }>;
  /** What each confirmation showed (by the input's text): the version written over, for the stale-write guard. */
  shown: Map<string, Map<string, string>>;
}
