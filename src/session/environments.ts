import * as vscode from 'vscode';
import { parseBaseUrl } from '../core/validation';
import { Settings, StateKeys } from '../shared/constants';
import type { OwnState } from '../shared/perEnvironment';
import type { Capabilities, Environment, EnvironmentRecord } from './model';
import { settingsEnvironmentId } from './model';

interface SettingsEntry {
  label?: unknown;
  baseUrl?: unknown;
  production?: unknown;
}

/**
 * The environments: those the user added (globalState, synced across machines with
 * `setKeysForSync`: labels and URLs only) and those shared through settings. Which one is
 * active is remembered per workspace. What each key may do is remembered per machine.
 */
export class EnvironmentStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** The list, a label, a URL or the active environment changed. */
  readonly onDidChange = this.changed.event;
  private readonly capsChanged = new vscode.EventEmitter<string>();
  readonly onDidChangeCapabilities = this.capsChanged.event;
  private readonly subscription: vscode.Disposable;
  private readonly trustSubscription: vscode.Disposable;
  /**
   * The environments of the settings, read once per change of the settings or of trust: the
   * tree asks for the active environment for each of thousands of rows, and reading the
   * settings (inspect, one hash per entry) each time cost seconds over 10,000 rows.
   */
  private fromSettings?: Environment[];

  constructor(
    private readonly context: vscode.ExtensionContext,
    /** The global state (environments and capabilities), read back as this session wrote it. */
    private readonly state: OwnState,
  ) {
    context.globalState.setKeysForSync([StateKeys.environments]);
    this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (
        event.affectsConfiguration(`${Settings.section}.${Settings.environments}`) ||
        event.affectsConfiguration(`${Settings.section}.${Settings.defaultEnvironment}`)
      ) {
        this.fromSettings = undefined;
        this.changed.fire();
      }
    });
    this.trustSubscription = vscode.workspace.onDidGrantWorkspaceTrust(() => {
      this.fromSettings = undefined;
      this.changed.fire();
    });
  }

  /**
   * The user's own environments first, then those of the user's settings, then those of the
   * workspace's settings (only in a trusted workspace). Same label and URL in two places is
   * one environment (the first); a label used by two different ones is listed twice, each
   * marked with where it comes from: nothing from settings replaces an environment of the user.
   */
  list(): Environment[] {
    const out: Environment[] = this.userRecords().map((record): Environment => ({ ...record, source: 'user' }));
    for (const env of this.settingsEnvironments()) if (!out.some((e) => e.id === env.id)) out.push({ ...env });
    return out;
  }

  get(id: string): Environment | undefined {
    return this.list().find((env) => env.id === id);
  }

  active(): Environment | undefined {
    const all = this.list();
    const chosen = this.context.workspaceState.get<string>(StateKeys.activeEnvironment);
    const byId = all.find((env) => env.id === chosen);
    if (byId) return byId;
    const preferred = this.setting<string>(
      Settings.defaultEnvironment,
      (v): v is string => typeof v === 'string',
    )?.trim();
    // A label several environments share means the user's own first (the list's order).
    return all.find((env) => preferred && env.label === preferred) ?? all[0];
  }

  async setActive(id: string | undefined): Promise<void> {
    await this.context.workspaceState.update(StateKeys.activeEnvironment, id);
    this.changed.fire();
  }

  async add(record: EnvironmentRecord): Promise<Environment> {
    const records = this.userRecords().filter((r) => r.id !== record.id);
    records.push({
      id: record.id,
      label: record.label,
      baseUrl: record.baseUrl,
      production: record.production || undefined,
    });
    await this.state.update(StateKeys.environments, records);
    this.changed.fire();
    return { ...record, source: 'user' };
  }

  async update(id: string, changes: Partial<Omit<EnvironmentRecord, 'id'>>): Promise<void> {
    const records = this.userRecords().map((r) => (r.id === id ? { ...r, ...changes } : r));
    await this.state.update(StateKeys.environments, records);
    this.changed.fire();
  }

  async remove(id: string): Promise<void> {
    await this.state.update(
      StateKeys.environments,
      this.userRecords().filter((r) => r.id !== id),
    );
    await this.forgetCapabilities(id);
    if (this.context.workspaceState.get<string>(StateKeys.activeEnvironment) === id) {
      await this.context.workspaceState.update(StateKeys.activeEnvironment, undefined);
    }
    this.changed.fire();
  }

  capabilities(id: string): Capabilities {
    return this.state.get<Record<string, Capabilities>>(StateKeys.capabilities, {})[id] ?? {};
  }

  /** Records what an answer of the service showed; fires only when something changed. */
  async learn(id: string, caps: Capabilities): Promise<void> {
    const all = { ...this.state.get<Record<string, Capabilities>>(StateKeys.capabilities, {}) };
    const before = all[id] ?? {};
    const after = { ...before, ...caps };
    if (before.read === after.read && before.write === after.write && before.usage === after.usage) return;
    all[id] = after;
    await this.state.update(StateKeys.capabilities, all);
    this.capsChanged.fire(id);
  }

  async forgetCapabilities(id: string): Promise<void> {
    const all = { ...this.state.get<Record<string, Capabilities>>(StateKeys.capabilities, {}) };
    if (!(id in all)) return;
    delete all[id];
    await this.state.update(StateKeys.capabilities, all);
    this.capsChanged.fire(id);
  }

  private userRecords(): EnvironmentRecord[] {
    const stored = this.state.get<unknown>(StateKeys.environments, []);
    if (!Array.isArray(stored)) return [];
    return stored.filter(
      (r): r is EnvironmentRecord =>
        typeof r === 'object' &&
        r !== null &&
        typeof (r as EnvironmentRecord).id === 'string' &&
        typeof (r as EnvironmentRecord).label === 'string' &&
        typeof (r as EnvironmentRecord).baseUrl === 'string',
    );
  }

  /**
   * A setting's value as VS Code resolves it, except in a workspace that is not trusted:
   * there only the user's own value counts (the manifest also lists these settings in
   * `restrictedConfigurations`, so VS Code ignores the workspace's value itself).
   */
  private setting<T>(name: string, valid: (v: unknown) => v is T): T | undefined {
    const config = vscode.workspace.getConfiguration(Settings.section);
    if (vscode.workspace.isTrusted) return config.get<T>(name);
    const inspected = config.inspect<T>(name);
    const value = inspected?.globalValue;
    return valid(value) ? value : undefined;
  }

  private settingsEnvironments(): Environment[] {
    this.fromSettings ??= this.readSettingsEnvironments();
    return this.fromSettings;
  }

  private readSettingsEnvironments(): Environment[] {
    const inspected = vscode.workspace
      .getConfiguration(Settings.section)
      .inspect<SettingsEntry[]>(Settings.environments);
    const out: Environment[] = [];
    const read = (entries: unknown, source: 'settings' | 'workspace') => {
      for (const entry of Array.isArray(entries) ? (entries as SettingsEntry[]) : []) {
        if (typeof entry?.label !== 'string' || typeof entry.baseUrl !== 'string') continue;
        const parsed = parseBaseUrl(entry.baseUrl);
        if (!parsed.ok) continue;
        const label = entry.label.trim();
        if (!label) continue;
        const id = settingsEnvironmentId(label, parsed.url);
        if (!out.some((e) => e.id === id))
          out.push({ id, label, baseUrl: parsed.url, production: entry.production === true, source });
      }
    };
    read(inspected?.globalValue, 'settings');
    // A workspace that is not trusted (Restricted Mode) can neither add nor select an environment.
    if (vscode.workspace.isTrusted) {
      read(inspected?.workspaceValue, 'workspace');
      read(inspected?.workspaceFolderValue, 'workspace');
    }
    return out;
  }

  dispose(): void {
    this.subscription.dispose();
    this.trustSubscription.dispose();
    this.changed.dispose();
    this.capsChanged.dispose();
  }
}
