// The one HTTP client of the extension: requests of the contract sent through its ky instance
// (made here: the per-attempt timeout, redirects handed back rather than followed by fetch, no
// cache, retries for GETs only) with the auth header (the key read from a provider at request
// time, which nothing outside the client can reach), a per-request timeout for the answer and
// again for its body, and a log entry per request. Which redirects are followed, and how, is
// decided here (`nextHop`): only within the environment's base URL, never with the key to
// another origin. A failure becomes an `ApiError` (errors.ts). No `vscode` import: it runs in
// the extension host and in a browser.
import type { KyInstance } from 'ky';
import ky, { HTTPError, TimeoutError } from 'ky';
import { LIMITS } from '../core/concurrency';
import { l10n } from '../core/l10n';
import { parseBaseUrl } from '../core/validation';
import type { CallState, Endpoint } from './errors';
import { ApiError, MAX_REDIRECTS, isAbort, logText, parseRetryAfter, redirectRefused, toApiError } from './errors';
import type { ConnectionProblem } from './network';
import { classifyConnectionFailure } from './network';
import type { WriteAnswer } from './readings';
import type { PageAnswer } from './pageLinks';
import { ShapeError, UnreadFields, readWriteAnswer } from './readings';
import { redact, redactKey } from './redact';

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
  /**
   * Fields besides the id that the answer lacked or sent malformed, each named once for the whole
   * answer however many items lacked it (see `UnreadFields`): those items show them as unknown.
   * Then how many items were left out for want of a usable id.
   */
  unknownFields?: string;
}

export interface ClientOptions {
  baseUrl: string;
  /** Read at each request; kept private to the client (no property or method hands it out). */
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
   * Requests in flight at once when reading every page. Default `LIMITS.pages` (32). A whole
   * set of engagements is asked in pages of 1,000 first, where 10,000 engagements are nine
   * requests after the first page, all in flight at once; the limit counts with a service
   * that takes smaller pages: the reference takes at most 100 (and usage records come in
   * pages of 100), where 10,000 are 99 requests after the first, about three more round
   * trips at 32 (measured by `npm run bench` with pages of 100: 16 left the CPU idle between
   * round trips, more gained little).
   */
  concurrency?: number;
  onRequest?: (entry: RequestLog) => void;
  /** The clock a request's `durationMs` in the log is read by, in ms. Default `Date.now` (tests: one they move). */
  now?: () => number;
  fetch?: typeof globalThis.fetch;
  /** Sent as `User-Agent` with every request: the extension and its version (see `userAgent`). */
  userAgent?: string;
  /**
   * Where the page size each service (by base URL) took for reading every engagement is
   * kept beyond one client, so a new client (another environment, a new key) does not ask
   * a size the service already refused. Default: this client only.
   */
  listSizes?: Map<string, number>;
  /**
   * Per base URL: the trailing slash each route of the service wants (see `SlashMemory`),
   * learned from its redirects, so a route costs at most one redirect per window. Kept beyond
   * one client like `listSizes`. Default: this client only.
   */
  slashes?: Map<string, SlashMemory>;
}

/**
 * What one service's routing wants, learned while a window lasts. Routers commonly end a
 * collection with a slash and an item without (`/engagements/` but `/engagements/{id}`), so
 * the slash is learned per route: the endpoint's path template, which list and create share
 * (`/engagements`), as a read and a PATCH of one engagement do (`/engagements/{id}`).
 */
export interface SlashMemory {
  /** By path template: whether the route wants a trailing slash (from a redirect, or a 2xx answer). */
  routes: Map<string, boolean>;
  /** The slash the last redirect taught, on any route: the first try of a read of a route not asked yet. */
  guess?: boolean;
  /**
   * fetch hides where this service's redirects point (a browser's opaque redirect). A write
   * cannot follow such a redirect, so it is never sent to a route whose slash is only guessed:
   * a read of its path learns it first.
   */
  hidden?: boolean;
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
  /**
   * The next page's URL as the service named it (a GET of the list it came from): asked as it
   * is, instead of the endpoint's path and `query`; refused unless it is within the base URL.
   */
  link?: string;
  /**
   * `unread` collects the fields the answer lacks and the items it leaves out (see
   * `parseEngagement`);
   * `answer` is what the answer says besides its body (its headers, the URL that answered).
   */
  parse: (body: unknown, unread: UnreadFields, answer: PageAnswer) => T;
}

