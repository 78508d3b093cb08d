import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { ConnectionFailure } from '../api/network';
import { Commands } from '../shared/constants';
import { currentLocale } from '../core/l10n';
import type { Ui } from './ui';
import type { ApiError } from '../api/errors';

export interface ErrorActions {
  /** What was being done, for the message: "create the engagement". */
  action?: string;
  /** Offered as "Retry": runs the same request again with the same input. */
  retry?: () => Promise<unknown>;
  /** Offered as "Edit": the input flow again, prefilled. */
  edit?: () => Promise<unknown>;
  environmentLabel?: string;
  /** The write's outcome was unknown, and a check found it was not carried out: Retry is safe. */
  checkedNotApplied?: boolean;
}

/** Words for the user, by kind. Never contains the key (the client's messages are redacted). */
export function describeError(error: unknown, environmentLabel?: string): string {
  return describeKind(error, environmentLabel);
}

/** A write that got no (whole) answer may still have been carried out by the service. */
function outcomeNote(error: unknown, checkedNotApplied: boolean | undefined): string | undefined {
  if (!isApiError(error)) return undefined;
  if (error.connection?.notSent && error.endpoint && error.endpoint.method !== 'GET')
    return vscode.l10n.t('Nothing was sent, so nothing was changed.');
  if (error.writeOutcome !== 'unknown') return undefined;
  return checkedNotApplied
    ? vscode.l10n.t('A check found the change was not made, so Retry is safe.')
    : vscode.l10n.t('The service may have made the change anyway: refresh to check before you retry.');
}

/**
 * The service's own reason, said beside ours (after a 401, a 403, a conflict): “The service
 * said: “The API key has expired”.” Undefined when its answer gave none.
 */
export function serviceReason(error: unknown): string | undefined {
  if (!isApiError(error) || error.status === undefined || !error.serverMessage) return undefined;
  return vscode.l10n.t('The service said: “{0}”.', error.serverMessage.replace(/\.\s*$/, ''));
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
    .filter(([, message]) => !said.includes(message))
    .map(([field, message]) => `${field}: ${message}`)
    .join('; ');
  if (said && fields) return `${said.replace(/\.\s*$/, '')} (${fields})`;
  return said || fields || `HTTP ${error.status ?? '?'}`;
}

function describeKind(error: unknown, environmentLabel?: string): string {
  if (!isApiError(error)) return error instanceof Error ? error.message : String(error);
  const env = environmentLabel ?? vscode.l10n.t('the active environment');
  switch (error.kind) {
    case 'unauthorized':
      return error.status === undefined
        ? vscode.l10n.t('No API key is stored for {0} on this machine.', env)
        : withReason(vscode.l10n.t('The service rejected the API key of {0} (401). Replace the key.', env), error);
    case 'forbidden':
      return withReason(
        vscode.l10n.t(
          'The API key of {0} lacks the {1} scope this needs.',
          env,
          error.scope ?? error.endpoint?.scope ?? '?',
        ),
        error,
      );
    case 'notFound':
      return error.endpoint?.path.includes('{id}')
        ? vscode.l10n.t('That engagement no longer exists (404). Refresh the view.')
        : vscode.l10n.t('The service does not know this address (404). Check the base URL.');
    case 'invalidRequest':
      return vscode.l10n.t('The request was refused: {0}', refusalReasons(error));
    case 'conflict':
      return withReason(
        vscode.l10n.t('The service reported a conflict: the engagement changed meanwhile. Reload it and try again.'),
        error,
      );
    case 'rateLimited':
      return error.retryAfterMs === undefined
        ? vscode.l10n.t('The service is limiting requests (429). Wait a little and retry.')
        : vscode.l10n.t(
            'The service is limiting requests (429). It can be tried again in {0} s (at {1}).',
            Math.ceil(error.retryAfterMs / 1000),
            new Date(Date.now() + error.retryAfterMs).toLocaleTimeString(currentLocale()),
          );
    case 'server':
      return vscode.l10n.t(
        'The service failed (HTTP {0}){1}. Try again later.',
        error.status ?? 500,
        error.serverMessage ? `: ${error.serverMessage}` : '',
      );
    case 'redirected':
      return vscode.l10n.t(
        'The service redirected to {0}. The key was not sent there; check the base URL of {1}.',
        error.location ?? '?',
        env,
      );
    case 'network':
      // With a status, the service answered but the connection broke during the body.
      // The reason is the system's (a code such as ECONNREFUSED), the same in every language.
      if (error.status === undefined && error.connection) return describeConnection(error.connection, env);
      return error.status === undefined
        ? vscode.l10n.t('Cannot reach the service ({0}).', error.detail ?? '?')
        : vscode.l10n.t(
            'The service answered (HTTP {0}), but the connection broke and the answer was cut off ({1}).',
            error.status,
            error.detail ?? '?',
          );
    case 'timeout':
      return vscode.l10n.t(
        'The service did not answer in time ({0}).',
        error.endpoint ? `${error.endpoint.method} ${error.endpoint.path}` : '?',
      );
    case 'cancelled':
      return vscode.l10n.t('Cancelled.');
    case 'badResponse':
      return error.writeOutcome === 'applied'
        ? vscode.l10n.t(
            'The service carried out the change, but its answer could not be read; refresh to see it. Details are in the log.',
          )
        : vscode.l10n.t('The service answered in a form this extension does not understand; details are in the log.');
  }
}

