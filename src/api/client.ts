// The one HTTP client of the extension: a ky instance with the base URL, the auth header
// (the key read from a provider at request time), a per-request timeout, retries for GETs
// only, and a log hook. No `vscode` import: it runs in the extension host and in a browser.
import type * as KyModule from 'ky';
import type { KyInstance } from 'ky';
import { LIMITS } from '../core/concurrency';
import { l10n } from '../core/l10n';
import { parseBaseUrl } from '../core/validation';
import { ApiError, kindForStatus, parseRetryAfter, type Endpoint, type WriteOutcome } from './errors';
import type * as ErrorBodiesModule from './errorBodies';
import type * as NetworkModule from './network';
import type { ConnectionProblem } from './network';
import { readWriteAnswer, type WriteAnswer } from './readings';
import { redact } from './redact';
import { ShapeError } from './validate';

type KeyProvider = () => string | undefined | Promise<string | undefined>;

export interface RequestLog {
  method: string;
  /** Path and query relative to the base URL; never holds the key. */
  path: string;
  status?: number;
  durationMs: number;
  retries: number;
  /** The scope the endpoint needs (from the contract). */
  scope: string;
  /** `ok`, or the error kind. */
  outcome: string;
  message?: string;
}

export interface ClientOptions {
  baseUrl: string;
  getKey: KeyProvider;
  /** Per request attempt, and again for reading the body. Default 30 s. */
  timeoutMs?: number;
  /** Automatic retries of GETs (429, 502, 503, 504, network errors). Default 2. */
  retryLimit?: number;
  /** A Retry-After longer than this is not waited for: the caller gets `rateLimited`. Default 30 s. */
  maxRetryAfterMs?: number;
  /** Upper bound of one backoff delay. Default 5 s. */
  backoffLimitMs?: number;
  /**
   * Requests in flight at once when reading every page. Default 32: 10,000 engagements in
   * pages of 100 take the first page and then about three more round trips (measured by
   * `npm run bench`; 16 left the CPU idle between round trips, more gains little).
   */
  concurrency?: number;
  onRequest?: (entry: RequestLog) => void;
  fetch?: typeof globalThis.fetch;
  /** Sent as `User-Agent` with every request: the extension and its version (see `userAgent`). */
  userAgent?: string;
  /**
   * Where the page size each service (by base URL) took for reading every engagement is
   * kept beyond one client, so a new client (another environment, a new key) does not ask
   * a size the service already refused. Default: this client only.
   */
  listSizes?: Map<string, number>;
}

/** `eus-tools.engagement-usage/0.1.0 (VS Code 1.100.3)`: who is calling, for the service's logs. */
export function userAgent(extensionId: string, version: string, host?: string): string {
  return `${extensionId}/${version}${host ? ` (${host})` : ''}`;
}

export interface RequestInit<T> {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  signal?: AbortSignal;
  /** Extra request headers (conditional headers of a write). */
  headers?: Record<string, string>;
  parse: (body: unknown) => T;
}

export interface WriteInit<T> extends RequestInit<T> {
  /** A field the bare resource always has; see `unwrapSingle`. */
  marker: string;
}

interface Exchange {
  status: number;
  text: string;
  headers: Headers;
}

const RETRY_STATUS = [429, 502, 503, 504];

/** Connection problems that asking again at once cannot mend: no automatic retry. */
const LASTING: ReadonlySet<ConnectionProblem> = new Set([
  'untrustedCertificate',
  'expiredCertificate',
  'hostMismatch',
  'tlsHandshake',
  'proxyAuthentication',
  'proxyRefused',
]);

type Ky = typeof KyModule;
/** ky, once loaded: with the first request, not at activation (nothing is read then). */
let kyLoaded: Ky | undefined;
let kyLoading: Promise<Ky> | undefined;
function loadKy(): Promise<Ky> {
  return (kyLoading ??= import('ky').then((module) => (kyLoaded = module)));
}
/** `error instanceof` one of ky's error classes (false while ky is not loaded: it threw nothing yet). */
function isKyError<K extends 'HTTPError' | 'TimeoutError'>(error: unknown, kind: K): error is InstanceType<Ky[K]> {
  return kyLoaded !== undefined && error instanceof kyLoaded[kind];
}
/** The readers of a failure (error bodies, connection codes): loaded with the first failure, not at activation. */
let failureReaders: Promise<[typeof ErrorBodiesModule, typeof NetworkModule]> | undefined;
function loadFailureReaders(): Promise<[typeof ErrorBodiesModule, typeof NetworkModule]> {
  return (failureReaders ??= Promise.all([import('./errorBodies'), import('./network')]));
}
const DEFAULT_CONCURRENCY = LIMITS.pages;

