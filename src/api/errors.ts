// `ApiError`, the one failure the client throws, and how a failed request becomes one: what
// the user is told (its kind and message), what the log may keep (redacted), and whether a
// write was carried out (`writeOutcome`).
import { HTTPError, TimeoutError } from 'ky';
import type { ErrorBodyInfo } from './errorBodies';
import { readErrorBody } from './errorBodies';
import type { ConnectionFailure } from './network';
import { classifyConnectionFailure } from './network';
import { redact } from './redact';
import type { Scope } from './types';
import { ShapeError } from './readings';

/** Every failure of a call to the service becomes one of these kinds. */
export type ApiErrorKind =
  | 'unauthorized' // 401, or no key stored
  | 'forbidden' // 403: the key lacks the endpoint's scope
  | 'notFound' // 404
  | 'invalidRequest' // 400 / 422, or input refused before sending
  | 'conflict' // 409 / 412
  | 'rateLimited' // 429
  | 'server' // 5xx
  | 'redirected' // 3xx not followed: to another origin, hidden, too many, or a write moved
  | 'network' // no answer: DNS, refused, reset, dropped
  | 'timeout'
  | 'cancelled'
  | 'badResponse' // an answer the contract does not describe
  | 'otherPeriod'; // a usage answer naming another billing period than the one asked

export interface Endpoint {
  method: 'GET' | 'POST' | 'PATCH';
  /** Path template relative to the base URL, e.g. `/engagements/{id}`. */
  path: string;
  scope: Scope;
}

/**
 * What a failed POST or PATCH means for the data: `applied` when the service said it was
 * carried out (a 2xx) but its result could not be read; `unknown` when it may or may not
 * have been (a timeout, a cut connection, a 5xx). Absent when it certainly was not.
 */
export type WriteOutcome = 'applied' | 'unknown';

export interface ApiErrorDetails {
  endpoint?: Endpoint;
  status?: number;
  /** The scope the endpoint needs (for `forbidden`). */
  scope?: Scope;
  /** For `rateLimited`: how long the service asked to wait, when it said. */
  retryAfterMs?: number;
  /** The service's own words, when its body had any. */
  serverMessage?: string;
  /** Per-field messages from a 400/422 body, or the field a bad response got wrong. */
  fieldErrors?: Record<string, string>;
  /** For `redirected`: where the service pointed, in full (the key redacted). */
  location?: string;
  /** For `otherPeriod`: the billing period asked for and the one the answer named. */
  period?: { asked: string; answered: string };
  /** For `redirected`: the method and the path with its query asked, as `GET /engagements?page=1`. */
  requested?: string;
  /** For `redirected`: why it was not followed. */
  redirect?: RedirectRefusal;
  /** Technical detail for the log (never shown as the message). */
  detail?: string;
  /** For `badResponse`: the answer's body was larger than this many MB, and was not read further. */
  tooLargeMb?: number;
  writeOutcome?: WriteOutcome;
  /** For `network`: what went wrong with the connection, when the code says (see network.ts). */
  connection?: ConnectionFailure;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly endpoint?: Endpoint;
  readonly status?: number;
  readonly scope?: Scope;
  readonly retryAfterMs?: number;
  readonly serverMessage?: string;
  readonly fieldErrors?: Record<string, string>;
  readonly location?: string;
  readonly period?: { asked: string; answered: string };
  readonly requested?: string;
  readonly redirect?: RedirectRefusal;
  readonly detail?: string;
  readonly tooLargeMb?: number;
  readonly writeOutcome?: WriteOutcome;
  readonly connection?: ConnectionFailure;

  constructor(kind: ApiErrorKind, message: string, details: ApiErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    this.endpoint = details.endpoint;
    this.status = details.status;
    this.scope = details.scope ?? (kind === 'forbidden' ? details.endpoint?.scope : undefined);
    this.retryAfterMs = details.retryAfterMs;
    this.serverMessage = details.serverMessage;
    this.fieldErrors = details.fieldErrors;
    this.location = details.location;
    this.period = details.period;
    this.requested = details.requested;
    this.redirect = details.redirect;
    this.detail = details.detail;
    this.tooLargeMb = details.tooLargeMb;
    this.writeOutcome = details.writeOutcome;
    this.connection = details.connection;
  }

  /** GETs that failed this way may succeed if tried again later. */
  get transient(): boolean {
    if (this.connection && !TRANSIENT_CONNECTION.has(this.connection.problem)) return false;
    return ['rateLimited', 'server', 'network', 'timeout'].includes(this.kind);
  }
}

