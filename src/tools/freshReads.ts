// A read the tools make whole (every engagement, every usage record of a period), kept by key
// while it is fresh, and made once for the calls that ask at the same time: three finds at once
// send the requests of one. Each call can be cancelled on its own; the read stops when every
// call waiting for it was cancelled. Its progress reaches every call waiting for it. Free of
// `vscode`.
import { ApiError } from '../api/errors';

type Progress = (done: number, total: number) => void;

/** A call waiting for a read: its cancellation, and where its progress goes (a tool's context). */
interface Waiter {
  signal?: AbortSignal;
  progress?: (done: number, total: number, message: string) => void;
}

interface Reading<T> {
  promise: Promise<{ value: T; readAt: number }>;
  abort: AbortController;
  /** The calls waiting for it, each with where its progress goes. */
  waiting: Set<Waiter>;
  message: string;
  key: string;
}

export class FreshReads<T> {
  private readonly kept = new Map<string, { value: T; readAt: number }>();
  private readonly reading = new Map<string, Reading<T>>();

  constructor(
    private readonly maxAgeMs: () => number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** What `key` holds while fresh, else what `read` gives (shared with the calls reading it now). */
  get(
    key: string,
    read: (signal: AbortSignal, onProgress: Progress) => Promise<T>,
    context: Waiter,
    message: string,
  ): Promise<{ value: T; readAt: number }> {
    const kept = this.kept.get(key);
    if (kept && this.now() - kept.readAt < this.maxAgeMs()) return Promise.resolve(kept);
    if (context.signal?.aborted) return Promise.reject(cancelled());
    const reading = this.reading.get(key) ?? this.start(key, read, message);
    return this.join(reading, context);
  }

  /** What `key` holds, fresh or not, without reading. */
  peek(key: string): T | undefined {
    return this.kept.get(key)?.value;
  }

  /** Forgets what is held, and what is being read: a read started before is not kept (another address, another key). */
  clear(): void {
    this.kept.clear();
    this.reading.clear();
  }

  private start(key: string, read: (signal: AbortSignal, onProgress: Progress) => Promise<T>, message: string) {
    const abort = new AbortController();
    const reading: Reading<T> = { abort, waiting: new Set(), message, key, promise: Promise.resolve() as never };
    const onProgress: Progress = (done, total) => {
      for (const call of reading.waiting) call.progress?.(done, total, reading.message);
    };
    reading.promise = read(abort.signal, onProgress)
      .then((value) => {
        const entry = { value, readAt: this.now() };
        // A read cleared meanwhile (another key, another address) is not kept.
        if (this.reading.get(key) === reading) this.kept.set(key, entry);
        return entry;
      })
      .finally(() => {
        if (this.reading.get(key) === reading) this.reading.delete(key);
      });
    // Nobody may be waiting when it fails (all cancelled): not an unhandled rejection.
    reading.promise.catch(() => undefined);
    this.reading.set(key, reading);
    return reading;
  }

  private join(reading: Reading<T>, context: Waiter): Promise<{ value: T; readAt: number }> {
    reading.waiting.add(context);
    const { signal } = context;
    if (!signal) return reading.promise.finally(() => reading.waiting.delete(context));
    return new Promise((resolve, reject) => {
      const leave = () => {
        reading.waiting.delete(context);
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        leave();
        if (reading.waiting.size === 0) {
          // Stopped: a call that comes later starts a read of its own.
          if (this.reading.get(reading.key) === reading) this.reading.delete(reading.key);
          reading.abort.abort();
        }
        reject(cancelled());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      reading.promise.then(
        (value) => {
          leave();
          resolve(value);
        },
        (error: Error) => {
          leave();
          reject(error);
        },
      );
    });
  }
}

function cancelled(): ApiError {
  return new ApiError('cancelled', 'The request was cancelled.');
}
