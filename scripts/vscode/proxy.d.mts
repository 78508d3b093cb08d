// Types of proxy.mjs, for the TypeScript tests that import it.

export interface RunningProxy {
  port: number;
  /** `http://127.0.0.1:<port>`: the value for VS Code's `http.proxy`. */
  url: string;
  logFile: string;
  /** The whole log so far (LogLevel Connect: connections and request lines, never a header). */
  log(): string;
  /** Every tunnel asked for so far, as `host:port`, in order. */
  connects(): string[];
  /** SIGTERM, then SIGKILL after a grace period; removes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** tinyproxy on a free loopback port; with `auth`, it answers 407 without those Basic credentials. */
export function startProxy(options?: {
  auth?: { user: string; password: string };
  /** Only tunnels to these ports; any other is refused with 403. */
  connectPorts?: number[];
}): Promise<RunningProxy>;
