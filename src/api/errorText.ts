// The words a person reads for each failure: ours first, saying what to do, then the
// service's own reason when it gave one; for a connection that could not be made, what went
// wrong and what fixes it. Free of `vscode` (the chat tools and the MCP server say the same
// words). Never the key: the client's messages are redacted.
import type { ApiError, ApiErrorKind } from './errors';
import { isApiError } from './errors';
import type { ConnectionFailure, ConnectionProblem } from './network';
import { currentLocale, l10n } from '../core/l10n';

/**
 * Who reads the words: a person in VS Code, or an agent (and its user) outside VS Code, where
 * no view, log channel or VS Code setting exists (the MCP server's environment variables do).
 */
export type Place = 'vscode' | 'agent';

/** Words for the user, by kind. Never contains the key (the client's messages are redacted). */
export function describeError(error: unknown, environmentLabel?: string, place: Place = 'vscode'): string {
  if (!isApiError(error)) return error instanceof Error ? error.message : String(error);
  const env = environmentLabel ?? l10n.t('the active environment');
  return WORDS[error.kind](error, env, place);
}

/**
 * The service's own reason, said beside ours (after a 401, a 403, a conflict): “The service
 * said: “The API key has expired”.” Undefined when its answer gave none.
 */
export function serviceReason(error: unknown): string | undefined {
  if (!isApiError(error) || error.status === undefined || !error.serverMessage) return undefined;
  return l10n.t('The service said: “{0}”.', error.serverMessage.replace(/\.\s*$/, ''));
}

/** Ours first (it says what to do), then the service's reason when it gave one. */
function withReason(ours: string, error: unknown): string {
  const reason = serviceReason(error);
  return reason ? `${ours} ${reason}` : ours;
}

/**
 * Why a 400/422 was refused: the service's message, then the fields it named (those its
 * message does not already say), e.g. “One or more validation errors occurred (name: too long;
 * type: unknown)”.
 */
function refusalReasons(error: ApiError): string {
  const said = (error.serverMessage ?? (error.status === undefined ? error.message : '')).trim();
  const fields = Object.entries(error.fieldErrors ?? {})
    .filter(([, message]) => !says(said, message))
    .map(([field, message]) => `${field}: ${message}`)
    .join('; ');
  if (said && fields) return `${said.replace(/\.\s*$/, '')} (${fields})`;
  return said || fields || `HTTP ${error.status ?? '?'}`;
}

/** Whether `text` says `words` whole: not inside a longer word ("oddest" does not say "odd"). */
function says(text: string, words: string): boolean {
  for (let at = text.indexOf(words); at >= 0; at = text.indexOf(words, at + 1)) {
    const before = text.slice(0, at);
    const after = text.slice(at + words.length);
    if (!/[\p{L}\p{N}_]$/u.test(before) && !/^[\p{L}\p{N}_]/u.test(after)) return true;
  }
  return false;
}

/** The words for one kind, from the error, the environment's label and who reads them. */
type Words = (error: ApiError, env: string, place: Place) => string;

/** The key, its scopes, and where it may be sent. */
const ACCESS: Record<'unauthorized' | 'forbidden' | 'redirected', Words> = {
  unauthorized: (error, env) =>
    error.status === undefined
      ? l10n.t('No API key is stored for {0} on this machine.', env)
      : withReason(l10n.t('The service rejected the API key of {0} (401). Replace the key.', env), error),
  forbidden: (error, env) =>
    withReason(
      l10n.t('The API key of {0} lacks the {1} scope this needs.', env, error.scope ?? error.endpoint?.scope ?? '?'),
      error,
    ),
  redirected: (error, env) => {
    const asked = error.requested ?? error.endpoint?.method ?? '?';
    const target = error.location ?? l10n.t('an address it did not show');
    if (error.redirect === 'write')
      return l10n.t(
        'The service redirected {0} to {1} instead of answering; it was not sent there again.',
        asked,
        target,
      );
    // The browser hides where a write was sent, and the route's slash was not known yet: what
    // teaches it is a read of the same route (the check after this failure makes one).
    if (error.redirect === 'hiddenWrite')
      return error.endpoint?.path.includes('{id}')
        ? l10n.t(
            'The service redirected {0}, most likely to add or remove a trailing slash; the browser hides where to, so it was not sent again. Reading the engagement teaches the extension the form the service wants.',
            asked,
          )
        : l10n.t(
            'The service redirected {0}, most likely to add or remove a trailing slash; the browser hides where to, so it was not sent again. Reading the engagements list teaches the extension the form the service wants.',
            asked,
          );
    if (error.redirect === 'tooMany')
      return l10n.t(
        'The service redirected {0} too many times (last to {1}); check the base URL of {2}.',
        asked,
        target,
        env,
      );
    return l10n.t(
      'The service redirected {0} to {1}. The key was not sent there; check the base URL of {2}.',
      asked,
      target,
      env,
    );
  },
};