/** Connection problems that may pass by themselves; a certificate or a proxy's refusal does not. */
const TRANSIENT_CONNECTION = new Set<ConnectionFailure['problem']>([
  'connectionRefused',
  'hostUnreachable',
  'connectTimeout',
  'connectionDropped',
  'nameNotFound',
  'proxyUnreachable',
  'other',
]);

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export function kindForStatus(status: number): ApiErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'notFound';
  if (status === 409 || status === 412) return 'conflict';
  if (status === 429) return 'rateLimited';
  if (status >= 500) return 'server';
  if (status >= 300 && status < 400) return 'redirected';
  return 'invalidRequest';
}

/**
 * An error as the log writes it: what people are told, with the details it promised them the
 * log holds in place of that promise ("…does not understand: results[0].id: expected …").
 */
export function logText(error: Error): string {
  const detail = (error as { detail?: unknown }).detail;
  if (typeof detail !== 'string' || detail === '') return error.message;
  const said = error.message.replace(/[;.]\s*[Dd]etails are in the log\.?$/, '');
  return said === error.message ? `${error.message} (${detail})` : `${said}: ${detail}`;
}

/** Parses a Retry-After header (seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

// Error bodies of every form (the contract defines none) are read in one place: `errorBodies.ts`,
// loaded by the client with the first failure.

// A failed request made an `ApiError`: what the user is told (its kind and message), what the
// log may keep (redacted), and whether a write was carried out (`writeOutcome`). The key is
// redacted from everything taken from the failure: the service's words, a redirect's target,
// a connection error's text.
/** What a request had got to when it failed. */
export interface CallState {
  retries: number;
  key?: string;
  status?: number;
  readingBody: boolean;
  /** The service answered an earlier request of this client (reads get through). */
  answeredBefore?: boolean;
  /** The headers this request carries beyond those of every request (a write's conditions). */
  extraHeaders?: string[];
}

interface Failure {
  endpoint: Endpoint;
  call: CallState;
  /** `METHOD /path` as the contract writes it, for messages. */
  where: string;
  /** The write outcome, for writes only (a GET has none). */
  outcome: (value: WriteOutcome | undefined) => WriteOutcome | undefined;
}

/** The `ApiError` for whatever a request threw; `target` is the URL it was sent to. */
export async function toApiError(
  error: unknown,
  endpoint: Endpoint,
  call: CallState,
  bodyTimedOut: boolean,
  target: string,
): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  const write = endpoint.method !== 'GET';
  const failure: Failure = {
    endpoint,
    call,
    where: `${endpoint.method} ${endpoint.path}`,
    outcome: (value) => (write ? value : undefined),
  };
  if (error instanceof ShapeError) return shapeFailure(error, failure);
  if (error instanceof HTTPError) return statusFailure(error, failure);
  if (error instanceof TimeoutError || bodyTimedOut) return timeoutFailure(error, bodyTimedOut, failure);
  if (isAbort(error)) return new ApiError('cancelled', `${failure.where} was cancelled.`, { endpoint });
  if (call.readingBody) return cutOffFailure(error, failure);
  return connectionFailure(error, target, failure);
}

