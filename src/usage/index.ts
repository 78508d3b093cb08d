// The usage feature's wiring: the shared reads, the trend's history, the alerts, the calls
// status-bar item and the dashboards (with what each showed last), and what goes with an
// environment or its key.
import { forgetWithEnvironmentOrKey, PerEnvironmentCache, saveFailed } from '../shared/perEnvironment';
import { Commands, StateKeys } from '../shared/constants';
import type { Feature } from '../shared/feature';
import type { Services } from '../services';
import { Dashboards, assetsLoader } from './panel';
import { ReadCoordinator, UsageHistory } from './persisted';
import { UsageAlerts } from './alerts';
import { UsageStatusBar } from './callsStatusBar';
import { isSavedDashboard } from './persisted';

/** What the usage feature built (the test seams read them; see src/testing/usage.ts). */
export interface UsageParts {
  dashboards: Dashboards;
  statusBar: UsageStatusBar;
  coordinator: ReadCoordinator;
  /** The closed periods' summaries kept per environment (the dashboards' trend, and the chat's). */
  history: UsageHistory;
}

export function registerUsage(services: Services) {
  const { context } = services;
  // Read back as written (VS Code's late echoes of global state would bring back older values).
  const ownState = services.globalState;
  const history = new UsageHistory(ownState, StateKeys.usageHistory, saveFailed(services, 'the usage history'));
  // The shared reads read global state itself: they must see the other windows' writes.
  const coordinator = new ReadCoordinator(
    context.globalState,
    StateKeys.usageReads,
    globalThis.crypto.randomUUID(),
    saveFailed(services, 'the shared usage read'),
  );
  const alerts = new UsageAlerts(services, ownState, StateKeys.usageAlertsShown);
  const statusBar = new UsageStatusBar(services, coordinator, alerts);
  // What each environment's dashboard showed last: shown at once when one opens again.
  const saved = new PerEnvironmentCache(
    context.workspaceState,
    StateKeys.usageDashboardCache,
    isSavedDashboard,
    saveFailed(services, 'the usage shown'),
  );
  const dashboards = new Dashboards(
    services,
    {
      summaryLoaded: (id, summary) => statusBar.showSummaryReadElsewhere(id, summary),
      saved: (id) => saved.read(id),
      save: (id, shown) => saved.write(id, shown),
      history,
      keyBudgets: () => alerts.keyBudgets(),
      keysLoaded: (id, period, keys) => void alerts.checkKeys(id, period, keys),
      crossingFound: (id, period, crossing) => statusBar.showCrossing(id, period, crossing),
    },
    assetsLoader(context.extensionUri),
  );
  context.subscriptions.push(
    statusBar,
    ...forgetWithEnvironmentOrKey(services, saved),
    ...forgetWithEnvironmentOrKey(services, history),
    ...forgetWithEnvironmentOrKey(services, coordinator),
    ...forgetWithEnvironmentOrKey(services, alerts),
    dashboards.registerSerializer(),
    dashboards,
  );
  return {
    commands: { [Commands.openUsageDashboard]: (arg?: unknown) => dashboards.open(arg) },
    parts: { dashboards, statusBar, coordinator, history },
  } satisfies Feature<UsageParts>;
}
