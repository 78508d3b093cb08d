// The ky instance of one client: the base URL, the per-attempt timeout, no redirects, no
// cache, retries for GETs only (backoff, Retry-After up to a bound, never a lasting
// connection problem) and the hook that counts retries for the log.
import ky, { HTTPError, type KyInstance, TimeoutError } from 'ky';
import { ApiError, parseRetryAfter } from './errors';
import { classifyConnectionFailure, type ConnectionProblem } from './network';

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
]);

/** Makes the ky instance of a client. */
export function createHttp(settings: HttpSettings): KyInstance {
  return ky.create({
    prefixUrl: settings.baseUrl,
    timeout: settings.timeoutMs,
    // A redirect is reported, never followed: the key must not travel to another address.
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

export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || (error as { code?: string }).code === 'ABORT_ERR');
}
