// Every id the extension contributes, in one place. They must match package.json.
export const EXTENSION_ID = 'eus-tools.engagement-usage';
const P = 'engagementUsage';

export const Commands = {
  addEnvironment: `${P}.addEnvironment`,
  switchEnvironment: `${P}.switchEnvironment`,
  manageEnvironments: `${P}.manageEnvironments`,
  replaceKey: `${P}.replaceKey`,
  renameEnvironment: `${P}.renameEnvironment`,
  removeEnvironment: `${P}.removeEnvironment`,
  signOutAll: `${P}.signOutAll`,
  showLogs: `${P}.showLogs`,
  refreshEngagements: `${P}.refreshEngagements`,
  loadMoreEngagements: `${P}.loadMoreEngagements`,
  showMoreEngagements: `${P}.showMoreEngagements`,
  createEngagement: `${P}.createEngagement`,
  editEngagement: `${P}.editEngagement`,
  renameEngagement: `${P}.renameEngagement`,
  editEngagementDescription: `${P}.editEngagementDescription`,
  changeEngagementStatus: `${P}.changeEngagementStatus`,
  openEngagement: `${P}.openEngagement`,
  copyEngagementId: `${P}.copyEngagementId`,
  copyEngagementLink: `${P}.copyEngagementLink`,
  sortEngagements: `${P}.sortEngagements`,
  groupEngagements: `${P}.groupEngagements`,
  filterEngagements: `${P}.filterEngagements`,
  clearEngagementFilter: `${P}.clearEngagementFilter`,
  openUsageDashboard: `${P}.openUsageDashboard`,
  goToEngagement: `${P}.goToEngagement`,
  cancelReadingEngagements: `${P}.cancelReadingEngagements`,
  collapseAll: `${P}.collapseAll`,
  openWalkthrough: `${P}.openWalkthrough`,
  copyMcpConfiguration: `${P}.copyMcpConfiguration`,
} as const;

/** A command this extension contributes; each has exactly one handler (`src/extension.ts` checks it). */
export type CommandId = (typeof Commands)[keyof typeof Commands];
/** The walkthrough of package.json, as VS Code names it (`publisher.name#id`). */
export const WALKTHROUGH_ID = `${EXTENSION_ID}#gettingStarted`;

export const Views = {
  container: P,
  engagements: `${P}.engagements`,
} as const;

export const WebviewTypes = {
  usageDashboard: `${P}.usageDashboard`,
  engagementDetails: `${P}.engagementDetails`,
} as const;

/** Context keys for `when` clauses in package.json. */
export const ContextKeys = {
  /** noEnvironment | keyMissing | unauthorized | forbidden | unreachable | empty | noMatch | loading | ready */
  state: `${P}.state`,
  hasEnvironment: `${P}.hasEnvironment`,
  canRead: `${P}.canRead`,
  canWrite: `${P}.canWrite`,
  canReadUsage: `${P}.canReadUsage`,
  filtered: `${P}.filtered`,
  /** Every page of engagements is being read (the view title offers Cancel). */
  readingAll: `${P}.readingAll`,
  /** The view groups its engagements (the title offers Collapse All). */
  grouped: `${P}.grouped`,
} as const;

export const Settings = {
  section: P,
  environments: 'environments',
  defaultEnvironment: 'defaultEnvironment',
  requestTimeoutSeconds: 'requestTimeoutSeconds',
  pageSize: 'engagements.pageSize',
  staleAfterSeconds: 'engagements.staleAfterSeconds',
  autoRefreshSeconds: 'engagements.autoRefreshSeconds',
  wholeSetLimit: 'engagements.wholeSetLimit',
  usageStatusBar: 'usage.statusBar',
  usageStatusBarRefreshMinutes: 'usage.statusBarRefreshMinutes',
  usageAlerts: 'usage.alerts',
  usageAlertThresholds: 'usage.alertThresholds',
  usageKeyBudgets: 'usage.keyBudgets',
  mcpAllowWrites: 'mcp.allowWrites',
} as const;

/** Keys of globalState / workspaceState. None of them ever holds an API key. */
export const StateKeys = {
  environments: `${P}.environments.v1`,
  capabilities: `${P}.capabilities.v1`,
  activeEnvironment: `${P}.activeEnvironment`,
  engagementsQuery: `${P}.engagements.query`,
  engagementsCache: `${P}.engagements.cache`,
  usageDashboardCache: `${P}.usage.dashboardCache`,
  /** Global: closed billing periods of the trend, per environment. */
  usageHistory: `${P}.usage.history`,
  /** Global: the last summary read per environment and which window read it (shared reads). */
  usageReads: `${P}.usage.reads`,
  /** Global: usage alerts shown, per environment, period, meter and threshold. */
  usageAlertsShown: `${P}.usage.alertsShown`,
} as const;

export const SECRET_PREFIX = `${P}.apiKey.`;
