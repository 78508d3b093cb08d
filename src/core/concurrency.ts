// How many requests run at once, named in one place, and the one worker pool that keeps to it.

/** Requests in flight at once, per kind of work. */
export const LIMITS = {
  /** Reading every page of a list (the client's default; a user-facing read of the whole set). */
  pages: 32,
  /** A refresh re-reading the pages shown: it runs while the user works, so it stays gentle. */
  refresh: 4,
  /** One request per engagement (a status change of several, their checks before). */
  perEngagement: 4,
} as const;

/** A unit of work, or undefined when there is none to hand out now. */
export type NextTask = () => (() => Promise<void>) | undefined;

/**
 * Runs the tasks `next` hands out with at most `limit` at once. A worker asks for the next
 * task when its current one ends and stops when there is none (so `next` may hand out more
 * as it learns more). After a task fails no new task starts; `onError` is told at once (to
 * abort those running), and the first error is thrown once every running task has ended.
 */
export async function runLimited(limit: number, next: NextTask, onError?: (error: unknown) => void): Promise<void> {
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    for (let task = next(); task; task = failure ? undefined : next()) {
      try {
        await task();
      } catch (error) {
        if (failure) continue;
        failure = { error };
        onError?.(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.floor(limit)) }, worker));
  if (failure) throw failure.error;
}

/** Runs `task` over `items` with at most `limit` at once; each result, in the input order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  const results = new Array<PromiseSettledResult<R>>(items.length);
  let next = 0;
  await runLimited(Math.min(limit, items.length), () => {
    if (next >= items.length) return undefined;
    const index = next++;
    return async () => {
      try {
        results[index] = { status: 'fulfilled', value: await task(items[index], index) };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    };
  });
  return results;
}
