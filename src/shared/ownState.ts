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