export interface WriteInit<T> extends RequestInit<T> {
  /** A field the bare resource always has; see `unwrapSingle`. */
  marker: string;
}

interface Exchange {
  status: number;
  text: string;
  headers: Headers;
  /** The URL that answered (after the redirects followed). */
  url: string;
}

/** Where one request goes: the path for ky, its query, and both as the log shows them. */
interface Address {
  path: string;
  searchParams?: URLSearchParams;
  logPath: string;
  /** A link the service named, asked exactly as it is. */
  url?: string;
}

/** One request as it is sent, redirect after redirect. */
interface Outgoing {
  endpoint: Endpoint;
  address: Address;
  headers: Record<string, string>;
  signal: AbortSignal;
  json: unknown;
  key: string;
}

export class ApiClient {
  readonly baseUrl: string;
  readonly concurrency: number;
  /** The key provider: an ES private field, so no property, method or JSON of the client reaches it. */
  readonly #getKey: KeyProvider;
  readonly #onRequest: ClientOptions['onRequest'];
  readonly #now: () => number;
  readonly #settings: HttpSettings;
  readonly #agent: Record<string, string>;
  readonly #slashes: Map<string, SlashMemory>;
  /** A request of this client got the service's answer (2xx): requests from here reach it. */
  #answered = false;
  #http?: KyInstance;

