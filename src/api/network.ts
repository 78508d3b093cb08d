// The one place that reads why a connection to the service failed. Node, undici and VS Code's
// networking (the `fetch` it patches in the extension host, through proxies) report a failure
// as a `TypeError('fetch failed')` whose `cause` carries a code; this turns that code into what
// went wrong, whom it concerns (the service or a proxy), and whether the request can have left
// this machine (a write that never left changed nothing and can be sent again).

/** What went wrong with the connection, in terms a user can act on. */
export type ConnectionProblem =
  /** The certificate's issuer is not trusted here (a private CA, TLS inspection, a self-signed certificate). */
  | 'untrustedCertificate'
  /** The certificate has expired or is not valid yet. */
  | 'expiredCertificate'
  /** The certificate names another host. */
  | 'hostMismatch'
  /** Another failure of the TLS handshake (a protocol mismatch, a revoked certificate…). */
  | 'tlsHandshake'
  /** The proxy asks for credentials (407). */
  | 'proxyAuthentication'
  /** The proxy answered the tunnel request with another refusal (403, 502…). */
  | 'proxyRefused'
  /** The proxy itself could not be reached. */
  | 'proxyUnreachable'
  /** The host name could not be resolved. */
  | 'nameNotFound'
  /** Nothing listens at the address (ECONNREFUSED). */
  | 'connectionRefused'
  /** No route to the host or network. */
  | 'hostUnreachable'
  /** The connection was not accepted in time. */
  | 'connectTimeout'
  /** The connection closed before an answer came: the request may have been received. */
  | 'connectionDropped'
  /**
   * In a browser (VS Code for the Web): `fetch` failed without saying why, which is what a
   * browser does when the service does not allow the page's origin (CORS), as well as when the
   * network fails; the browser hides which from the page.
   */
  | 'refusedByBrowser'
  /**
   * In a browser: a write carrying conditional headers (`If-Match`, `If-Unmodified-Since`)
   * failed as `refusedByBrowser` does, while the same service answered this client before:
   * its CORS preflight most likely does not allow those headers (`headers`). Sending it
   * again fails the same way.
   */
  | 'headersRefused'
  /** Anything else. */
  | 'other';

export interface ConnectionFailure {
  problem: ConnectionProblem;
  /** The technical code (`SELF_SIGNED_CERT_IN_CHAIN`, `ECONNREFUSED`, `proxy 407`), for the log and the message. */
  code: string;
  /** `host:port` the failure concerns: the service's, or the proxy's for a proxy problem. */
  host: string;
  /** The status a proxy answered its tunnel request with. */
  proxyStatus?: number;
  /** Nothing left this machine: a write certainly was not carried out. */
  notSent: boolean;
  /** For `headersRefused`: the request headers the service's preflight most likely does not allow. */
  headers?: string[];
}

const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
]);
const EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const HOST_MISMATCH = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH', 'ERR_TLS_CERT_ALTNAME_FORMAT']);
const NAME_NOT_FOUND = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL']);
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL']);
const CONNECT_TIMEOUT = new Set(['UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
const DROPPED = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

const BROWSER_FAILURE = /^\s*(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed)\s*$/;

interface Cause {
  code?: unknown;
  message?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
  cause?: unknown;
}

/** The chain of causes under an error (fetch's TypeError → undici's error → the socket's), at most a few deep. */
function causes(error: unknown): Cause[] {
  const chain: Cause[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    chain.push(current);
    current = (current as Cause).cause;
  }
  return chain;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `host:port` of a URL, with the scheme's default port. */
export function hostOf(url: string): string {
  try {
    const parsed = new URL(url);
    const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
    return `${parsed.hostname}:${port}`;
  } catch {
    return url;
  }
}

/**
 * Reads a failure that happened before any answer came. `target` is the URL asked for: an
 * address, port or host name in the error other than the target's is a proxy's.
 */
export function classifyConnectionFailure(error: unknown, target: string): ConnectionFailure | undefined {
  const chain = causes(error);
  const service = hostOf(target);
  const [serviceName, servicePort] = [
    service.slice(0, service.lastIndexOf(':')),
    service.slice(service.lastIndexOf(':') + 1),
  ];
  let code: string | undefined;
  let message = '';
  let elsewhere: string | undefined;
  for (const link of chain) {
    code ??= text(link.code);
    message += ` ${text(link.message) ?? ''}`;
    const address = text(link.address) ?? text(link.hostname);
    const port = typeof link.port === 'number' || typeof link.port === 'string' ? String(link.port) : undefined;
    if (!elsewhere && address && port && port !== servicePort) elsewhere = `${address}:${port}`;
    if (!elsewhere && text(link.hostname) && text(link.hostname) !== serviceName) elsewhere = text(link.hostname);
  }
  // undici (and VS Code's proxy support, which mimics it) refuses a tunnel with this sentence.
  const tunnel = /Proxy response \((\d{3})\)/i.exec(message);
  if (tunnel || /proxy authentication required/i.test(message)) {
    const status = tunnel ? Number(tunnel[1]) : 407;
    return {
      problem: status === 407 ? 'proxyAuthentication' : 'proxyRefused',
      code: `proxy ${status}`,
      host: service,
      proxyStatus: status,
      notSent: true,
    };
  }
  // A browser's fetch says only this, whether CORS refused the answer or the network failed
  // (Chromium, Firefox, Safari); the request may have been sent (a preflight passed, the answer refused).
  if (!code && BROWSER_FAILURE.test(message))
    return { problem: 'refusedByBrowser', code: message.trim().split(/\s{2,}/)[0], host: service, notSent: false };
  if (!code) return undefined;
  const failure = (problem: ConnectionProblem, notSent: boolean, host = service): ConnectionFailure => ({
    problem,
    code: code,
    host,
    notSent,
  });
  if (UNTRUSTED.has(code)) return failure('untrustedCertificate', true);
  if (EXPIRED.has(code)) return failure('expiredCertificate', true);
  if (HOST_MISMATCH.has(code)) return failure('hostMismatch', true);
  if (code.startsWith('ERR_SSL_') || code === 'EPROTO' || code.startsWith('ERR_TLS_') || code === 'CERT_REVOKED')
    return failure('tlsHandshake', true);
  if (NAME_NOT_FOUND.has(code))
    return elsewhere ? failure('proxyUnreachable', true, elsewhere) : failure('nameNotFound', true);
  if (code === 'ECONNREFUSED')
    return elsewhere ? failure('proxyUnreachable', true, elsewhere) : failure('connectionRefused', true);
  if (UNREACHABLE.has(code))
    return elsewhere ? failure('proxyUnreachable', true, elsewhere) : failure('hostUnreachable', true);
  if (CONNECT_TIMEOUT.has(code)) return failure('connectTimeout', code === 'UND_ERR_CONNECT_TIMEOUT');
  if (DROPPED.has(code)) return failure('connectionDropped', false);
  if (code === 'ERR_INVALID_URL') return failure('other', true);
  return failure('other', false);
}
