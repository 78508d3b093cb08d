// The Environments feature's test probes: read-only views of what the status bar, the store and
// the key vault hold. In development and test builds only (see src/buildConstants.d.ts).
import type * as vscode from 'vscode';
import type { ServiceApi } from '../api/service';
import type { EnvironmentStatusBar } from '../environments/statusBar';
import { SECRET_PREFIX } from '../shared/constants';
import type { Services } from '../services';
import type { Capabilities, Environment } from '../session/model';

export interface EnvironmentsExports {
  list(): Environment[];
  active(): Environment | undefined;
  capabilities(id: string): Capabilities;
  statusBarText(): string;
  /** The status bar item's `accessibilityInformation` label. */
  statusBarAccessibility(): string | undefined;
  statusBarBackground(): string | undefined;
  /** Where the key of an environment is held: SecretStorage, memory (session only), or nowhere. */
  keyLocation(id: string): Promise<'secretStorage' | 'session' | 'none'>;
  /** The origin the key of an environment was entered for (undefined: none, or stored by an earlier build). */
  keyOrigin(id: string): Promise<string | undefined>;
  /**
   * Stores a key for an environment id the way earlier builds did (the key alone, bound to no
   * origin): what the trust suite upgrades from. It writes only; nothing here reads a key back.
   */
  storeKeyAsEarlierBuild(id: string, key: string): Promise<void>;
  /** The client of the active environment, as the views use it (it never hands out its key). */
  api(): ServiceApi | undefined;
  /** The extension's context keys as last set. */
  contextKeys(): Record<string, boolean>;
  /** Every memento entry the extension wrote (global and workspace), to prove no key is there. */
  mementos(): Record<string, unknown>;
  /** The folder of the extension's log files (its log channel's among them), to prove no key is there. */
  logUri(): vscode.Uri;
}

export function environmentsProbe(services: Services, parts: { statusBar: EnvironmentStatusBar }): EnvironmentsExports {
  const { environments: store, vault, context, connection } = services;
  const { statusBar } = parts;
  return {
    list: () => store.list(),
    active: () => store.active(),
    capabilities: (id) => store.capabilities(id),
    statusBarText: () => statusBar.text,
    statusBarAccessibility: () => statusBar.accessibilityLabel,
    statusBarBackground: () => statusBar.background,
    keyLocation: async (id) => (vault.isSessionOnly(id) ? 'session' : (await vault.has(id)) ? 'secretStorage' : 'none'),
    keyOrigin: (id) => vault.origin(id),
    storeKeyAsEarlierBuild: async (id, key) => {
      await context.secrets.store(SECRET_PREFIX + id, key);
    },
    api: () => connection.api,
    contextKeys: () => ({ ...connection.context }),
    mementos: () => {
      const out: Record<string, unknown> = {};
      for (const key of context.globalState.keys()) out[`global:${key}`] = context.globalState.get(key);
      for (const key of context.workspaceState.keys()) out[`workspace:${key}`] = context.workspaceState.get(key);
      return out;
    },
    logUri: () => context.logUri,
  };
}
