// What the user reads when no connection to the service could be made: what went wrong, and
// what fixes it, the technical code in brackets (the system's, the same in every language).
import * as vscode from 'vscode';
import type { ConnectionFailure, ConnectionProblem } from '../api/network';

/** The sentence for one kind of problem, from the host it concerns, the code and the environment's label. */
type Sentence = (host: string, code: string, env: string) => string;

/** The certificate or the TLS handshake: trust stores, clocks, host names. */
const SECURE: Record<'untrustedCertificate' | 'expiredCertificate' | 'hostMismatch' | 'tlsHandshake', Sentence> = {
  untrustedCertificate: (host, code) =>
    vscode.l10n.t(
      "The certificate of {0} is issued by an authority this machine does not trust ({1}). If your company inspects HTTPS traffic or the service uses a private certificate authority, add that authority to the system's trusted certificates (or ask IT); VS Code uses them while the setting http.systemCertificates is on.",
      host,
      code,
    ),
  expiredCertificate: (host, code) =>
    vscode.l10n.t(
      "The certificate of {0} has expired or is not valid yet ({1}). Check this machine's date and time; if they are right, the service's certificate must be renewed.",
      host,
      code,
    ),
  hostMismatch: (host, code, env) =>
    vscode.l10n.t(
      'The certificate of {0} is for another host name ({1}). Check the base URL of {2}: it must use the name the certificate was issued for.',
      host,
      code,
      env,
    ),
  tlsHandshake: (host, code, env) =>
    vscode.l10n.t(
      'A secure connection to {0} could not be made ({1}). Check that the base URL of {2} is right (https:// only where the service speaks HTTPS) and any proxy that inspects HTTPS.',
      host,
      code,
      env,
    ),
};

/** The proxy between this machine and the service: its credentials, its refusals, itself. */
const PROXY: Record<'proxyAuthentication' | 'proxyRefused' | 'proxyUnreachable', Sentence> = {
  proxyAuthentication: (host, code) =>
    vscode.l10n.t(
      'The proxy asks for credentials before it connects to {0} ({1}). Put them in the setting http.proxy (http://user:password@host:port) or check http.proxyAuthorization, or ask IT which proxy to use.',
      host,
      code,
    ),
  proxyRefused: (host, code) =>
    vscode.l10n.t(
      'The proxy refused to connect to {0} ({1}). Check the settings http.proxy and http.noProxy, or ask IT to allow this address.',
      host,
      code,
    ),
  proxyUnreachable: (host, code) =>
    vscode.l10n.t(
      'The proxy at {0} cannot be reached ({1}). Check the setting http.proxy (or HTTPS_PROXY) and that the proxy is running.',
      host,
      code,
    ),
};

/** The way to the service itself: its name, its address, the network, a dropped connection. */
const ROUTE: Record<Exclude<ConnectionProblem, keyof typeof SECURE | keyof typeof PROXY>, Sentence> = {
  nameNotFound: (host, code, env) =>
    vscode.l10n.t(
      'The host name of {0} cannot be found ({1}). Check the base URL of {2}, and the network or VPN.',
      host,
      code,
      env,
    ),
  connectionRefused: (host, code, env) =>
    vscode.l10n.t(
      '{0} refused the connection ({1}): nothing answers at that address. Check the base URL of {2} and that the service is running.',
      host,
      code,
      env,
    ),
  hostUnreachable: (host, code) => vscode.l10n.t('{0} cannot be reached ({1}). Check the network or VPN.', host, code),
  connectTimeout: (host, code) =>
    vscode.l10n.t('{0} did not accept a connection in time ({1}). Check the network, VPN or proxy.', host, code),
  connectionDropped: (host, code) =>
    vscode.l10n.t('The connection to {0} closed before an answer came ({1}).', host, code),
  other: (_host, code) => vscode.l10n.t('Cannot reach the service ({0}).', code),
};

const SENTENCES: Record<ConnectionProblem, Sentence> = { ...SECURE, ...PROXY, ...ROUTE };

/** What went wrong with a connection, and what fixes it; the technical code in brackets. */
export function describeConnection(connection: ConnectionFailure, env: string): string {
  return SENTENCES[connection.problem](connection.host, connection.code, env);
}
