// Writing answers, normally or in the spoiled ways some faults ask for, with every timer
// tracked so that closing the service stops all pending work at once.
import type { ServerResponse } from 'node:http';

/** Where the service's waits are timed: the real timers, or a clock a test moves. */
export interface TimerSource {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const REAL_TIMERS: TimerSource = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

export class Timers {
  private readonly pending = new Set<unknown>();
  private stopped = false;

  constructor(private readonly source: TimerSource = REAL_TIMERS) {}

  /** Resolves after `ms`; never resolves once the timers are stopped. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve));
  }

  after(ms: number, run: () => void): void {
    if (this.stopped) return;
    const timer = this.source.setTimeout(
      () => {
        this.pending.delete(timer);
        run();
      },
      Math.max(0, ms),
    );
    this.pending.add(timer);
  }

  stopAll(): void {
    this.stopped = true;
    for (const timer of this.pending) this.source.clearTimeout(timer);
    this.pending.clear();
  }
}

export type DeliveryMode = 'normal' | 'truncated' | 'slowBody';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function gone(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded;
}

/** Writes the answer: whole, cut off halfway (then the socket is destroyed) or dribbled over `ms`. */
export function deliver(res: ServerResponse, answer: Answer, mode: DeliveryMode, timers: Timers, ms = 0): void {
  if (gone(res)) return;
  const bytes = Buffer.from(answer.body, 'utf8');
  res.writeHead(answer.status, { ...answer.headers, 'Content-Length': String(bytes.length) });
  if (mode === 'normal' || bytes.length === 0) {
    res.end(bytes);
    return;
  }
  if (mode === 'truncated') {
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
    return;
  }
  res.flushHeaders();
  const chunks = Math.min(bytes.length, 10);
  const size = Math.ceil(bytes.length / chunks);
  let sent = 0;
  const step = (): void => {
    if (gone(res)) return;
    const next = bytes.subarray(sent, sent + size);
    sent += next.length;
    if (sent >= bytes.length) res.end(next);
    else {
      res.write(next);
      timers.after(ms / chunks, step);
    }
  };
  timers.after(ms / chunks, step);
}
