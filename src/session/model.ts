import { createHash } from 'node:crypto';
import type { Scope } from '../api/types';

/** What syncs across machines: never the key. */
export interface EnvironmentRecord {
  id: string;
  label: string;
  baseUrl: string;
  production?: boolean;
}

export interface Environment extends EnvironmentRecord {
  /**
   * `user`: added by the user (Add Environment). `settings`: from the user's own settings
   * (`engagementUsage.environments`). `workspace`: from the settings of the open workspace or
   * folder (`.vscode/settings.json`), which whoever wrote the repository chose: marked as such
   * wherever it is shown, and used only in a trusted workspace.
   */
  source: 'user' | 'settings' | 'workspace';
}

/** What the active key was seen to be allowed to do. `undefined`: not known yet. */
export interface Capabilities {
  read?: boolean;
  write?: boolean;
  usage?: boolean;
}

export const SCOPE_CAPABILITY: Record<Scope, keyof Capabilities> = {
  'engagements:read': 'read',
  'engagements:write': 'write',
  'usage:read': 'usage',
};

/**
 * The id of an environment defined in settings: the SHA-256 of its label and URL, so the
 * same label and URL give the same id on every machine, and no other label and URL can be
 * made to give it (the 32-bit id it replaces could be matched by a crafted URL in a second).
 */
export function settingsEnvironmentId(label: string, baseUrl: string): string {
  return `s2-${createHash('sha256').update(`${label}\u0000${baseUrl}`, 'utf8').digest('hex').slice(0, 40)}`;
}

/**
 * The id earlier builds gave an environment from settings: 32-bit FNV-1a of label and
 * URL. Used only to find a key stored under it (see KeyVault), never to choose where a key goes.
 */
export function legacySettingsEnvironmentId(label: string, baseUrl: string): string {
  let hash = 0x811c9dc5;
  for (const char of `${label}\u0000${baseUrl}`) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `s-${hash.toString(36)}`;
}

/** The origin (scheme, host, port) a key for this base URL may be sent to. */
export function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return '';
  }
}

export function newEnvironmentId(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return `e-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function describeCapabilities(caps: Capabilities): string {
  const part = (known: boolean | undefined, name: string) =>
    known === false ? `no ${name}` : known ? name : `${name}?`;
  return [part(caps.read, 'read'), part(caps.write, 'write'), part(caps.usage, 'usage')].join(' · ');
}