/** What went wrong with a connection, and what fixes it; the technical code in brackets. */
function describeConnection(connection: ConnectionFailure, env: string): string {
  const { host, code } = connection;
  switch (connection.problem) {
    case 'untrustedCertificate':
      return vscode.l10n.t(
        "The certificate of {0} is issued by an authority this machine does not trust ({1}). If your company inspects HTTPS traffic or the service uses a private certificate authority, add that authority to the system's trusted certificates (or ask IT); VS Code uses them while the setting http.systemCertificates is on.",
        host,
        code,
      );
    case 'expiredCertificate':
      return vscode.l10n.t(
        "The certificate of {0} has expired or is not valid yet ({1}). Check this machine's date and time; if they are right, the service's certificate must be renewed.",
        host,
        code,
      );
    case 'hostMismatch':
      return vscode.l10n.t(
        'The certificate of {0} is for another host name ({1}). Check the base URL of {2}: it must use the name the certificate was issued for.',
        host,
        code,
        env,
      );
    case 'tlsHandshake':
      return vscode.l10n.t(
        'A secure connection to {0} could not be made ({1}). Check that the base URL of {2} is right (https:// only where the service speaks HTTPS) and any proxy that inspects HTTPS.',
        host,
        code,
        env,
      );
    case 'proxyAuthentication':
      return vscode.l10n.t(
        'The proxy asks for credentials before it connects to {0} ({1}). Put them in the setting http.proxy (http://user:password@host:port) or check http.proxyAuthorization, or ask IT which proxy to use.',
        host,
        code,
      );
    case 'proxyRefused':
      return vscode.l10n.t(
        'The proxy refused to connect to {0} ({1}). Check the settings http.proxy and http.noProxy, or ask IT to allow this address.',
        host,
        code,
      );
    case 'proxyUnreachable':
      return vscode.l10n.t(
        'The proxy at {0} cannot be reached ({1}). Check the setting http.proxy (or HTTPS_PROXY) and that the proxy is running.',
        host,
        code,
      );
    case 'nameNotFound':
      return vscode.l10n.t(
        'The host name of {0} cannot be found ({1}). Check the base URL of {2}, and the network or VPN.',
        host,
        code,
        env,
      );
    case 'connectionRefused':
      return vscode.l10n.t(
        '{0} refused the connection ({1}): nothing answers at that address. Check the base URL of {2} and that the service is running.',
        host,
        code,
        env,
      );
    case 'hostUnreachable':
      return vscode.l10n.t('{0} cannot be reached ({1}). Check the network or VPN.', host, code);
    case 'connectTimeout':
      return vscode.l10n.t(
        '{0} did not accept a connection in time ({1}). Check the network, VPN or proxy.',
        host,
        code,
      );
    case 'connectionDropped':
      return vscode.l10n.t('The connection to {0} closed before an answer came ({1}).', host, code);
    case 'other':
      return vscode.l10n.t('Cannot reach the service ({0}).', code);
  }
}

/**
 * Shows an error with the actions that fit its kind and runs the one chosen. Cancellations
 * are silent. Resolves when the message is dismissed or the chosen action has finished.
 */
export async function showError(ui: Ui, error: unknown, actions: ErrorActions = {}): Promise<void> {
  if (isApiError(error) && error.kind === 'cancelled') return;
  const retry = vscode.l10n.t('Retry');
  const edit = vscode.l10n.t('Edit');
  const replaceKey = vscode.l10n.t('Replace Key');
  const refresh = vscode.l10n.t('Refresh');
  const logs = vscode.l10n.t('Show Logs');
  const offered: string[] = [];
  const kind = isApiError(error) ? error.kind : undefined;
  // Retry only where sending again cannot make the change twice.
  const uncertain = isApiError(error) && error.writeOutcome !== undefined && !actions.checkedNotApplied;
  if (actions.retry && !uncertain && kind !== 'unauthorized' && kind !== 'forbidden' && kind !== 'notFound')
    offered.push(retry);
  if (actions.edit) offered.push(edit);
  if (kind === 'unauthorized' || kind === 'forbidden') offered.push(replaceKey);
  if (kind === 'notFound' || uncertain) offered.push(refresh);
  offered.push(logs);
  const described = [describeError(error, actions.environmentLabel), outcomeNote(error, actions.checkedNotApplied)]
    .filter(Boolean)
    .join(' ');
  const text = actions.action ? vscode.l10n.t('Could not {0}. {1}', actions.action, described) : described;
  const level = kind === 'rateLimited' || kind === 'forbidden' ? 'warning' : 'error';
  const chosen = await ui.message(level, text, {}, ...offered);
  if (chosen === retry) {
    try {
      await actions.retry?.();
    } catch (again) {
      await showError(ui, again, actions);
    }
  } else if (chosen === edit) await actions.edit?.();
  else if (chosen === replaceKey) await vscode.commands.executeCommand(Commands.replaceKey);
  else if (chosen === refresh) await vscode.commands.executeCommand(Commands.refreshEngagements);
  else if (chosen === logs) await vscode.commands.executeCommand(Commands.showLogs);
}
