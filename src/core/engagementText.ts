// Texts about one engagement: its status's look, the tree item's description and the Markdown
// of its tooltip and details document. Pure; the words come from the translation seam unless
// the caller brings its own.
import type { Engagement } from './engagement';
import { ENGAGEMENT_FIELDS } from './engagement';
import { absoluteTime, formatCount, relativeTime } from './format';
import { l10n } from './l10n';
import { LINE_BREAK, displayText, foldLines } from './text';

export interface EngagementWords {
  evaluations(count: number, formatted: string): string;
  updated(relative: string): string;
  fields: {
    id: string;
    name: string;
    type: string;
    status: string;
    evaluations: string;
    created: string;
    updated: string;
    description: string;
    noDescription: string;
    other: string;
  };
}

/** The words in the user's language (English in unit tests). */
export function engagementWords(): EngagementWords {
  return {
    evaluations: (count, formatted) => (count === 1 ? l10n.t('1 evaluation') : l10n.t('{0} evaluations', formatted)),
    updated: (relative) => l10n.t('updated {0}', relative),
    fields: {
      id: l10n.t('ID'),
      name: l10n.t('Name'),
      type: l10n.t('Type'),
      status: l10n.t('Status'),
      evaluations: l10n.t('Evaluations'),
      created: l10n.t('Created'),
      updated: l10n.t('Updated'),
      description: l10n.t('Description'),
      noDescription: l10n.t('No description.'),
      other: l10n.t('Other fields'),
    },
  };
}

/**
 * What a field only shown reads as when the service sent it missing or malformed (see
 * `parseEngagement`): the engagement is listed, and that one value says it is unknown.
 */
export function unknownValue(): string {
  return l10n.t('unknown');
}

/** A name, type or status the service sent none of readably: `unknown` (see `parseEngagement`). */
export function fieldText(value: string | undefined): string {
  return value === undefined ? unknownValue() : value;
}

/**
 * What an engagement is called in rows and messages: its name, or, when the service sent none
 * readably, its id and that the name is unknown (`42 (name unknown)`).
 */
export function nameText(engagement: Pick<Engagement, 'id' | 'name'>): string {
  return engagement.name === undefined ? l10n.t('{0} (name unknown)', engagement.id) : engagement.name;
}

/** `quality-review · 12 evaluations · updated 3 days ago`; `type unknown · evaluations unknown · updated unknown` without them. */
export function describeEngagement(
  engagement: Engagement,
  now: number = Date.now(),
  words: EngagementWords = engagementWords(),
): string {
  const count = engagement.evaluationCount;
  return [
    engagement.type === undefined ? l10n.t('type unknown') : displayText(engagement.type),
    count === undefined ? l10n.t('evaluations unknown') : words.evaluations(count, formatCount(count)),
    words.updated(engagement.updatedAt === undefined ? unknownValue() : relativeTime(engagement.updatedAt, now)),
  ].join(' · ');
}

/** The fields that may be unknown on an engagement: what the chat tools' answers and exports write as unknown. */
const MAY_BE_UNKNOWN = ['name', 'type', 'status', 'evaluationCount', 'createdAt', 'updatedAt'] as const;

/** The engagement's fields, each one the service did not send readably as unknown (for answers given as data). */
export function withUnknownFields(engagement: Engagement): Record<string, unknown> {
  const out: Record<string, unknown> = { ...engagement };
  for (const field of MAY_BE_UNKNOWN) if (engagement[field] === undefined) out[field] = unknownValue();
  return out;
}

/** The evaluation count as shown in a table: `12,345`, or unknown. */
export function evaluationCountText(engagement: Engagement): string {
  return engagement.evaluationCount === undefined ? unknownValue() : formatCount(engagement.evaluationCount);
}

const LINE_BREAKS = new RegExp(LINE_BREAK, 'g');

/**
 * Escapes text so Markdown shows it literally (no links, emphasis, HTML or headings). Every
 * line break (a lone CR, NEL, U+2028 and U+2029 as LF alike) is a visible hard line break,
 * never a new block.
 */
export function escapeMarkdown(text: string): string {
  return (
    displayText(text)
      .replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (char) => `\\${char}`)
      .replace(LINE_BREAKS, '  \n')
      // `=` under a line would make it a heading.
      .replace(/\n( {0,3})=/g, '\n$1\\=')
  );
}

