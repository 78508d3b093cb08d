import * as vscode from 'vscode';
import { SECRET_PREFIX } from '../constants';

export type StoreOutcome = 'stored' | 'unavailable';

/**
 * API keys, one per environment, in VS Code's SecretStorage under `engagementUsage.apiKey.<id>`.
 * When SecretStorage cannot store (no OS keyring), a key can be kept in memory for this
 * session only, by the user's choice. Keys are cached in memory for fast request headers.
 */
export class KeyVault implements vscode.Disposable {
  private readonly cache = new Map<string, string | undefined>();
  private readonly sessionKeys = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<string>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((event) => {
      if (!event.key.startsWith(SECRET_PREFIX)) return;
      const id = event.key.slice(SECRET_PREFIX.length);
      this.cache.delete(id);
      this.changed.fire(id);
    });
  }

  async get(id: string): Promise<string | undefined> {
    const session = this.sessionKeys.get(id);
    if (session) return session;
    if (this.cache.has(id)) return this.cache.get(id);
    let key: string | undefined;
    try {
      key = await this.secrets.get(SECRET_PREFIX + id);
    } catch {
      key = undefined;
    }
    this.cache.set(id, key);
    return key;
  }

  async has(id: string): Promise<boolean> {
    return (await this.get(id)) !== undefined;
  }

  isSessionOnly(id: string): boolean {
    return this.sessionKeys.has(id);
  }

  async store(id: string, key: string): Promise<StoreOutcome> {
    try {
      await this.secrets.store(SECRET_PREFIX + id, key);
    } catch {
      return 'unavailable';
    }
    this.sessionKeys.delete(id);
    this.cache.set(id, key);
    this.changed.fire(id);
    return 'stored';
  }

  /** Keeps a key in memory until the window closes (the user chose this when storing failed). */
  storeForSession(id: string, key: string): void {
    this.sessionKeys.set(id, key);
    this.changed.fire(id);
  }

  async delete(id: string): Promise<void> {
    this.sessionKeys.delete(id);
    this.cache.set(id, undefined);
    try {
      await this.secrets.delete(SECRET_PREFIX + id);
    } finally {
      this.changed.fire(id);
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
