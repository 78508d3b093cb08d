// Checks of what a user types, shared by the input flows and the API client. Each returns
// a sentence for the user (undefined when the input is fine), in the user's language.
import { l10n } from './l10n';

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

/**
 * Hosts that are this machine whatever the network says: `localhost`, 127.0.0.0/8 and [::1].
 * A name under `.localhost` is not among them: it is looked up like any other name, and a
 * resolver may send it elsewhere, so plain http to it would carry the key off the machine.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LOOPBACK_HOSTS.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
}

export type BaseUrlResult = { ok: true; url: string } | { ok: false; message: string };

/**
 * A base URL must be absolute, http(s), end in the version segment `/v1`, and use https
 * unless the host is a loopback address. The result has no trailing slash, no query or hash.
 */
export function parseBaseUrl(input: string): BaseUrlResult {
  const text = input.trim();
  if (!text)
    return { ok: false, message: l10n.t('Enter the base URL of the service, for example https://api.example.com/v1.') };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: l10n.t('This is not a URL. Enter an address such as https://api.example.com/v1.') };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, message: l10n.t('The base URL must start with https://.') };
  if (url.username || url.password)
    return { ok: false, message: l10n.t('Do not put credentials in the URL; the API key is asked for next.') };
  // An internationalised name can imitate another (a Cyrillic "а" in api.exаmple.com).
  if (url.hostname.split('.').some((label) => label.startsWith('xn--'))) {
    return {
      ok: false,
      message: l10n.t('Use the host name in plain ASCII letters: internationalised names can imitate another address.'),
    };
  }
  if (url.search || url.hash)
    return { ok: false, message: l10n.t('The base URL must not have a query (?) or fragment (#).') };
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return {
      ok: false,
      message: l10n.t('Use https: plain http is allowed only for loopback hosts (localhost, 127.0.0.1, [::1]).'),
    };
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1'))
    return {
      ok: false,
      message: l10n.t('The base URL must end in the version segment /v1, for example https://api.example.com/v1.'),
    };
  return { ok: true, url: `${url.origin}${path}` };
}

// The contract sets no length or format rules for names, types, descriptions or statuses:
// those are the service's to enforce (its 400/422 message is shown with the input kept).
// Only what the contract itself requires is checked here.

export function validateName(input: string): string | undefined {
  return input.trim() ? undefined : l10n.t('A name is required.');
}

export function validateType(input: string): string | undefined {
  return input.trim() ? undefined : l10n.t('A type is required.');
}

export function validateStatus(input: string): string | undefined {
  return input.trim() ? undefined : l10n.t('A status is required.');
}

/** `YYYY-MM` with a real month (01–12). */
export function validateBillingPeriod(input: string): string | undefined {
  const match = /^(\d{4})-(\d{2})$/.exec(input);
  if (!match) return l10n.t('"{0}" is not a billing period; use YYYY-MM, for example 2026-11.', input.slice(0, 20));
  const month = Number(match[2]);
  if (month < 1 || month > 12) return l10n.t('{0} has no month {1}; months run from 01 to 12.', input, match[2]);
  return undefined;
}

export function validatePageRequest(page: number, pageSize: number, maxPageSize = 100): string | undefined {
  if (!Number.isInteger(page) || page < 1) return l10n.t('Page must be a whole number of at least 1 (got {0}).', page);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > maxPageSize)
    return l10n.t('Page size must be a whole number from 1 to {0} (got {1}).', maxPageSize, pageSize);
  return undefined;
}