/** The service answered and refused the request as it was. */
const REFUSED: Record<'notFound' | 'invalidRequest' | 'conflict' | 'rateLimited', Words> = {
  notFound: (error, _env, place) =>
    error.endpoint?.path.includes('{id}')
      ? place === 'agent'
        ? l10n.t('That engagement does not exist (404).')
        : l10n.t('That engagement no longer exists (404). Refresh the view.')
      : l10n.t('The service does not know this address (404). Check the base URL.'),
  invalidRequest: (error) => l10n.t('The request was refused: {0}', refusalReasons(error)),
  // On an update the engagement changed meanwhile; a create has nothing to have changed: what
  // it sent clashes with what the service holds (a name already taken, say), in its words.
  conflict: (error) =>
    withReason(
      error.endpoint?.method === 'POST'
        ? l10n.t('The service reported a conflict with what it already holds (409). Change what you entered.')
        : l10n.t('The service reported a conflict: the engagement changed meanwhile. Reload it and try again.'),
      error,
    ),
  rateLimited: (error) =>
    error.retryAfterMs === undefined
      ? l10n.t('The service is limiting requests (429). Wait a little and retry.')
      : l10n.t(
          'The service is limiting requests (429). It can be tried again in {0} s (at {1}).',
          Math.ceil(error.retryAfterMs / 1000),
          new Date(Date.now() + error.retryAfterMs).toLocaleTimeString(currentLocale()),
        ),
};

/** No (whole) answer came: the connection, the clock, or the user. */
const UNANSWERED: Record<'network' | 'timeout' | 'cancelled', Words> = {
  network: (error, env, place) => {
    // With a status, the service answered but the connection broke during the body.
    // The reason is the system's (a code such as ECONNREFUSED), the same in every language.
    if (error.status === undefined && error.connection) return describeConnection(error.connection, env, place);
    return error.status === undefined
      ? l10n.t('Cannot reach the service ({0}).', error.detail ?? '?')
      : l10n.t(
          'The service answered (HTTP {0}), but the connection broke and the answer was cut off ({1}).',
          error.status,
          error.detail ?? '?',
        );
  },
  timeout: (error) =>
    l10n.t(
      'The service did not answer in time ({0}).',
      error.endpoint ? `${error.endpoint.method} ${error.endpoint.path}` : '?',
    ),
  cancelled: () => l10n.t('Cancelled.'),
};

/** The service answered, but failed or said something this extension cannot read or show as asked. */
const FAILED: Record<'server' | 'badResponse' | 'otherPeriod', Words> = {
  server: (error) =>
    l10n.t(
      'The service failed (HTTP {0}){1}. Try again later.',
      error.status ?? 500,
      error.serverMessage ? `: ${error.serverMessage}` : '',
    ),
  badResponse: (error, _env, place) =>
    error.tooLargeMb !== undefined
      ? l10n.t(
          'The service’s answer was larger than {0} MB, far more than any answer of this service should be; it was not read further and nothing of it was kept.',
          error.tooLargeMb,
        )
      : place === 'agent'
        ? error.writeOutcome === 'applied'
          ? l10n.t(
              'The service carried out the change, but its answer could not be read; read the engagement again to see it. Details are in the MCP server’s log (its standard error).',
            )
          : l10n.t(
              'The service answered in a form this server does not understand; details are in the MCP server’s log (its standard error).',
            )
        : error.writeOutcome === 'applied'
          ? l10n.t(
              'The service carried out the change, but its answer could not be read; refresh to see it. Details are in the log.',
            )
          : l10n.t('The service answered in a form this extension does not understand; details are in the log.'),
  otherPeriod: (error) =>
    l10n.t(
      'The service answered with the figures of {0} when {1} was asked; they are not shown as those of {1}.',
      error.period?.answered ?? '?',
      error.period?.asked ?? '?',
    ),
};

