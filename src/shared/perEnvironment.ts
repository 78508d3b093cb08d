// What the extension keeps per environment in a memento (workspaceState or globalState): one
// memento key per kind of data, its entries keyed by environment id. Only what the service
// answered or what the user chose is kept: never a key, a header or anything typed into a
// prompt. An entry goes when its environment is removed or its key deleted (see
// `forgetWithEnvironmentOrKey`). Each store's own rules (periods, shared reads, alert marks)
// live in its own file on top of `PerEnvironmentStore`. Also the extension's own global state
// (`OwnState`), read back as this session wrote it.
import type { Log } from './log';

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** How a store's entries sit in its memento key: read (by environment id) and written back. */
export interface Layout {
  read(stored: unknown): Record<string, unknown>;
  /** The value to store; undefined (the key is removed) when there are no entries. */
  write(entries: Record<string, unknown>): unknown;
}

/** The layout of the stores: `{ version: 1, entries: { [environmentId]: entry } }`. */
const versioned: Layout = {
  read: (stored) => (isObj(stored) && stored.version === 1 && isObj(stored.entries) ? { ...stored.entries } : {}),
  write: (entries) => (Object.keys(entries).length ? { version: 1, entries } : undefined),
};

/**
 * `{ [environmentId]: entry }`: the shape the shared usage reads have had since their first
 * build. It stays: windows of an earlier build read and write the same global state.
 */
export const unversioned: Layout = {
  read: (stored) => (isObj(stored) ? { ...stored } : {}),
  write: (entries) => (Object.keys(entries).length ? entries : undefined),
};

/**
 * What a store does with a save that failed: it is logged (what was saved and the error, which
 * never holds a key: no store keeps one), and when it loses something the user did, the caller
 * says what in its `write` and the user is told.
 */
export interface SaveFailed {
  log: Pick<Log, 'warn'>;
  /** What the store keeps, for the log: "the usage history". */
  what: string;
  /** Says to the user what they did that was not saved. */
  tell?: (lost: string) => void;
}

/** Where a warning is shown to the user (the services' UI). */
interface Warns {
  message(level: 'warning', text: string, options: object): unknown;
}

/** The failed saves of a store are logged to the extension's log; those the user did are told as a warning. */
export function saveFailed(services: { log: Pick<Log, 'warn'>; ui: { current: Warns } }, what: string): SaveFailed {
  return {
    log: services.log,
    what,
    tell: (lost) => void services.ui.current.message('warning', lost, {}),
  };
}

interface StoreOptions<T> {
  /** Whether a stored entry can be used; one that cannot is not read (and is kept as it is). */
  isValid: (value: unknown) => value is T;
  /** Without it (unit tests) a failed save rejects the change's promise. */
  failed?: SaveFailed;
  layout?: Layout;
  /** At most `max` environments are kept: those with the lowest `recency` go first. */
  bound?: { max: number; recency: (entry: T) => number };
}

/**
 * Entries per environment in one memento key. Every read goes to the memento (another window
 * may have written a global one); every change is a read-modify-write of the whole key.
 */
export class PerEnvironmentStore<T> {
  private readonly layout: Layout;

  constructor(
    private readonly memento: MementoLike,
    private readonly key: string,
    private readonly options: StoreOptions<T>,
  ) {
    this.layout = options.layout ?? versioned;
  }

  read(environmentId: string): T | undefined {
    const entry = this.layout.read(this.memento.get(this.key))[environmentId];
    return this.options.isValid(entry) ? entry : undefined;
  }

  /** Every environment's entries as stored (not checked). */
  all(): Record<string, unknown> {
    return this.layout.read(this.memento.get(this.key));
  }

  /** Sets an environment's entry (dropping the least recent environments' beyond the bound). */
  write(environmentId: string, value: T): void {
    void this.change((entries) => {
      entries[environmentId] = value;
      const { bound } = this.options;
      if (bound) {
        const recency = (id: string) => {
          const entry = entries[id];
          return this.options.isValid(entry) ? bound.recency(entry) : 0;
        };
        const newestFirst = Object.keys(entries).sort((a, b) => recency(b) - recency(a));
        for (const id of newestFirst.slice(bound.max)) delete entries[id];
      }
      return true;
    });
  }

  forget(environmentId: string): void {
    void this.change((entries) => environmentId in entries && delete entries[environmentId]);
  }

