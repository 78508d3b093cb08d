// Waiting for a signal in a unit test: what the test waits for, polled, never a fixed time.
import assert from 'node:assert/strict';

/** Polls `check` every 5 ms until it holds; fails naming `what` after `timeoutMs`. */
export async function until(check: () => boolean, what = 'the condition', timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(check(), `${what} within ${timeoutMs} ms`);
}
