import * as vscode from 'vscode';
import type { SlashMemory } from '../api/client';
import { ServiceApi } from '../api/service';
import type { Scope } from '../api/types';
import { ContextKeys, Settings } from '../shared/constants';
import type { Log } from '../shared/log';
import type { KeyVault } from './keyVault';
import { type Capabilities, type Environment, keyFingerprint, originOf, SCOPE_CAPABILITY } from './model';

type ApiTarget = Pick<Environment, 'id' | 'label' | 'baseUrl' | 'source'>;
import type { EnvironmentStore } from './environments';

/**
 * The active environment and a client for it. Views, the dashboard and commands ask this
 * for `api`; it is rebuilt when the environment, its URL or the timeout setting changes. The
 * key is read from the vault at each request, so a replaced key takes effect at once.
 */
export class Connection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** The active environment, its URL or its key changed: data shown for it is stale. */
  readonly onDidChange = this.changed.event;
  private cached?: { signature: string; api: ServiceApi };
  /** The page size each service took for reading every engagement, kept across its clients. */
  private readonly listSizes = new Map<string, number>();
  /** The trailing slash each route of each service wants, learned once per window. */
  private readonly slashes = new Map<string, SlashMemory>();
  private activeId?: string;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly store: EnvironmentStore,
    private readonly vault: KeyVault,
    private readonly log: Log,
    /** Sent as `User-Agent` with every request (the extension and its version). */
    private readonly userAgent?: string,
  ) {
    this.activeId = store.active()?.id;
    this.disposables.push(
      store.onDidChange(() => {
        const next = store.active();
        const signature = next ? this.signature(next) : '';
        if (next?.id !== this.activeId || signature !== this.cached?.signature) {
          this.activeId = next?.id;
          this.cached = undefined;
          this.changed.fire();
        }
        void this.updateContext();
      }),
      store.onDidChangeCapabilities((id) => {
        if (id === this.activeId) void this.updateContext();
      }),
      vault.onDidChange((id) => {
        if (id !== this.activeId) return;
        this.changed.fire();
        void this.updateContext();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${Settings.section}.${Settings.requestTimeoutSeconds}`))
          this.cached = undefined;
      }),
      this.changed,
    );
  }

  get environment(): Environment | undefined {
    return this.store.active();
  }

  /** A client for the active environment, or undefined when there is none. */
  get api(): ServiceApi | undefined {
    const env = this.store.active();
    if (!env) return undefined;
    const signature = this.signature(env);
    if (this.cached?.signature !== signature) this.cached = { signature, api: this.createApi(env) };
    return this.cached.api;
  }

  /** A client for any environment (used to check a key before it is saved). */
  createApi(env: ApiTarget, keyOverride?: string): ServiceApi {
    return this.build(env, keyOverride, keyOverride === undefined);
  }

  /**
   * A client for `env` that sends only the key whose fingerprint is given, and learns what it
   * may do as the active client does: a write a person confirmed with one key is sent with
   * that key or not at all. Undefined when the key stored for `env` is another one now
   * (replaced, removed, or not for this address).
   */
  async apiWithKey(env: ApiTarget, fingerprint: string): Promise<ServiceApi | undefined> {
    const key = await this.vault.keyFor(env);
    if (key === undefined || keyFingerprint(key) !== fingerprint) return undefined;
    return this.build(env, key, true);
  }

  private build(env: ApiTarget, pinnedKey: string | undefined, learns: boolean): ServiceApi {
    const timeout = vscode.workspace.getConfiguration(Settings.section).get<number>(Settings.requestTimeoutSeconds, 30);
    return new ServiceApi({
      baseUrl: env.baseUrl,
      listSizes: this.listSizes,
      slashes: this.slashes,
      timeoutMs: Math.max(1, timeout) * 1000,
      userAgent: this.userAgent,
      getKey: async () => {
        // The one place a stored key is handed to a client: only for the origin it was entered for.
        const key = pinnedKey ?? (await this.vault.keyFor(env));
        if (key === undefined && pinnedKey === undefined && (await this.vault.has(env.id))) {
          this.log.warn(
            `The key stored for "${env.label}" was not entered for ${originOf(env.baseUrl)}; it was not sent. Enter the key for this address.`,
          );
        }
        this.log.rememberSecret(key);
        return key;
      },
      onRequest: (entry) => {
        this.log.request(env.label, entry);
        if (!learns) return;
        const capability = SCOPE_CAPABILITY[entry.scope as Scope];
        if (!capability) return;
        if (entry.outcome === 'ok') void this.store.learn(env.id, { [capability]: true });
        else if (entry.outcome === 'forbidden') void this.store.learn(env.id, { [capability]: false });
      },
    });
  }

  async hasKey(): Promise<boolean> {
    const env = this.store.active();
    return env ? this.vault.usable(env) : false;
  }

  capabilities(): Capabilities {
    const env = this.store.active();
    return env ? this.store.capabilities(env.id) : {};
  }

  /** The context keys as last set, for menus and welcome content (unknown counts as allowed). */
  readonly context: Record<string, boolean> = {};

  /** The context keys being set; the next update waits for it. */
  private contextSet: Promise<void> = Promise.resolve();

  /**
   * Sets the context keys from the state as it is when they are set. Updates run one after the
   * other, each reading the state afresh: two changes close together (an environment added and
   * made active) cannot leave the keys of the first one set after the second's.
   */
  updateContext(): Promise<void> {
    this.contextSet = this.contextSet.then(
      () => this.setContext(),
      () => this.setContext(),
    );
    return this.contextSet;
  }

  private async setContext(): Promise<void> {
    const env = this.store.active();
    const caps = this.capabilities();
    const values = {
      [ContextKeys.hasEnvironment]: env !== undefined,
      [ContextKeys.canRead]: env !== undefined && caps.read !== false,
      [ContextKeys.canWrite]: env !== undefined && caps.write !== false,
      [ContextKeys.canReadUsage]: env !== undefined && caps.usage !== false,
    };
    Object.assign(this.context, values);
    await Promise.all(
      Object.entries(values).map(([key, value]) => vscode.commands.executeCommand('setContext', key, value)),
    );
  }

  private signature(env: Environment): string {
    const timeout = vscode.workspace.getConfiguration(Settings.section).get<number>(Settings.requestTimeoutSeconds, 30);
    return `${env.id}|${env.baseUrl}|${timeout}`;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