export class ApiClient {
  readonly baseUrl: string;
  readonly concurrency: number;
  private http?: KyInstance;
  private readonly timeoutMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly agent: Record<string, string>;

  constructor(private readonly options: ClientOptions) {
    const base = parseBaseUrl(options.baseUrl);
    if (!base.ok) throw new ApiError('invalidRequest', base.message);
    this.baseUrl = base.url;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
    this.concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    this.agent = options.userAgent ? { 'User-Agent': options.userAgent } : {};
  }

  /** The ky instance, made with the first request. */
  private async httpClient(): Promise<KyInstance> {
    if (this.http) return this.http;
    const { default: ky } = await loadKy();
    const { options } = this;
    return (this.http ??= ky.create({
      prefixUrl: this.baseUrl,
      timeout: this.timeoutMs,
      // A redirect is reported, never followed: the key must not travel to another address.
      redirect: 'manual',
      credentials: 'omit',
      // Never from a cache (Node's RequestInit types lack `cache`; fetch implementations that cache honour it).
      ...({ cache: 'no-store' } as object),
      fetch: options.fetch,
      retry: {
        limit: options.retryLimit ?? 2,
        methods: ['get'],
        statusCodes: RETRY_STATUS,
        afterStatusCodes: [429, 503],
        maxRetryAfter: this.maxRetryAfterMs,
        backoffLimit: options.backoffLimitMs ?? 5_000,
        delay: (attempt) => 250 * 2 ** (attempt - 1),
        jitter: (delay) => delay * (0.5 + Math.random() * 0.5),
        shouldRetry: ({ error }) => this.shouldRetry(error),
      },
      // Set once here, not per request: ky merges per-request hooks on every call.
      hooks: {
        beforeRetry: [
          ({ options, retryCount }) => {
            (options.context as { call?: { retries: number } }).call!.retries = retryCount;
          },
        ],
      },
    }));
  }

  private async shouldRetry(error: Error): Promise<boolean | undefined> {
    if (isKyError(error, 'HTTPError')) {
      if (!RETRY_STATUS.includes(error.response.status)) return false;
      const wait = parseRetryAfter(error.response.headers.get('Retry-After'));
      return wait !== undefined && wait > this.maxRetryAfterMs ? false : undefined;
    }
    if (isKyError(error, 'TimeoutError') || error instanceof ApiError || isAbort(error)) return false;
    if (!(error instanceof TypeError)) return false;
    const [, { classifyConnectionFailure }] = await loadFailureReaders();
    const connection = classifyConnectionFailure(error, this.baseUrl);
    return !(connection && LASTING.has(connection.problem));
  }

  /** Sends one request of the contract and returns its checked body. */
  async request<T>(endpoint: Endpoint, init: RequestInit<T>): Promise<T> {
    return this.exchange(endpoint, init, (answer) => init.parse(parseJson(answer.text)));
  }

  /**
   * Sends a request whose answer's body the contract leaves open (a single read, a POST or a
   * PATCH). Any 2xx is returned, whatever its body: the answer says what came back (the
   * resource, or why not), and the caller decides, reading back what it needs after a write.
   */
  async send<T>(endpoint: Endpoint, init: WriteInit<T>): Promise<WriteAnswer<T>> {
    return this.exchange(endpoint, init, (answer) =>
      readWriteAnswer(answer.status, answer.text, answer.headers, init.parse, init.marker),
    );
  }

