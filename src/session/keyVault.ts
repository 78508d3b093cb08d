import * as vscode from 'vscode';
import { SECRET_PREFIX } from '../shared/constants';
import { type Environment, keyFingerprint, legacySettingsEnvironmentId, originOf } from './model';

export type StoreOutcome = 'stored' | 'unavailable';

/** What is kept in SecretStorage for an environment: the key and the origin it was entered for. */
interface Entry {
  key: string;
  /** `undefined`: stored by an earlier build, before keys were bound to an origin. */
  origin?: string;
}

type KeyTarget = Pick<Environment, 'id' | 'label' | 'baseUrl' | 'source'>;

/** An entry as stored: `{"v":2,"origin":…,"key":…}`, or the bare key earlier builds wrote. */
function parseEntry(raw: string | undefined): Entry | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.startsWith('{')) {
    try {
      const value = JSON.parse(raw) as { v?: unknown; key?: unknown; origin?: unknown };
      if (value.v === 2 && typeof value.key === 'string' && typeof value.origin === 'string')
        return { key: value.key, origin: value.origin };
    } catch {
      // not ours: a bare key that starts with "{"
    }
  }
  return { key: raw };
}

/**
 * API keys, one per environment, in VS Code's SecretStorage under `engagementUsage.apiKey.<id>`,
 * each together with the origin (scheme, host, port) it was entered for. `keyFor` is the one
 * place a key is handed to a client, and it refuses any other origin whatever the id.
 * When SecretStorage cannot store (no OS keyring), a key can be kept in memory for this
 * session only, by the user's choice. Keys are cached in memory for fast request headers.
 */
export class KeyVault implements vscode.Disposable {
  private readonly cache = new Map<string, Entry | undefined>();
  private readonly sessionKeys = new Map<string, Entry>();
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

  private async entry(id: string): Promise<Entry | undefined> {
    const session = this.sessionKeys.get(id);
    if (session) return session;
    if (this.cache.has(id)) return this.cache.get(id);
    let raw: string | undefined;
    try {
      raw = await this.secrets.get(SECRET_PREFIX + id);
    } catch {
      raw = undefined;
    }
    const entry = parseEntry(raw);
    this.cache.set(id, entry);
    return entry;
  }

  /** The key stored for an environment id (for display decisions, never for a request). */
  async get(id: string): Promise<string | undefined> {
    return (await this.entry(id))?.key;
  }

  async has(id: string): Promise<boolean> {
    return (await this.get(id)) !== undefined;
  }

  /** Whether a request to `env` would get a key (see `keyFor`). */
  async usable(env: KeyTarget): Promise<boolean> {
    return (await this.keyFor(env)) !== undefined;
  }

  /** The fingerprint of the key a request to `env` would send (see `keyFor`); undefined when none would be. */
  async fingerprint(env: KeyTarget): Promise<string | undefined> {
    const key = await this.keyFor(env);
    return key === undefined ? undefined : keyFingerprint(key);
  }

  /** The origin the key of `id` was entered for; undefined when none is stored or it predates origins. */
  async origin(id: string): Promise<string | undefined> {
    return (await this.entry(id))?.origin;
  }

  /**
   * The key for a request to `env`: only when it was entered for the origin of `env.baseUrl`.
   * Keys earlier builds stored without an origin are bound on first use, but only for
   * environments the user defined (their own list or their own settings), never for one a
   * workspace defines: for a workspace's environment the key is asked for again.
   */
  async keyFor(env: KeyTarget): Promise<string | undefined> {
    const origin = originOf(env.baseUrl);
    let entry = await this.entry(env.id);
    if (!entry && env.source === 'settings') entry = await this.migrateLegacy(env, origin);
    if (!entry) return undefined;
    if (entry.origin === undefined) {
      if (env.source === 'workspace' || !origin) return undefined;
      await this.bind(env.id, { key: entry.key, origin });
      return entry.key;
    }
    return entry.origin === origin && origin ? entry.key : undefined;
  }

  /** A key an earlier build stored under the 32-bit id of an environment of the user's settings. */
  private async migrateLegacy(env: KeyTarget, origin: string): Promise<Entry | undefined> {
    if (!origin) return undefined;
    const legacyId = legacySettingsEnvironmentId(env.label, env.baseUrl);
    const legacy = await this.entry(legacyId);
    if (!legacy || legacy.origin !== undefined) return undefined;
    const entry = { key: legacy.key, origin };
    if (!(await this.bind(env.id, entry))) return entry;
    await this.delete(legacyId).catch(() => undefined);
    return entry;
  }

  private async bind(id: string, entry: Entry): Promise<boolean> {
    if (this.sessionKeys.has(id)) {
      this.sessionKeys.set(id, entry);
      return true;
    }
    try {
      await this.secrets.store(SECRET_PREFIX + id, JSON.stringify({ v: 2, origin: entry.origin, key: entry.key }));
    } catch {
      return false;
    }
    this.cache.set(id, entry);
    return true;
  }

  isSessionOnly(id: string): boolean {
    return this.sessionKeys.has(id);
  }

  /** Stores a key for the environment `id`, bound to the origin of `baseUrl`. */
  async store(id: string, baseUrl: string, key: string): Promise<StoreOutcome> {
    const entry = { key, origin: originOf(baseUrl) };
    try {
      await this.secrets.store(SECRET_PREFIX + id, JSON.stringify({ v: 2, origin: entry.origin, key }));
    } catch {
      return 'unavailable';
    }
    this.sessionKeys.delete(id);
    this.cache.set(id, entry);
    this.changed.fire(id);
    return 'stored';
  }

  /** Keeps a key in memory until the window closes (the user chose this when storing failed). */
  storeForSession(id: string, baseUrl: string, key: string): void {
    this.sessionKeys.set(id, { key, origin: originOf(baseUrl) });
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
