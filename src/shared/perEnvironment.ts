// Data last shown, kept per environment in a memento (workspaceState) so that a view or panel
// can show it at once when it opens again, marked as saved until a refresh lands. Only what
// the service answered is kept: never a key, a header or anything typed into a prompt. An
// entry goes when its environment is removed or its key deleted (see `forgetWithEnvironmentOrKey`).
import type { Services } from './services';

export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

interface Stored<T> {
  version: 1;
  entries: Record<string, T>;
}

export interface Saved {
  /** When the service answered (ms since epoch). */
  fetchedAt: number;
}

/** Environments whose data is kept; the least recently fetched go first. */
export const MAX_CACHED_ENVIRONMENTS = 5;

export class PerEnvironmentCache<T extends Saved> {
  constructor(
    private readonly memento: MementoLike,
    private readonly key: string,
    private readonly isValid: (value: unknown) => value is T,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  private entries(): Record<string, T> {
    const stored = this.memento.get<Stored<T>>(this.key);
    return stored?.version === 1 && typeof stored.entries === 'object' && stored.entries !== null
      ? { ...stored.entries }
      : {};
  }

  private save(entries: Record<string, T>): void {
    const value: Stored<T> | undefined = Object.keys(entries).length ? { version: 1, entries } : undefined;
    this.memento.update(this.key, value).then(undefined, this.onError);
  }

  read(environmentId: string): T | undefined {
    const entry = this.entries()[environmentId];
    return this.isValid(entry) ? entry : undefined;
  }

  write(environmentId: string, value: T): void {
    const entries = this.entries();
    entries[environmentId] = value;
    const newestFirst = Object.keys(entries).sort(
      (a, b) => (entries[b]?.fetchedAt ?? 0) - (entries[a]?.fetchedAt ?? 0),
    );
    for (const id of newestFirst.slice(MAX_CACHED_ENVIRONMENTS)) delete entries[id];
    this.save(entries);
  }

  forget(environmentId: string): void {
    const entries = this.entries();
    if (!(environmentId in entries)) return;
    delete entries[environmentId];
    this.save(entries);
  }

  /** Drops the entries of environments that no longer exist. */
  keepOnly(environmentIds: readonly string[]): void {
    const entries = this.entries();
    const stale = Object.keys(entries).filter((id) => !environmentIds.includes(id));
    if (stale.length === 0) return;
    for (const id of stale) delete entries[id];
    this.save(entries);
  }
}

/** Drops an environment's saved entries when the environment is removed or its key deleted: no saved data outlives either. */
export function forgetWithEnvironmentOrKey(
  services: Pick<Services, 'environments' | 'vault'>,
  cache: Pick<PerEnvironmentCache<Saved>, 'forget' | 'keepOnly'>,
): Array<{ dispose(): void }> {
  const { environments, vault } = services;
  return [
    environments.onDidChange(() => cache.keepOnly(environments.list().map((env) => env.id))),
    vault.onDidChange((id) => {
      void vault.has(id).then((has) => has || cache.forget(id));
    }),
  ];
}
