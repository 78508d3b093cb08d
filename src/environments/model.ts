import type { Scope } from '../api/types';

/** What syncs across machines: never the key. */
export interface EnvironmentRecord {
  id: string;
  label: string;
  baseUrl: string;
  production?: boolean;
}

export interface Environment extends EnvironmentRecord {
  /** `settings`: shared through `engagementUsage.environments`; its label and URL are edited there. */
  source: 'user' | 'settings';
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

/** A short, stable id for an environment defined in settings (same label and URL → same id). */
export function settingsEnvironmentId(label: string, baseUrl: string): string {
  let hash = 0x811c9dc5;
  for (const char of `${label}\u0000${baseUrl}`) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `s-${hash.toString(36)}`;
}

export function newEnvironmentId(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return `e-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function describeCapabilities(caps: Capabilities): string {
  const part = (known: boolean | undefined, name: string) => (known === false ? `no ${name}` : known ? name : `${name}?`);
  return [part(caps.read, 'read'), part(caps.write, 'write'), part(caps.usage, 'usage')].join(' · ');
}
