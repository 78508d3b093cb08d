// How an engagement's status looks. The contract names `active` and `completed` and leaves
// the full set open, so any other value gets a neutral icon and is shown exactly as it came.
import { l10n } from './l10n';

/** The statuses the contract names; offered in every status pick even before they are seen. */
const KNOWN_STATUSES: readonly string[] = ['active', 'completed'];

export interface StatusLook {
  /** `active`, `completed`, or `other` for any value the contract does not name. */
  kind: 'active' | 'completed' | 'other';
  /** Codicon id for a ThemeIcon. */
  icon: string;
  /** Contributed colour id (package.json `contributes.colors`), none for unknown statuses. */
  colorId?: string;
  /** What to show: the status itself (the raw text for unknown ones). */
  text: string;
}

export const STATUS_COLORS = {
  active: 'engagementUsage.status.active',
  completed: 'engagementUsage.status.completed',
} as const;

export function statusLook(status: string): StatusLook {
  const normalised = status.trim().toLowerCase();
  if (normalised === 'active')
    return { kind: 'active', icon: 'circle-large-filled', colorId: STATUS_COLORS.active, text: status };
  if (normalised === 'completed')
    return { kind: 'completed', icon: 'pass-filled', colorId: STATUS_COLORS.completed, text: status };
  return { kind: 'other', icon: 'circle-large-outline', text: status.trim() === '' ? l10n.t('(no status)') : status };
}

/**
 * Statuses to offer when changing one: those the contract names, then every value seen in
 * the data (in first-seen order, without repeats, case kept as the service sent it).
 */
export function statusChoices(seen: Iterable<string>): string[] {
  const out: string[] = [...KNOWN_STATUSES];
  for (const status of seen) {
    if (status.trim() !== '' && !out.some((s) => s.toLowerCase() === status.toLowerCase())) out.push(status);
  }
  return out;
}
