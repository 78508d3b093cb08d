// Writes the service accepted (202) and does not show yet. Each is looked for again on one
// schedule, about a minute in all, until it appears, the window ends, or what is shown
// belongs to another environment or key. No `vscode` here: unit tests run it in plain Node
// with a clock of their own.
import type { WriteResult } from '../api/types';

/**
 * The waits before each look for an accepted write, after the look made with its answer:
 * 0.5 s, then doubling to 8 s, then every 15 s, about a minute in all (60.5 s, 8 looks). The
 * one place that says how often and how long; a look is one GET of the engagement named, or
 * one search when the answer named nothing.
 */
export const ACCEPTED_LOOK_DELAYS_MS: readonly number[] = [500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000];

/** Waits `ms`, or less when `signal` aborts. Never rejects. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });

/** What became of an accepted write. */
export type AcceptedOutcome =
  /** The service shows it (an update: with every field sent). */
  | { kind: 'shown'; result: WriteResult }
  /** Every look of the window found nothing: the service has not shown it yet. */
  | { kind: 'notShown' }
  /** Stopped: another environment or key, or the view went away. */
  | { kind: 'cancelled' };

export interface LookOptions {
  /** Default ACCEPTED_LOOK_DELAYS_MS. */
  delays?: readonly number[];
  sleep?: Sleep;
  /** A look that failed (the network, a 5xx): reported, and the next look goes ahead. */
  onError?: (error: unknown) => void;
}

/** Looks for an accepted write on the schedule: `look` answers the result once it is there. */
export async function lookAgain(
  look: (signal: AbortSignal) => Promise<WriteResult | undefined>,
  signal: AbortSignal,
  options: LookOptions = {},
): Promise<AcceptedOutcome> {
  const sleep = options.sleep ?? realSleep;
  for (const delay of options.delays ?? ACCEPTED_LOOK_DELAYS_MS) {
    await sleep(delay, signal);
    if (signal.aborted) return { kind: 'cancelled' };
    try {
      const result = await look(signal);
      if (signal.aborted) return { kind: 'cancelled' };
      if (result) return { kind: 'shown', result };
    } catch (error) {
      if (signal.aborted) return { kind: 'cancelled' };
      options.onError?.(error);
    }
  }
  return { kind: 'notShown' };
}