function shapeFailure(error: ShapeError, { endpoint, where, outcome }: Failure): ApiError {
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

/** How many redirects within the base URL one request follows before giving up. */
export const MAX_REDIRECTS = 5;

/** Why a redirect was not followed (the client's `nextHop` decides). */
export type RedirectRefusal =
  /** To another origin, or outside the base URL's path: the key is never sent there. */
  | 'elsewhere'
  /** fetch hid the target (an `opaqueredirect`), or the Location is missing or no URL. */
  | 'hidden'
  /**
   * A write redirected where fetch hides the target (a browser): most likely its route's
   * trailing slash, not known yet; a write is never sent again to a guessed address.
   */
  | 'hiddenWrite'
  /** More than `MAX_REDIRECTS` redirects within the base URL. */
  | 'tooMany'
  /** A write moved within the base URL by more than a trailing slash: not sent again blindly. */
  | 'write';

/**
 * The `ApiError` of a redirect not followed, thrown by the client. It names what was asked and
 * the whole target (the key redacted; a Location that is no URL is never echoed). A write's
 * outcome is unknown: a service may redirect after processing, so it is checked, not re-sent.
 */
export function redirectRefused(refusal: {
  reason: RedirectRefusal;
  endpoint: Endpoint;
  asked: string;
  status: number;
  target: string | undefined;
  write: boolean;
  key: string;
}): never {
  const { reason, endpoint, status, write, key } = refusal;
  const requested = redact(`${endpoint.method} ${refusal.asked}`, key);
  const target = refusal.target === undefined ? undefined : redact(refusal.target, key);
  const to = target ?? 'an address it did not show';
  const said = {
    elsewhere: `The service redirected ${requested} to ${to}, outside the environment's base URL; the key was not sent there.`,
    hidden: `The service redirected ${requested} to ${to}; the key was not sent there.`,
    hiddenWrite: `The service redirected ${requested} to an address the browser does not show, most likely to add or remove a trailing slash; the write was not sent there.`,
    tooMany: `The service redirected ${requested} more than ${MAX_REDIRECTS} times (last to ${to}); check the environment's base URL.`,
    write: `The service redirected ${requested} to ${to} (HTTP ${status}); the write was not sent there again.`,
  }[reason];
  throw new ApiError('redirected', write ? `${said} Whether it was made is not known.` : said, {
    endpoint,
    status: status || undefined,
    location: target,
    requested,
    redirect: reason,
    writeOutcome: write ? 'unknown' : undefined,
  });
}

/** An HTTP error status: its kind, and the service's words read from the body (never the body itself). */
async function statusFailure(error: HTTPError, { endpoint, where, call, outcome }: Failure): Promise<ApiError> {
  const { response } = error;
  const status = response.status;
  const text = await response.text().catch(() => '');
  // Redacted after decoding too: a key escaped in the JSON body is plain once parsed.
  const body = redactBody(readErrorBody(redact(text, call.key), response.headers.get('Content-Type')), call.key);
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

function redactBody(decoded: ErrorBodyInfo, key: string | undefined): ErrorBodyInfo {
  return {
    ...decoded,
    serverMessage: decoded.serverMessage === undefined ? undefined : redact(decoded.serverMessage, key),
    fieldErrors:
      decoded.fieldErrors &&
      Object.fromEntries(
        Object.entries(decoded.fieldErrors).map(([field, message]) => [redact(field, key), redact(message, key)]),
      ),
  };
}

function timeoutFailure(error: unknown, bodyTimedOut: boolean, { endpoint, where, call, outcome }: Failure): ApiError {
  // A timeout while the body arrived came after a status: a 2xx means it was carried out.
  const applied = bodyTimedOut && call.status !== undefined && call.status < 300;
  return new ApiError('timeout', `${where} did not answer in time.`, {
    endpoint,
    cause: safeCause(error, call.key),
    writeOutcome: outcome(applied ? 'applied' : 'unknown'),
  });
}

/** The service answered, then the connection ended before the whole body had arrived. */
function cutOffFailure(error: unknown, { endpoint, where, call, outcome }: Failure): ApiError {
  const applied = call.status !== undefined && call.status < 300;
  return new ApiError(
    'network',
    `${where} answered HTTP ${call.status ?? '?'}, but the answer was cut off before it was complete.`,
    {
      endpoint,
      status: call.status,
      detail: redact(String(detailOf(error)), call.key),
      cause: safeCause(error, call.key),
      writeOutcome: outcome(applied ? 'applied' : 'unknown'),
    },
  );
}

function connectionFailure(error: unknown, target: string, failure: Failure): ApiError {
  const { endpoint, where, call, outcome } = failure;
  let connection = classifyConnectionFailure(error, target);
  // A browser's bare failure of a write with conditional headers, from a service that answered
  // before: what differs from the requests that got through is most likely those headers.
  if (
    connection?.problem === 'refusedByBrowser' &&
    endpoint.method !== 'GET' &&
    call.answeredBefore &&
    call.extraHeaders?.length
  )
    connection = { ...connection, problem: 'headersRefused', headers: call.extraHeaders };
  const problem = connection ? ` (${connection.problem}, ${connection.code} at ${connection.host})` : '';
  return new ApiError('network', `${where} could not reach the service${redact(problem, call.key)}.`, {
    endpoint,
    detail: redact(String(detailOf(error)), call.key),
    cause: safeCause(error, call.key),
    connection,
    writeOutcome: outcome(connection?.notSent ? undefined : 'unknown'),
  });
}

/** A network error's code (`ECONNRESET`), else its message. */
function detailOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
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

/**
 * The same request would fail the same way whatever is typed: a browser refuses the headers
 * it carries. Neither Retry nor Edit is offered for it.
 */
export function failsAgain(error: unknown): boolean {
  return error instanceof ApiError && error.connection?.problem === 'headersRefused';
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || (error as { code?: string }).code === 'ABORT_ERR');
}