const WORDS: Record<ApiErrorKind, Words> = { ...ACCESS, ...REFUSED, ...UNANSWERED, ...FAILED };

// What the user reads when no connection to the service could be made: what went wrong, and
// what fixes it, the technical code in brackets (the system's, the same in every language).
/**
 * The sentence for one kind of problem, from the host it concerns, the code, the environment's
 * label and the request headers it concerns (`headersRefused`).
 */
type Sentence = (host: string, code: string, env: string, headers: string) => string;

/** The certificate or the TLS handshake: trust stores, clocks, host names. */
const SECURE: Record<'untrustedCertificate' | 'expiredCertificate' | 'hostMismatch' | 'tlsHandshake', Sentence> = {
  untrustedCertificate: (host, code) =>
    l10n.t(
      "The certificate of {0} is issued by an authority this machine does not trust ({1}). If your company inspects HTTPS traffic or the service uses a private certificate authority, add that authority to the system's trusted certificates (or ask IT); VS Code uses them while the setting http.systemCertificates is on.",
      host,
      code,
    ),
  expiredCertificate: (host, code) =>
    l10n.t(
      "The certificate of {0} has expired or is not valid yet ({1}). Check this machine's date and time; if they are right, the service's certificate must be renewed.",
      host,
      code,
    ),
  hostMismatch: (host, code, env) =>
    l10n.t(
      'The certificate of {0} is for another host name ({1}). Check the base URL of {2}: it must use the name the certificate was issued for.',
      host,
      code,
      env,
    ),
  tlsHandshake: (host, code, env) =>
    l10n.t(
      'A secure connection to {0} could not be made ({1}). Check that the base URL of {2} is right (https:// only where the service speaks HTTPS) and any proxy that inspects HTTPS.',
      host,
      code,
      env,
    ),
};

/** The proxy between this machine and the service: its credentials, its refusals, itself. */
const PROXY: Record<'proxyAuthentication' | 'proxyRefused' | 'proxyUnreachable', Sentence> = {
  proxyAuthentication: (host, code) =>
    l10n.t(
      'The proxy asks for credentials before it connects to {0} ({1}). Put them in the setting http.proxy (http://user:password@host:port) or check http.proxyAuthorization, or ask IT which proxy to use.',
      host,
      code,
    ),
  proxyRefused: (host, code) =>
    l10n.t(
      'The proxy refused to connect to {0} ({1}). Check the settings http.proxy and http.noProxy, or ask IT to allow this address.',
      host,
      code,
    ),
  proxyUnreachable: (host, code) =>
    l10n.t(
      'The proxy at {0} cannot be reached ({1}). Check the setting http.proxy (or HTTPS_PROXY) and that the proxy is running.',
      host,
      code,
    ),
};

/** The way to the service itself: its name, its address, the network, a dropped connection. */
const ROUTE: Record<Exclude<ConnectionProblem, keyof typeof SECURE | keyof typeof PROXY>, Sentence> = {
  nameNotFound: (host, code, env) =>
    l10n.t(
      'The host name of {0} cannot be found ({1}). Check the base URL of {2}, and the network or VPN.',
      host,
      code,
      env,
    ),
  connectionRefused: (host, code, env) =>
    l10n.t(
      '{0} refused the connection ({1}): nothing answers at that address. Check the base URL of {2} and that the service is running.',
      host,
      code,
      env,
    ),
  hostUnreachable: (host, code) => l10n.t('{0} cannot be reached ({1}). Check the network or VPN.', host, code),
  connectTimeout: (host, code) =>
    l10n.t('{0} did not accept a connection in time ({1}). Check the network, VPN or proxy.', host, code),
  connectionDropped: (host, code) => l10n.t('The connection to {0} closed before an answer came ({1}).', host, code),
  other: (_host, code) => l10n.t('Cannot reach the service ({0}).', code),
  refusedByBrowser: (host, code) => `${browserRefusal(host, code)} ${corsNeeds()}`,
  headersRefused: (host, code, _env, headers) =>
    l10n.t(
      '{0} answers reads from this page, but the browser refused to send this change ({1}): the service’s CORS settings most likely do not allow the header {2}, which the change carries. Its owners can add {2} to Access-Control-Allow-Headers; until then the change cannot be made from VS Code for the Web.',
      host,
      code,
      headers,
    ),
};

