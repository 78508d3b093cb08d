import * as vscode from 'vscode';
import { Settings, StateKeys } from '../constants';
import { parseBaseUrl } from '../core/validation';
import { type Capabilities, type Environment, type EnvironmentRecord, settingsEnvironmentId } from './model';

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

  constructor(private readonly context: vscode.ExtensionContext) {
    context.globalState.setKeysForSync([StateKeys.environments]);
    this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${Settings.section}.${Settings.environments}`) || event.affectsConfiguration(`${Settings.section}.${Settings.defaultEnvironment}`)) {
        this.changed.fire();
      }
    });
  }

  list(): Environment[] {
    const user = this.userRecords().map((record): Environment => ({ ...record, source: 'user' }));
    const fromSettings = this.settingsEnvironments().filter((env) => !user.some((u) => u.id === env.id));
    return [...user, ...fromSettings];
  }

  get(id: string): Environment | undefined {
    return this.list().find((env) => env.id === id);
  }

  active(): Environment | undefined {
    const all = this.list();
    const chosen = this.context.workspaceState.get<string>(StateKeys.activeEnvironment);
    const byId = all.find((env) => env.id === chosen);
    if (byId) return byId;
    const preferred = vscode.workspace.getConfiguration(Settings.section).get<string>(Settings.defaultEnvironment, '').trim();
    return all.find((env) => preferred && env.label === preferred) ?? all[0];
  }

  async setActive(id: string | undefined): Promise<void> {
    await this.context.workspaceState.update(StateKeys.activeEnvironment, id);
    this.changed.fire();
  }

  async add(record: EnvironmentRecord): Promise<Environment> {
    const records = this.userRecords().filter((r) => r.id !== record.id);
    records.push({ id: record.id, label: record.label, baseUrl: record.baseUrl, production: record.production || undefined });
    await this.context.globalState.update(StateKeys.environments, records);
    this.changed.fire();
    return { ...record, source: 'user' };
  }

  async update(id: string, changes: Partial<Omit<EnvironmentRecord, 'id'>>): Promise<void> {
    const records = this.userRecords().map((r) => (r.id === id ? { ...r, ...changes } : r));
    await this.context.globalState.update(StateKeys.environments, records);
    this.changed.fire();
  }

  async remove(id: string): Promise<void> {
    await this.context.globalState.update(StateKeys.environments, this.userRecords().filter((r) => r.id !== id));
    await this.forgetCapabilities(id);
    if (this.context.workspaceState.get<string>(StateKeys.activeEnvironment) === id) {
      await this.context.workspaceState.update(StateKeys.activeEnvironment, undefined);
    }
    this.changed.fire();
  }

  capabilities(id: string): Capabilities {
    return this.context.globalState.get<Record<string, Capabilities>>(StateKeys.capabilities, {})[id] ?? {};
  }

  /** Records what an answer of the service showed; fires only when something changed. */
  async learn(id: string, caps: Capabilities): Promise<void> {
    const all = { ...this.context.globalState.get<Record<string, Capabilities>>(StateKeys.capabilities, {}) };
    const before = all[id] ?? {};
    const after = { ...before, ...caps };
    if (before.read === after.read && before.write === after.write && before.usage === after.usage) return;
    all[id] = after;
    await this.context.globalState.update(StateKeys.capabilities, all);
    this.capsChanged.fire(id);
  }

  async forgetCapabilities(id: string): Promise<void> {
    const all = { ...this.context.globalState.get<Record<string, Capabilities>>(StateKeys.capabilities, {}) };
    if (!(id in all)) return;
    delete all[id];
    await this.context.globalState.update(StateKeys.capabilities, all);
    this.capsChanged.fire(id);
  }

  private userRecords(): EnvironmentRecord[] {
    const stored = this.context.globalState.get<unknown>(StateKeys.environments, []);
    if (!Array.isArray(stored)) return [];
    return stored.filter((r): r is EnvironmentRecord => typeof r === 'object' && r !== null && typeof (r as EnvironmentRecord).id === 'string' && typeof (r as EnvironmentRecord).label === 'string' && typeof (r as EnvironmentRecord).baseUrl === 'string');
  }

  private settingsEnvironments(): Environment[] {
    const entries = vscode.workspace.getConfiguration(Settings.section).get<SettingsEntry[]>(Settings.environments, []);
    const out: Environment[] = [];
    for (const entry of Array.isArray(entries) ? entries : []) {
      if (typeof entry?.label !== 'string' || typeof entry.baseUrl !== 'string') continue;
      const parsed = parseBaseUrl(entry.baseUrl);
      if (!parsed.ok) continue;
      const label = entry.label.trim();
      if (!label) continue;
      out.push({ id: settingsEnvironmentId(label, parsed.url), label, baseUrl: parsed.url, production: entry.production === true, source: 'settings' });
    }
    return out;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.capsChanged.dispose();
  }
}
