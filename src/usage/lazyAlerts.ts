// The usage alerts as the rest of the feature holds them: their code (alerts.ts) is loaded the
// first time they are on and something is to be checked, or when something they remembered
// is to be forgotten with its environment or key.
import * as vscode from 'vscode';
import type { UsageSummary } from '../api/types';
import { Settings, StateKeys } from '../shared/constants';
import type { OwnState } from '../shared/ownState';
import type { Services } from '../shared/services';
import type { UsageAlerts } from './alerts';
import type { AlertsHook } from './statusBar';

export interface LazyAlerts extends AlertsHook {
  keepOnly(ids: readonly string[]): void;
  forget(id: string): void;
}

export function lazyAlerts(services: Services, ownState: OwnState): LazyAlerts {
  let loaded: Promise<UsageAlerts> | undefined;
  const load = () =>
    (loaded ??= import('./alerts').then(
      ({ UsageAlerts }) => new UsageAlerts(services, ownState, StateKeys.usageAlertsShown),
    ));
  const remembered = () => ownState.get(StateKeys.usageAlertsShown) !== undefined;
  const alerts: LazyAlerts = {
    enabled: () =>
      vscode.workspace.getConfiguration(Settings.section).get<boolean>(Settings.usageAlerts, false) === true,
    check: async (environmentId: string, summary: UsageSummary) => {
      if (!alerts.enabled()) return;
      await (await load()).check(environmentId, summary);
    },
    // What was remembered goes with its environment or key (loaded only when something is remembered).
    keepOnly: (ids) => {
      if (remembered()) void load().then((a) => a.keepOnly(ids));
    },
    forget: (id) => {
      if (remembered()) void load().then((a) => a.forget(id));
    },
  };
  return alerts;
}
