// A failed request made an `ApiError`: what the user is told (its kind and message), what the
// log may keep (redacted), and whether a write was carried out (`writeOutcome`). The key is
// redacted from everything taken from the failure: the service's words, a redirect's target,
// a connection error's text.
import { HTTPError, TimeoutError } from 'ky';
import { ApiError, kindForStatus, parseRetryAfter, type Endpoint, type WriteOutcome } from './errors';
import { type ErrorBodyInfo, readErrorBody } from './errorBodies';
import { isAbort } from './http';
import { classifyConnectionFailure } from './network';
import { redact } from './redact';
import { ShapeError } from './validate';

/** What a request had got to when it failed. */
export interface CallState {
  retries: number;
  key?: string;
  status?: number;
  readingBody: boolean;
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
  if (error instanceof HTTPError) {
    const status = error.response.status;
    if ((status >= 300 && status < 400) || error.response.type === 'opaqueredirect')
      return redirectFailure(error, failure);
    return statusFailure(error, failure);
  }
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

function redirectFailure(error: HTTPError, { endpoint, where, call }: Failure): ApiError {
  const { response } = error;
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
    { endpoint, status: response.status, location: target },
  );
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
  const connection = classifyConnectionFailure(error, target);
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
