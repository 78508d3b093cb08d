// Hostile and odd data for the reference service to serve: HTML and script, Markdown and
// command links, emoji, right-to-left text, 10,000-character strings, numbers as strings and
// meters below zero or fractional. Tests put it in the store and check that the extension
// shows it as plain text and runs nothing. Every script payload sets `window.__pwned`.
import type { Engagement, KeyUsage, UsageDetailRecord, UsageSummary } from './types';

export const HOSTILE_TEXT = {
  imgTag: '<img src=x onerror="window.__pwned=1">',
  scriptClose: '</script><script>window.__pwned=2</script>',
  svg: '<svg onload="window.__pwned=3"><a href="javascript:window.__pwned=4">x</a></svg>',
  commandLink:
    '[Sign out of all](command:engagementUsage.signOutAll) [terminal](command:workbench.action.terminal.new?%5B%5D)',
  markdown: '# Heading **bold** _it_ `code` <b>html</b> ![pic](https://example.com/x.png) | pipe |',
  emoji: '🚀 Launch 👩‍👩‍👧‍👦 review ✅',
  rtl: 'مراجعة الجودة \u202Eevil\u202C שלום',
  long: `${'L'.repeat(9_990)}-the-end`,
} as const;

export type HostileName = keyof typeof HOSTILE_TEXT;
export const HOSTILE_VALUES: readonly string[] = Object.values(HOSTILE_TEXT);

const T = HOSTILE_TEXT;

/** Engagements whose every text field is hostile, with odd but readable types. */
export function hostileEngagements(base: readonly Engagement[]): Engagement[] {
  const at = (i: number) => ({ ...base[i] });
  const list: Array<Record<string, unknown>> = [
    {
      ...at(0),
      id: 'eng_hostile_img',
      name: T.imgTag,
      description: T.scriptClose,
      type: T.markdown,
      status: '<script>window.__pwned=5</script>',
    },
    {
      ...at(1),
      id: 'eng_hostile_cmd',
      name: T.commandLink,
      description: `${T.markdown}\n\n${T.commandLink}`,
      type: 'quality-review',
    },
    { ...at(2), id: 'eng_hostile_emoji', name: T.emoji, description: T.rtl, type: T.emoji },
    { ...at(3), id: 'eng_hostile_long', name: T.long, description: T.long },
    { ...at(4), id: 'eng_hostile_rtl', name: T.rtl, description: T.svg, status: T.rtl },
    // Numbers as strings, null for an optional string, extra fields holding payloads.
    {
      ...at(5),
      id: 'eng_hostile_numbers',
      name: 'Numbers as strings',
      evaluationCount: '12',
      description: null,
      extra: T.imgTag,
      nested: { link: T.commandLink },
    },
    { ...at(6), id: 'eng_<b>x</b>|`tick`', name: 'Odd id', description: '' },
  ];
  return [...(list as unknown as Engagement[]), ...base.slice(7)];
}

/** Per-key usage with hostile key names and ids. */
export function hostileKeys(base: readonly KeyUsage[]): KeyUsage[] {
  const names = [T.imgTag, T.scriptClose, T.commandLink, T.emoji, T.rtl, T.long];
  const rows = names.map((name, i) => ({
    keyId: i === 0 ? `key_${T.svg}` : `key_hostile_${i}`,
    name,
    calls: 100 + i,
    lastUsedAt: i === 1 ? 'not a date' : new Date(Date.UTC(2026, 0, i + 1)).toISOString(),
  }));
  return [...base, ...rows];
}

/** Detail records with hostile values, hostile field names, numbers as strings and odd shapes. */
export function hostileDetails(base: readonly UsageDetailRecord[]): UsageDetailRecord[] {
  const records: UsageDetailRecord[] = [
    {
      id: 'rec_hostile_1',
      endpoint: T.imgTag,
      method: T.scriptClose,
      statusCode: '200',
      units: -3,
      meta: { note: T.svg },
    },
    {
      id: 'rec_hostile_2',
      endpoint: T.commandLink,
      method: 'GET',
      statusCode: 201,
      units: 0.125,
      [T.imgTag]: 'hostile field name',
    },
    {
      id: 'rec_hostile_3',
      endpoint: T.emoji,
      method: T.rtl,
      statusCode: null,
      units: '7',
      meta: [T.markdown, { deep: T.long }],
    },
    { id: 'rec_hostile_4', endpoint: T.long, method: 'PATCH', statusCode: 500, units: 1 },
  ];
  return [...records, ...base];
}

/** A summary with a hostile tier and meters below zero, fractional, as strings, and with nothing included. */
export function hostileSummary(period: string): UsageSummary {
  return {
    billingPeriod: period,
    tier: T.imgTag,
    usage: {
      calls: { used: -5, included: 100_000, overage: -1 },
      webhooks: { used: 10, included: 0, overage: 10 },
      storage_gb: { used: '7.3333333' as unknown as number, included: 10.5, overage: 0 },
    },
  };
}