  constructor(options: ClientOptions) {
    const base = parseBaseUrl(options.baseUrl);
    if (!base.ok) throw new ApiError('invalidRequest', base.message);
    this.baseUrl = base.url;
    this.concurrency = Math.max(1, options.concurrency ?? LIMITS.pages);
    this.#getKey = options.getKey;
    this.#onRequest = options.onRequest;
    this.#now = options.now ?? Date.now;
    this.#settings = {
      baseUrl: base.url,
      timeoutMs: options.timeoutMs ?? 30_000,
      retryLimit: options.retryLimit ?? 2,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 30_000,
      backoffLimitMs: options.backoffLimitMs ?? 5_000,
      fetch: options.fetch,
    };
    this.#agent = options.userAgent ? { 'User-Agent': options.userAgent } : {};
    this.#slashes = options.slashes ?? new Map<string, SlashMemory>();
  }

  /** Sends one request of the contract and returns its checked body. */
  async request<T>(endpoint: Endpoint, init: RequestInit<T>): Promise<T> {
    return this.#exchange(endpoint, init, (answer, unread) =>
      init.parse(parseJson(answer.text), unread, { headers: answer.headers, url: answer.url }),
    );
  }

  /**
   * Sends a request whose answer's body the contract leaves open (a single read, a POST or a
   * PATCH). Any 2xx is returned, whatever its body: the answer says what came back (the
   * resource, or why not), and the caller decides, reading back what it needs after a write.
   */
  async send<T>(endpoint: Endpoint, init: WriteInit<T>): Promise<WriteAnswer<T>> {
    return this.#exchange(endpoint, init, (answer, unread) =>
      readWriteAnswer(
        answer.status,
        answer.text,
        answer.headers,
        (body) => init.parse(body, unread, { headers: answer.headers, url: answer.url }),
        init.marker,
      ),
    );
  }

  async #exchange<T, R>(
    endpoint: Endpoint,
    init: RequestInit<T>,
    read: (answer: Exchange, unread: UnreadFields) => R,
  ): Promise<R> {
    const address = addressOf(endpoint, init, this.baseUrl);
    const started = this.#now();
    const call: CallState = {
      retries: 0,
      readingBody: false,
      answeredBefore: this.#answered,
      extraHeaders: Object.keys(init.headers ?? {}),
    };
    const bodyDeadline = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      if (init.signal?.aborted) throw new ApiError('cancelled', 'The request was cancelled.', { endpoint });
      const { response, url } = await this.#send(endpoint, init, address, call, bodyDeadline.signal);
      this.#answered = true;
      call.status = response.status;
      timer = setTimeout(() => bodyDeadline.abort(), this.#settings.timeoutMs);
      call.readingBody = true;
      // Nothing the service answers reaches a reader with the key in it: what is shown,
      // exported or given to a model is read from this text.
      const signal = init.signal ? AbortSignal.any([init.signal, bodyDeadline.signal]) : bodyDeadline.signal;
      const text = redactKey(await readBody(response, endpoint, call, signal), call.key);
      call.readingBody = false;
      const unread = new UnreadFields();
      const result = read({ status: response.status, text, headers: response.headers, url }, unread);
      const unreadable = (result as { unreadable?: string }).unreadable;
      const note = unreadable ? `answered without a usable body (${unreadable})` : undefined;
      this.#log(endpoint, address.logPath, started, call, 'ok', note, unread.summary());
      return result;
    } catch (error) {
      const bodyTimedOut = bodyDeadline.signal.aborted && !init.signal?.aborted;
      const target = `${this.baseUrl}/${address.path}`;
      const apiError = await toApiError(error, endpoint, call, bodyTimedOut, target);
      const message = logText(apiError);
      const logged = { ...call, status: apiError.status ?? call.status };
      this.#log(endpoint, address.logPath, started, logged, apiError.kind, message);
      throw apiError;
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /**
   * Reads the key and sends the request, following the redirects `nextHop` allows; the
   * response is returned before its body is read.
   */
  async #send<T>(
    endpoint: Endpoint,
    init: RequestInit<T>,
    address: Address,
    call: CallState,
    bodyDeadline: AbortSignal,
  ): Promise<{ response: Response; url: string }> {
    // The key is read at request time (a replaced key takes effect at once); retries reuse it.
    // Plain headers and the instance's hooks: per-request hooks cost a merge on every call.
    const key = (await this.#getKey())?.trim();
    if (!key) throw new ApiError('unauthorized', 'No API key is stored for this environment.', { endpoint });
    call.key = key;
    const headers = { ...init.headers, ...this.#agent, Authorization: `Bearer ${key}`, Accept: 'application/json' };
    const signal = init.signal ? AbortSignal.any([init.signal, bodyDeadline]) : bodyDeadline;
    const request: Outgoing = { endpoint, address, headers, signal, json: init.json, key };
    const memory = this.#memory();
    if (endpoint.method !== 'GET' && memory.hidden && !memory.routes.has(endpoint.path))
      await this.#learnRoute(request);
    return this.#follow(request, call);
  }

  /**
   * A write in a host that hides redirects, to a route no answer has shown the slash of: a GET
   * of its path (no query) learns the slash first, as a read would, so the write goes straight
   * to the route's form. Whatever that read meets, the write is sent next and says it.
   */
  async #learnRoute(request: Outgoing): Promise<void> {
    const read: Outgoing = {
      ...request,
      endpoint: { ...request.endpoint, method: 'GET' },
      address: { ...request.address, searchParams: undefined },
      json: undefined,
    };
    try {
      const { response } = await this.#follow(read, { retries: 0, readingBody: false });
      await response.body?.cancel();
    } catch (error) {
      if (request.signal.aborted) throw error;
    }
  }

  /** Sends one request and follows the redirects `nextHop` allows, learning its route's slash. */
  async #follow(request: Outgoing, call: CallState): Promise<{ response: Response; url: string }> {
    const { endpoint, address, key } = request;
    const http = (this.#http ??= createHttp(this.#settings));
    const memory = this.#memory();
    const route = endpoint.path;
    const context = { endpoint, asked: address.logPath, baseUrl: this.baseUrl, key };
    let hop: Hop = {
      url: address.url ?? this.#urlOf(endpoint, address),
      method: endpoint.method,
      count: 0,
      slashResent: false,
    };
    for (;;) {
      const method = hop.method;
      const response = await http(hop.url, {
        method,
        json: method === 'GET' ? undefined : request.json,
        signal: request.signal,
        headers: request.headers,
        context: { call },
      }).catch((error: unknown) => {
        if (!(error instanceof HTTPError)) throw error;
        if (isRedirect(error.response)) return error.response;
        // No such path with the slash changed: the redirect was not the routing's, and stays hidden.
        if (hop.guessed && (error.response.status === 404 || error.response.status === 405))
          redirectRefused({ ...context, reason: 'hidden', status: 0, target: undefined, write: false });
        throw error;
      });
      if (!isRedirect(response)) {
        // Answered: a path sent as asked, or with the slash a guess changed, is that route's form.
        if (hop.guessed) memory.guess = hop.slash === true;
        if (hop.count === 0 || hop.guessed) memory.routes.set(route, new URL(hop.url).pathname.endsWith('/'));
        return { response, url: hop.url };
      }
      if (response.type === 'opaqueredirect') memory.hidden = true;
      const next = nextHop(response, hop, context);
      if ('answer' in next) return { response: next.answer, url: hop.url };
      if (next.slash !== undefined && !next.guessed) {
        memory.routes.set(route, next.slash);
        memory.guess = next.slash;
      }
      hop = next;
    }
  }

  /** What this client's service has shown of its routing, kept for the window (`slashes`). */
  #memory(): SlashMemory {
    let memory = this.#slashes.get(this.baseUrl);
    if (!memory) this.#slashes.set(this.baseUrl, (memory = { routes: new Map<string, boolean>() }));
    return memory;
  }

  /**
   * The absolute URL of a request, its path in the form its route wants (trailing slash or
   * not). A route not learned yet is tried the way the last redirect taught, except a write
   * where redirects are hidden: that goes as the contract writes it.
   */
  #urlOf(endpoint: Endpoint, address: Address): string {
    const memory = this.#memory();
    const guess = endpoint.method !== 'GET' && memory.hidden ? false : memory.guess;
    const slash = (memory.routes.get(endpoint.path) ?? guess) === true ? '/' : '';
    const query = address.searchParams ? `?${address.searchParams.toString()}` : '';
    return `${this.baseUrl}/${address.path}${slash}${query}`;
  }

  #log(
    endpoint: Endpoint,
    path: string,
    started: number,
    call: CallState,
    outcome: string,
    message?: string,
    unknownFields?: string,
  ): void {
    this.#onRequest?.({
      method: endpoint.method,
      path,
      scope: endpoint.scope,
      status: call.status,
      durationMs: this.#now() - started,
      retries: call.retries,
      outcome,
      message: message === undefined ? undefined : redact(message, call.key),
      ...(unknownFields === undefined ? {} : { unknownFields: redact(unknownFields, call.key) }),
    });
  }
}

