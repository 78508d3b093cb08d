// What reads the whole set of engagements (Sort, Group, Filter, Go to Engagement, and a kept
// sort or filter applied after a restart), loaded together by import() when first needed: each
// of them starts the whole read (wholeSet.ts), so they share one chunk.
export { goToEngagement } from './goTo';
export { clearFilter, filterEngagements, groupEngagements, sortEngagements } from './queryCommands';
export { ensureWholeSet } from './wholeSet';
