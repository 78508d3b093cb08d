import type { ConnectionFailure } from './network';
import type { Scope } from './types';

/** Every failure of a call to the service becomes one of these kinds. */
export type ApiErrorKind =
  | 'unauthorized' // 401, or no key stored
  | 'forbidden' // 403: the key lacks the endpoint's scope
  | 'notFound' // 404
  | 'invalidRequest' // 400 / 422, or input refused before sending
  | 'conflict' // 409 / 412
  | 'rateLimited' // 429
  | 'server' // 5xx
  | 'redirected' // 3xx: the base URL points somewhere else
  | 'network' // no answer: DNS, refused, reset, dropped
  | 'timeout'
  | 'cancelled'
  | 'badResponse'; // an answer the contract does not describe

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
  /** For `redirected`: where the service pointed. */
  location?: string;
  /** Technical detail for the log (never shown as the message). */
  detail?: string;
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
  readonly detail?: string;
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
    this.detail = details.detail;
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
