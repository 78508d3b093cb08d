// The Language Model Tools this extension contributes (package.json `languageModelTools`):
// their names, and the bounds of what they list and change.
export const Tools = {
  findEngagements: 'engagementUsage_findEngagements',
  getEngagement: 'engagementUsage_getEngagement',
  createEngagement: 'engagementUsage_createEngagement',
  updateEngagements: 'engagementUsage_updateEngagements',
  usage: 'engagementUsage_usage',
} as const;

export type ToolName = (typeof Tools)[keyof typeof Tools];

export const TOOL_NAMES: readonly ToolName[] = Object.values(Tools);

/** The most engagements a result lists (the count of all that matched is given with it). */
export const MAX_LISTED = 50;
/** The most engagements one update changes. */
export const MAX_UPDATED = 50;
/** The most usage records a result lists. */
export const MAX_RECORDS = 50;
/** The longest text of one field in a list (a whole engagement read alone gives more). */
export const FIELD_LIMIT = 300;
/** The longest text of a field of one engagement read alone. */
export const SINGLE_FIELD_LIMIT = 4_000;
