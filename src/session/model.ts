// What an environment is (its record, where it comes from, what its key may do) and how it is
// named on screen.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { l10n } from '../core/l10n';
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
  return `s2-${bytesToHex(sha256(utf8ToBytes(`${label}\u0000${baseUrl}`))).slice(0, 40)}`;
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

/**
 * Which key is meant, as a digest that cannot give the key back: what a person confirmed with
 * one key is sent with that key or not at all.
 */
export function keyFingerprint(key: string): string {
  return bytesToHex(sha256(utf8ToBytes(`engagement-usage key\0${key}`)));
}

export function newEnvironmentId(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return `e-${bytesToHex(bytes)}`;
}

export function describeCapabilities(caps: Capabilities): string {
  const part = (known: boolean | undefined, name: string) =>
    known === false ? `no ${name}` : known ? name : `${name}?`;
  return [part(caps.read, 'read'), part(caps.write, 'write'), part(caps.usage, 'usage')].join(' · ');
}

// How an environment is named on screen. One from the workspace's settings is always marked
// as such (a repository chose its label and URL); a label two environments share is shown
// with where each comes from, so a workspace's "Production" never passes for the user's own.
/** Where an environment comes from, in words; empty for the user's own. */
export function sourceNote(env: Environment): string {
  if (env.source === 'workspace') return l10n.t('defined by this workspace');
  if (env.source === 'settings') return l10n.t('from your settings');
  return '';
}

/** The label, marked "(workspace)" for a workspace's environment and with its source when the label is shared. */
export function shownLabel(env: Environment, all: readonly Environment[]): string {
  if (env.source === 'workspace') return l10n.t('{0} (workspace)', env.label);
  const shared = all.some((other) => other.id !== env.id && other.label.toLowerCase() === env.label.toLowerCase());
  if (!shared) return env.label;
  return env.source === 'settings' ? l10n.t('{0} (your settings)', env.label) : l10n.t('{0} (yours)', env.label);
}

/** The origin a key for this environment is sent to, for a workspace's environment; else the base URL. */
export function destination(env: Environment): string {
  return env.source === 'workspace'
    ? l10n.t('{0} — sends the key to {1}', env.baseUrl, originOf(env.baseUrl))
    : env.baseUrl;
}
