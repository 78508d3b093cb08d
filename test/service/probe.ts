// A tiny HTTP helper for tests that talk to the reference service directly (not through the
// extension's client): global fetch with a bounded wait, the body read as text and as JSON.

export interface ProbeOptions {
  /** Sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** Serialised as JSON (with Content-Type: application/json) unless rawBody is given. */
  body?: unknown;
  /** Sent as is; set contentType yourself. */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
  timeoutMs?: number;
  redirect?: 'follow' | 'manual' | 'error';
}

export interface ProbeResult<T> {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: T;
  ms: number;
}

/** `path` is relative to baseUrl (which ends in /v1), e.g. '/engagements'. */
export async function probe<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  options: ProbeOptions = {},
): Promise<ProbeResult<T>> {
  const url = new URL(baseUrl + path);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, String(value));
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.Authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['Content-Type'] = options.contentType ?? 'application/json';
  const started = Date.now();
  const response = await fetch(url, {
    method,
    headers,
    body,
    redirect: options.redirect ?? 'manual',
    signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json: json as T, ms: Date.now() - started };
}