function addressOf(endpoint: Endpoint, init: RequestInit<unknown>, baseUrl: string): Address {
  if (init.link !== undefined) return linkAddress(endpoint, init.link, baseUrl);
  const path = buildPath(endpoint.path, init.params ?? {});
  const searchParams = new URLSearchParams();
  for (const [name, value] of Object.entries(init.query ?? {}))
    if (value !== undefined) searchParams.set(name, String(value));
  const query = searchParams.toString();
  return { path, searchParams: query ? searchParams : undefined, logPath: `/${path}${query ? `?${query}` : ''}` };
}

/**
 * A next page's link, asked as the service wrote it, when it is within the base URL (the same
 * origin, under its path, no credentials): a link elsewhere is refused as a redirect elsewhere
 * is, and the key is not sent there.
 */
function linkAddress(endpoint: Endpoint, link: string, baseUrl: string): Address {
  let url: URL | undefined;
  try {
    url = new URL(link);
  } catch {
    url = undefined;
  }
  if (!url || !withinBase(url, baseUrl))
    throw new ApiError(
      'redirected',
      `The service named its next page at ${link}, outside the environment's base URL; the key was not sent there.`,
      { endpoint, location: link, redirect: 'elsewhere' },
    );
  const base = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const path = url.pathname.slice(base.length).replace(/^\//, '');
  return { path, searchParams: url.searchParams, logPath: `/${path}${url.search}`, url: url.href };
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

// Redirects. fetch hands every redirect back (`redirect: 'manual'`), as a 3xx with its
// Location or, where fetch hides it, as an `opaqueredirect` with neither; this decides what
// each one means. The key follows only within the environment's base URL (same origin, under
// its path): anywhere else is refused, and a write is never sent to a new address but for a
// trailing slash, the routing of a framework, which no framework answers after processing.
/** One request's way through the redirects it met: where it goes next, and how. */
interface Hop {
  url: string;
  method: Endpoint['method'];
  /** Redirects followed so far. */
  count: number;
  /** A write already sent again once to its path with the slash changed. */
  slashResent: boolean;
  /** The slash the service wants, when this redirect told it. */
  slash?: boolean;
  /** The slash changed on a guess (a redirect the browser hid): learned only if it is answered. */
  guessed?: boolean;
}

interface RedirectContext {
  endpoint: Endpoint;
  /** The path and query asked, as the log shows them. */
  asked: string;
  baseUrl: string;
  key: string;
}

function isRedirect(response: Response): boolean {
  return (response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect';
}

/** Where a Location points, resolved against the URL asked; undefined when there is none or it is no URL. */
function targetOf(response: Response, asked: string): URL | undefined {
  const location = response.headers.get('Location');
  if (!location) return undefined;
  try {
    return new URL(location, asked);
  } catch {
    return undefined;
  }
}

/** The same origin, no credentials in it, and the base URL's path or below it. */
function withinBase(target: URL, baseUrl: string): boolean {
  const base = new URL(baseUrl);
  const path = base.pathname.replace(/\/+$/, '');
  return (
    target.origin === base.origin &&
    !target.username &&
    !target.password &&
    (target.pathname === path || target.pathname.startsWith(`${path}/`))
  );
}

/** The target is the URL asked with only a trailing slash added or removed: undefined if not, else whether it has the slash. */
function slashOnly(target: URL, asked: string): boolean | undefined {
  const from = new URL(asked);
  if (target.origin !== from.origin || target.search !== from.search) return undefined;
  if (target.pathname === `${from.pathname}/`) return true;
  if (`${target.pathname}/` === from.pathname) return false;
  return undefined;
}

/**
 * What to do with a redirect: the next hop (the same request to the new address), an answer
 * for the caller (a write's 303: it was processed, and its Location names the result), or a
 * refusal thrown. A GET follows any redirect within the base URL, up to `MAX_REDIRECTS`; a
 * write only a 301/302/307/308 adding or removing a trailing slash, once, with its body.
 */
function nextHop(response: Response, hop: Hop, context: RedirectContext): Hop | { answer: Response } {
  const target = targetOf(response, hop.url);
  const write = hop.method !== 'GET';
  const refuse = (reason: Parameters<typeof redirectRefused>[0]['reason']) =>
    redirectRefused({ ...context, reason, status: response.status, target: target?.href, write });
  if (!target) {
    // A browser hides where a redirect points (an opaque redirect). The redirect frameworks
    // answer for their routing alone adds or drops a trailing slash: a GET tries its path so
    // changed, once. That stays inside the base URL, so the key goes nowhere else.
    if (response.type === 'opaqueredirect' && !write && !hop.guessed && hop.count < MAX_REDIRECTS) {
      const url = new URL(hop.url);
      const slash = !url.pathname.endsWith('/');
      url.pathname = slash ? `${url.pathname}/` : url.pathname.replace(/\/+$/, '');
      return { ...hop, url: url.href, count: hop.count + 1, slash, guessed: true };
    }
    return refuse(write && response.type === 'opaqueredirect' ? 'hiddenWrite' : 'hidden');
  }
  if (!withinBase(target, context.baseUrl)) return refuse('elsewhere');
  if (hop.count >= MAX_REDIRECTS) return refuse('tooMany');
  const slash = slashOnly(target, hop.url);
  const next = { url: target.href, method: hop.method, count: hop.count + 1, slashResent: hop.slashResent, slash };
  if (!write) return next;
  if (response.status === 303) {
    // Processed; the result is what the Location names: read back as a 201 with a Location is.
    const headers = new Headers({ Location: target.href });
    const date = response.headers.get('Date');
    if (date) headers.set('Date', date);
    return { answer: new Response(null, { status: 303, headers }) };
  }
  if (slash !== undefined && !hop.slashResent && [301, 302, 307, 308].includes(response.status))
    return { ...next, slashResent: true };
  return refuse('write');
}

/**
 * The most bytes one answer's body may hold: 64 MiB. No answer of this service comes near it (a
 * page of 1,000 engagements with long descriptions is a few MB; 100,000 engagements sent whole
 * by a framework that does not page, about 40 MB); an answer past it is an endless or runaway
 * stream, cut there rather than read into memory.
 */
export const MAX_BODY_BYTES = 64 * 2 ** 20;

/**
 * The body as text, read chunk by chunk and given up past `MAX_BODY_BYTES` (what was read is
 * dropped, the connection closed). Its time is bounded by `signal` (the body's deadline, or the
 * caller's cancel): a fetch whose abort does not reach a body already streaming (a fast endless
 * one kept coming) is stopped here, between two chunks.
 */
async function readBody(response: Response, endpoint: Endpoint, call: CallState, signal: AbortSignal): Promise<string> {
  const tooLarge = async (stop: () => Promise<void>) => {
    await stop().catch(() => undefined);
    const write = endpoint.method !== 'GET';
    return new ApiError(
      'badResponse',
      `The answer to ${endpoint.method} ${endpoint.path} was larger than ${MAX_BODY_BYTES / 2 ** 20} MB; it was not read further.`,
      {
        endpoint,
        status: call.status,
        tooLargeMb: MAX_BODY_BYTES / 2 ** 20,
        writeOutcome: write ? (response.ok ? 'applied' : 'unknown') : undefined,
      },
    );
  };
  const declared = Number(response.headers.get('Content-Length') ?? Number.NaN);
  if (declared > MAX_BODY_BYTES) throw await tooLarge(() => response.body?.cancel() ?? Promise.resolve());
  if (!response.body) return response.text();
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  let chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        chunks = [];
        throw await tooLarge(() => reader.cancel());
      }
      chunks.push(value);
    }
  } catch (error) {
    chunks = [];
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  // Decoded whole: a character split between two chunks is read right.
  const decoder = new TextDecoder();
  return chunks.map((chunk, i) => decoder.decode(chunk, { stream: i < chunks.length - 1 })).join('');
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

// The ky instance of one client: the per-attempt timeout, redirects handed back, no cache,
// retries for GETs only (backoff, Retry-After up to a bound, never a lasting connection
// problem) and the hook that counts retries for the log.
export interface HttpSettings {
  baseUrl: string;
  timeoutMs: number;
  retryLimit: number;
  maxRetryAfterMs: number;
  backoffLimitMs: number;
  fetch?: typeof globalThis.fetch;
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
  'headersRefused',
]);

/** Makes the ky instance of a client. */
function createHttp(settings: HttpSettings): KyInstance {
  return ky.create({
    timeout: settings.timeoutMs,
    // fetch follows no redirect: the client decides (`nextHop`), so the key never travels to another address.
    redirect: 'manual',
    credentials: 'omit',
    // Never from a cache (Node's RequestInit types lack `cache`; fetch implementations that cache honour it).
    ...({ cache: 'no-store' } as object),
    fetch: settings.fetch,
    retry: {
      limit: settings.retryLimit,
      methods: ['get'],
      statusCodes: RETRY_STATUS,
      afterStatusCodes: [429, 503],
      maxRetryAfter: settings.maxRetryAfterMs,
      backoffLimit: settings.backoffLimitMs,
      delay: (attempt) => 250 * 2 ** (attempt - 1),
      jitter: (delay) => delay * (0.5 + Math.random() * 0.5),
      shouldRetry: ({ error }) => shouldRetry(error, settings),
    },
    // Set once here, not per request: ky merges per-request hooks on every call.
    hooks: {
      beforeRetry: [
        ({ options, retryCount }) => {
          (options.context as { call?: { retries: number } }).call!.retries = retryCount;
        },
      ],
    },
  });
}

function shouldRetry(error: Error, settings: HttpSettings): boolean | undefined {
  if (error instanceof HTTPError) {
    if (!RETRY_STATUS.includes(error.response.status)) return false;
    const wait = parseRetryAfter(error.response.headers.get('Retry-After'));
    return wait !== undefined && wait > settings.maxRetryAfterMs ? false : undefined;
  }
  if (error instanceof TimeoutError || error instanceof ApiError || isAbort(error)) return false;
  if (!(error instanceof TypeError)) return false;
  const connection = classifyConnectionFailure(error, settings.baseUrl);
  return !(connection && LASTING.has(connection.problem));
}
