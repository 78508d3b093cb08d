// A workspace memento in memory that, like VS Code's, keeps JSON copies of what it is given.
import type { MementoLike } from '../../../src/shared/perEnvironment';

export class JsonMemento implements MementoLike {
  readonly data = new Map<string, string>();
  /** Every update rejects, as a full disk would make it. */
  failing = false;
  get<T>(key: string): T | undefined {
    const text = this.data.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }
  update(key: string, value: unknown): Promise<void> {
    if (this.failing) return Promise.reject(new Error('ENOSPC: no space left on device'));
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, JSON.stringify(value));
    return Promise.resolve();
  }
  /** What an earlier build left in the memento. */
  seed(key: string, value: unknown): void {
    this.data.set(key, JSON.stringify(value));
  }
}