  /** Drops the entries of environments that no longer exist. */
  keepOnly(environmentIds: readonly string[]): void {
    void this.change((entries) => {
      const stale = Object.keys(entries).filter((id) => !environmentIds.includes(id));
      for (const id of stale) delete entries[id];
      return stale.length > 0;
    });
  }

  /**
   * Changes the stored entries (of all environments at once); `edit` returns whether it changed
   * anything, and only then is the key saved. Resolves to false when the save failed; `lost`:
   * what the user did that the failed save loses, told to them.
   */
  change(edit: (entries: Record<string, unknown>) => boolean, lost?: string): Promise<boolean> {
    const entries = this.all();
    if (!edit(entries)) return Promise.resolve(true);
    const { failed } = this.options;
    return Promise.resolve(this.memento.update(this.key, this.layout.write(entries))).then(
      () => true,
      (error: unknown) => {
        if (!failed) throw error;
        failed.log.warn(`Could not save ${failed.what}: ${String(error)}`);
        if (lost !== undefined) failed.tell?.(lost);
        return false;
      },
    );
  }
}

export interface Saved {
  /** When the service answered (ms since epoch). */
  fetchedAt: number;
}

/** Environments whose data is kept; the least recently fetched go first. */
export const MAX_CACHED_ENVIRONMENTS = 5;

/**
 * Data last shown, kept so that a view or panel can show it at once when it opens again,
 * marked as saved until a refresh lands. Only cached for speed: a failed save is logged only.
 */
export class PerEnvironmentCache<T extends Saved> extends PerEnvironmentStore<T> {
  constructor(memento: MementoLike, key: string, isValid: (value: unknown) => value is T, failed?: SaveFailed) {
    super(memento, key, { isValid, failed, bound: { max: MAX_CACHED_ENVIRONMENTS, recency: (e) => e.fetchedAt } });
  }
}

/** What `forgetWithEnvironmentOrKey` watches (the services' environments and key vault). */
interface EnvironmentsAndKeys {
  environments: { onDidChange(listener: () => unknown): { dispose(): void }; list(): ReadonlyArray<{ id: string }> };
  vault: {
    onDidChange(listener: (environmentId: string) => unknown): { dispose(): void };
    has(environmentId: string): Promise<boolean>;
  };
}

/** Drops an environment's saved entries when the environment is removed or its key deleted: no saved data outlives either. */
export function forgetWithEnvironmentOrKey(
  services: EnvironmentsAndKeys,
  store: { forget(environmentId: string): void; keepOnly(environmentIds: readonly string[]): void },
): Array<{ dispose(): void }> {
  const { environments, vault } = services;
  return [
    environments.onDidChange(() => store.keepOnly(environments.list().map((env) => env.id))),
    vault.onDidChange((id) => {
      void vault.has(id).then((has) => has || store.forget(id));
    }),
  ];
}

/** What a memento is to the stores: VS Code's `Memento`, or a test's. */
export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/**
 * Values this extension writes to `globalState`, read back as written. VS Code keeps one
 * object for all of an extension's global state in the extension host and replaces it with
 * every change the main process echoes back; the echo of an earlier write (of any key) can
 * arrive after a later write, so a read right after two quick writes may see the older value
 * (an environment just removed shows up again, a capability just learned is gone) and a
 * read-modify-write built on it loses the later change. So a key written in this session is
 * read from here; a key not yet written is read from globalState (values synced from another
 * machine are seen at start). A write that the echo overtook is sent once more.
 */
export class OwnState {
  private readonly written = new Map<string, unknown>();

  constructor(private readonly memento: MementoLike) {}

  get<T>(key: string): T | undefined;
  get<T>(key: string, fallback: T): T;
  get<T>(key: string, fallback?: T): T | undefined {
    const value = this.written.has(key) ? (this.written.get(key) as T | undefined) : this.memento.get<T>(key);
    return value === undefined ? fallback : value;
  }

  async update(key: string, value: unknown): Promise<void> {
    this.written.set(key, value);
    await this.memento.update(key, value);
    // If an older echo replaced VS Code's copy before it was sent, this write did not land.
    if (this.written.get(key) === value && JSON.stringify(this.memento.get(key)) !== JSON.stringify(value)) {
      await this.memento.update(key, value);
    }
  }
}