  private async exchange<T, R>(endpoint: Endpoint, init: RequestInit<T>, read: (answer: Exchange) => R): Promise<R> {
    const path = buildPath(endpoint.path, init.params ?? {});
    const searchParams = new URLSearchParams();
    for (const [name, value] of Object.entries(init.query ?? {}))
      if (value !== undefined) searchParams.set(name, String(value));
    const query = searchParams.toString();
    const logPath = `/${path}${query ? `?${query}` : ''}`;
    const started = Date.now();
    const call = {
      retries: 0,
      key: undefined as string | undefined,
      status: undefined as number | undefined,
      readingBody: false,
    };
    const bodyDeadline = new AbortController();
    const signal = init.signal ? AbortSignal.any([init.signal, bodyDeadline.signal]) : bodyDeadline.signal;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      if (init.signal?.aborted) throw new ApiError('cancelled', 'The request was cancelled.', { endpoint });
      // The key is read at request time (a replaced key takes effect at once); retries reuse it.
      // Plain headers and the instance's hooks: per-request hooks cost a merge on every call.
      const key = (await this.options.getKey())?.trim();
      if (!key) throw new ApiError('unauthorized', 'No API key is stored for this environment.', { endpoint });
      call.key = key;
      const http = await this.httpClient();
      const response = await http(path, {
        method: endpoint.method,
        searchParams: query ? searchParams : undefined,
        json: init.json,
        signal,
        headers: { ...init.headers, ...this.agent, Authorization: `Bearer ${key}`, Accept: 'application/json' },
        context: { call },
      });
      call.status = response.status;
      timer = setTimeout(() => bodyDeadline.abort(), this.timeoutMs);
      call.readingBody = true;
      const text = await response.text();
      call.readingBody = false;
      const result = read({ status: response.status, text, headers: response.headers });
      const unreadable = (result as { unreadable?: string }).unreadable;
      this.log(
        endpoint,
        logPath,
        started,
        call,
        'ok',
        unreadable ? `answered without a usable body (${unreadable})` : undefined,
      );
      return result;
    } catch (error) {
      const apiError = await toApiError(
        error,
        endpoint,
        call,
        bodyDeadline.signal.aborted && !init.signal?.aborted,
        `${this.baseUrl}/${path}`,
      );
      this.log(
        endpoint,
        logPath,
        started,
        { ...call, status: apiError.status ?? call.status },
        apiError.kind,
        apiError.detail ? `${apiError.message} (${apiError.detail})` : apiError.message,
      );
      throw apiError;
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  private log(
    endpoint: Endpoint,
    path: string,
    started: number,
    call: { retries: number; status?: number; key?: string },
    outcome: string,
    message?: string,
  ): void {
    this.options.onRequest?.({
      method: endpoint.method,
      path,
      scope: endpoint.scope,
      status: call.status,
      durationMs: Date.now() - started,
      retries: call.retries,
      outcome,
      message: message === undefined ? undefined : redact(message, call.key),
    });
  }
}

/** Fills `{name}` placeholders with URL-encoded values; `.` and `..` are refused outright. */
function buildPath(template: string, params: Record<string, string>): string {
  return template.replace(/^\//, '').replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
      throw new ApiError('invalidRequest', l10n.t('"{0}" is not a valid {1}.', String(value), name));
    }
    return encodeURIComponent(value);
  });
}

function parseJson(text: string): unknown {
  if (!text.trim()) throw new ShapeError('', 'a JSON body', 'an empty body');
  try {
    return JSON.parse(text);
  } catch {
    const start = text.trim().slice(0, 1);
    throw new ShapeError('', 'a JSON body', start === '<' ? 'an HTML page' : 'text that is not JSON');
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || (error as { code?: string }).code === 'ABORT_ERR');
}

/** What an error's `cause` may keep: its name, code and redacted message; never the request or its headers. */
function safeCause(error: unknown, key?: string): Error {
  const source = error as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    cause?: { code?: unknown; message?: unknown };
  };
  const cause = new Error(redact(typeof source?.message === 'string' ? source.message : String(error), key));
  cause.name = typeof source?.name === 'string' ? source.name : 'Error';
  const code = source?.code ?? source?.cause?.code;
  if (typeof code === 'string') (cause as Error & { code?: string }).code = code;
  cause.stack = `${cause.name}: ${cause.message}`;
  return cause;
}