/** The browser's refusal (CORS, or the network: the browser does not tell which), in one sentence. */
function browserRefusal(host: string, code: string): string {
  return l10n.t('The browser gave no answer from {0} that this extension may read ({1}).', host, code);
}

/** What a service must allow for this extension to call it from a browser (VS Code for the Web). */
function corsNeeds(): string {
  return l10n.t(
    'In VS Code for the Web the service must allow requests from {0} (CORS): answer with Access-Control-Allow-Origin for that origin, allow the headers Authorization and Content-Type and the method PATCH in preflight requests (and If-Match or If-Unmodified-Since if it sends ETag or Last-Modified), and expose the headers ETag and Location. If it does, check the network or VPN.',
    pageOrigin(),
  );
}

/**
 * For a request the browser refused (CORS, or the network): the refusal in one sentence and,
 * apart, what the service must allow, for a dialog's message and its detail. Undefined for any
 * other failure.
 */
export function browserRefusalParts(error: unknown): { refusal: string; needs: string } | undefined {
  if (!isApiError(error) || error.connection?.problem !== 'refusedByBrowser') return undefined;
  return { refusal: browserRefusal(error.connection.host, error.connection.code), needs: corsNeeds() };
}

const SENTENCES: Record<ConnectionProblem, Sentence> = { ...SECURE, ...PROXY, ...ROUTE };

/** The origin a browser sends requests from (VS Code for the Web), in words when it cannot be told. */
function pageOrigin(): string {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  return typeof origin === 'string' && origin !== 'null' && origin !== ''
    ? origin
    : l10n.t('the address VS Code for the Web runs at');
}

/** What went wrong with a connection, and what fixes it; the technical code in brackets. */
function describeConnection(connection: ConnectionFailure, env: string, place: Place): string {
  const { problem, host, code } = connection;
  if (place === 'agent' && problem in AGENT_FIXES) return AGENT_FIXES[problem as keyof typeof AGENT_FIXES](host, code);
  return SENTENCES[problem](host, code, env, (connection.headers ?? []).join(', '));
}

/** Outside VS Code, what fixes a connection names the MCP server's environment variables, not VS Code's settings. */
const AGENT_FIXES: Record<'untrustedCertificate' | keyof typeof PROXY, (host: string, code: string) => string> = {
  untrustedCertificate: (host, code) =>
    l10n.t(
      'The certificate of {0} is issued by an authority this machine does not trust ({1}). If your company inspects HTTPS traffic or the service uses a private certificate authority, set NODE_EXTRA_CA_CERTS in the MCP server’s environment to a PEM file of that authority (or add it to the system’s trusted certificates, which Node 22.15 and later read).',
      host,
      code,
    ),
  proxyAuthentication: (host, code) =>
    l10n.t(
      'The proxy asks for credentials before it connects to {0} ({1}). Put them in HTTPS_PROXY (http://user:password@host:port) in the MCP server’s environment, or ask IT which proxy to use.',
      host,
      code,
    ),
  proxyRefused: (host, code) =>
    l10n.t(
      'The proxy refused to connect to {0} ({1}). Check HTTPS_PROXY and NO_PROXY in the MCP server’s environment, or ask IT to allow this address.',
      host,
      code,
    ),
  proxyUnreachable: (host, code) =>
    l10n.t(
      'The proxy at {0} cannot be reached ({1}). Check HTTPS_PROXY (or HTTP_PROXY) in the MCP server’s environment and that the proxy is running.',
      host,
      code,
    ),
};