/** Inline code on one line (a line break inside could start a block) that survives backticks inside the value. */
export function inlineCode(raw: string): string {
  const text = displayText(foldLines(raw));
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** One line of escaped text (for headings, table cells and confirmations, where a line break would end them). */
export function escapeLine(text: string): string {
  return escapeMarkdown(foldLines(text));
}

const KNOWN_FIELDS = new Set(ENGAGEMENT_FIELDS);

/** The fields the service sent beyond the contract's, each value as text (JSON unless a string). */
export function extraFields(engagement: Engagement): Array<{ key: string; text: string }> {
  return Object.entries(engagement)
    .filter(([key]) => !KNOWN_FIELDS.has(key))
    .map(([key, value]) => ({
      key,
      text: typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)),
    }));
}

function when(iso: string | undefined, now: number): string {
  if (iso === undefined) return unknownValue();
  return `${absoluteTime(iso)} (${relativeTime(iso, now)})`;
}

/**
 * Every field of an engagement as Markdown: the name as heading (or, with `heading: false`
 * for tooltips, after the table, so ID, type and status show first), a
 * table of the fields (id as code, times absolute and relative), the description, and any
 * field the contract does not name. Every value from the service is escaped.
 */
export function engagementMarkdown(
  engagement: Engagement,
  options: { now?: number; words?: EngagementWords; heading?: boolean } = {},
): string {
  const now = options.now ?? Date.now();
  const w = (options.words ?? engagementWords()).fields;
  const lines: string[] = [];
  const tooltip = options.heading === false;
  if (!tooltip) lines.push(`## ${escapeLine(nameText(engagement))}`, '');
  lines.push(`| | |`, `|---|---|`);
  // In a table a pipe ends the cell even inside code, unless escaped (GFM).
  lines.push(`| ${w.id} | ${inlineCode(engagement.id).replace(/\|/g, '\\|')} |`);
  lines.push(`| ${w.type} | ${escapeLine(fieldText(engagement.type))} |`);
  lines.push(`| ${w.status} | ${escapeLine(statusLook(engagement.status).text)} |`);
  lines.push(`| ${w.evaluations} | ${evaluationCountText(engagement)} |`);
  lines.push(`| ${w.created} | ${when(engagement.createdAt, now)} |`);
  lines.push(`| ${w.updated} | ${when(engagement.updatedAt, now)} |`);
  // In a tooltip the short facts come first; a long name cannot push them out of sight.
  if (tooltip) lines.push('', `**${w.name}**`, '', escapeMarkdown(fieldText(engagement.name)));
  lines.push('', `**${w.description}**`, '');
  const description = engagement.description?.trim();
  lines.push(description ? escapeMarkdown(description) : `*${w.noDescription}*`);
  const extras = extraFields(engagement);
  if (extras.length) {
    lines.push('', `**${w.other}**`, '');
    for (const { key, text } of extras) lines.push(`- ${escapeLine(key)}: ${inlineCode(text)}`);
  }
  return `${lines.join('\n')}\n`;
}

// How an engagement's status looks. The contract names `active` and `completed` and leaves
// the full set open, so any other value gets a neutral icon and is shown exactly as it came.
/** The statuses the contract names; offered in every status pick even before they are seen. */
const KNOWN_STATUSES: readonly string[] = ['active', 'completed'];

export interface StatusLook {
  /**
   * `active`, `completed`, `other` for any value the contract does not name, `unknown` when the
   * service sent no status readably.
   */
  kind: 'active' | 'completed' | 'other' | 'unknown';
  /** Codicon id for a ThemeIcon. */
  icon: string;
  /** Contributed colour id (package.json `contributes.colors`), none for unknown statuses. */
  colorId?: string;
  /** What to show: the status itself (the raw text for ones the contract does not name), or `unknown`. */
  text: string;
}

export const STATUS_COLORS = {
  active: 'engagementUsage.status.active',
  completed: 'engagementUsage.status.completed',
} as const;

/** The look of a status; `undefined` is a status the service sent none of readably. */
export function statusLook(status: string | undefined): StatusLook {
  if (status === undefined) return { kind: 'unknown', icon: 'question', text: unknownValue() };
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