async function toApiError(
  error: unknown,
  endpoint: Endpoint,
  call: { retries: number; key?: string; status?: number; readingBody: boolean },
  bodyTimedOut: boolean,
  target: string,
): Promise<ApiError> {
  const where = `${endpoint.method} ${endpoint.path}`;
  if (error instanceof ApiError) return error;
  const write = endpoint.method !== 'GET';
  const outcome = (value: WriteOutcome | undefined) => (write ? value : undefined);
  if (error instanceof ShapeError) {
    return new ApiError(
      'badResponse',
      `The service answered ${where} in a form this extension does not understand; details are in the log.`,
      {
        endpoint,
        detail: error.message,
        fieldErrors: { [error.field || 'body']: `expected ${error.expected}, got ${error.got}` },
        writeOutcome: outcome('applied'),
      },
    );
  }
  if (isKyError(error, 'HTTPError')) {
    const { response } = error;
    const status = response.status;
    if ((status >= 300 && status < 400) || response.type === 'opaqueredirect') {
      // Only the origin of a Location is ever shown; a raw header that is not a URL is not echoed.
      const location = response.headers.get('Location') ?? undefined;
      let target: string | undefined;
      try {
        target = location ? redact(new URL(location, response.url).origin, call.key) : undefined;
      } catch {
        target = undefined;
      }
      return new ApiError(
        'redirected',
        `The service redirected ${where} to ${target ?? 'another address'}; check the environment's base URL.`,
        { endpoint, status, location: target },
      );
    }
    const text = await response.text().catch(() => '');
    // Redacted after decoding too: a key escaped in the JSON body is plain once parsed.
    const [{ readErrorBody }] = await loadFailureReaders();
    const decoded = readErrorBody(redact(text, call.key), response.headers.get('Content-Type'));
    const body = {
      ...decoded,
      serverMessage: decoded.serverMessage === undefined ? undefined : redact(decoded.serverMessage, call.key),
      fieldErrors:
        decoded.fieldErrors &&
        Object.fromEntries(
          Object.entries(decoded.fieldErrors).map(([field, message]) => [
            redact(field, call.key),
            redact(message, call.key),
          ]),
        ),
    };
    const kind = kindForStatus(status);
    const retryAfterMs =
      kind === 'rateLimited' || status === 503 ? parseRetryAfter(response.headers.get('Retry-After')) : undefined;
    // For the log: the service's words, or the fields it named when it said nothing else.
    const reasons =
      body.serverMessage ??
      (body.fieldErrors &&
        Object.entries(body.fieldErrors)
          .map(([field, message]) => `${field}: ${message}`)
          .join('; '));
    const said = reasons ? `: ${reasons}` : '';
    return new ApiError(kind, `${where} failed with HTTP ${status}${said}`, {
      endpoint,
      status,
      retryAfterMs,
      serverMessage: body.serverMessage,
      fieldErrors: body.fieldErrors,
      scope: kind === 'forbidden' ? (body.scope ?? endpoint.scope) : undefined,
      writeOutcome: outcome(status >= 500 ? 'unknown' : undefined),
    });
  }
  if (isKyError(error, 'TimeoutError') || bodyTimedOut) {
    // A timeout while the body arrived came after a status: a 2xx means it was carried out.
    const applied = bodyTimedOut && call.status !== undefined && call.status < 300;
    return new ApiError('timeout', `${where} did not answer in time.`, {
      endpoint,
      cause: safeCause(error, call.key),
      writeOutcome: outcome(applied ? 'applied' : 'unknown'),
    });
  }
  if (isAbort(error)) return new ApiError('cancelled', `${where} was cancelled.`, { endpoint });
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const detail = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  if (call.readingBody) {
    // The service answered, then the connection ended before the whole body had arrived.
    const applied = call.status !== undefined && call.status < 300;
    return new ApiError(
      'network',
      `${where} answered HTTP ${call.status ?? '?'}, but the answer was cut off before it was complete.`,
      {
        endpoint,
        status: call.status,
        detail: redact(String(detail), call.key),
        cause: safeCause(error, call.key),
        writeOutcome: outcome(applied ? 'applied' : 'unknown'),
      },
    );
  }
  const [, { classifyConnectionFailure }] = await loadFailureReaders();
  const connection = classifyConnectionFailure(error, target);
  const problem = connection ? ` (${connection.problem}, ${connection.code} at ${connection.host})` : '';
  return new ApiError('network', `${where} could not reach the service${redact(problem, call.key)}.`, {
    endpoint,
    detail: redact(String(detail), call.key),
    cause: safeCause(error, call.key),
    connection,
    writeOutcome: outcome(connection?.notSent ? undefined : 'unknown'),
  });
}
