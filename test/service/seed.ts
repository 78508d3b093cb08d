// Deterministic demo data. Everything random comes from one seeded PRNG, so the same seed
// gives the same data; only the time base follows the service's clock (`now`).
import type { Engagement, KeySpec, KeyUsage, Meter, MeterName, Scope, SeededDetail, UsageSummary } from './types';
import { ALL_SCOPES, ENGAGEMENT_TYPES } from './types';
import { periodBounds, periodOf, shiftPeriod } from './period';

export type Rng = () => number;

/** mulberry32: a tiny, fast 32-bit PRNG; plenty for demo data. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)];
}

export function randomId(rng: Rng, prefix: string, length = 8): string {
  let id = prefix;
  for (let i = 0; i < length; i++) id += Math.floor(rng() * 36).toString(36);
  return id;
}

const DAY = 86_400_000;

export const TIER = 'Growth';
export const INCLUDED: Record<MeterName, number> = { calls: 100_000, webhooks: 20_000, storage_gb: 10 };

/** The demo keys, by role. Key strings are `<keyId>.<secret>`. */
export const DEMO_KEYS = {
  admin: { key: 'key_admin.demo-admin-7f3a9c', keyId: 'key_admin', name: 'Admin (demo)', scopes: [...ALL_SCOPES] },
  readOnly: {
    key: 'key_readonly.demo-read-4b21e8',
    keyId: 'key_readonly',
    name: 'Read-only dashboard',
    scopes: ['engagements:read', 'usage:read'],
  },
  usageOnly: {
    key: 'key_billing.demo-usage-93cd17',
    keyId: 'key_billing',
    name: 'Billing reporter',
    scopes: ['usage:read'],
  },
  noUsage: {
    key: 'key_bot.demo-eng-5e80a2',
    keyId: 'key_bot',
    name: 'Engagements bot',
    scopes: ['engagements:read', 'engagements:write'],
  },
  writer: {
    key: 'key_writer.demo-writer-c61f04',
    keyId: 'key_writer',
    name: 'Writer (second full key)',
    scopes: [...ALL_SCOPES],
  },
} satisfies Record<string, KeySpec>;

export type DemoKeyRole = keyof typeof DEMO_KEYS;

/** Keys that appear only in the per-key usage data (no request can be made with them). */
const USAGE_ONLY_KEYS = [
  { keyId: 'key_ci', name: 'CI pipeline' },
  { keyId: 'key_legacy', name: 'Legacy staging key' },
];

export function demoKeySpecs(): KeySpec[] {
  return Object.values(DEMO_KEYS).map((spec) => ({ ...spec, scopes: [...spec.scopes] as KeySpec['scopes'] }));
}

const NAME_PATTERNS: Record<string, readonly string[]> = {
  'quality-review': ['{q} Support Quality Review', '{region} Call Quality Baseline', 'Chat Quality Review – {team}'],
  'sales-coaching': ['{region} Sales Coaching', 'Discovery Call Coaching {q}', 'Enterprise Deal Reviews – {team}'],
  'support-audit': ['{q} Escalation Audit', 'Refund Handling Audit – {region}', 'Tier 2 Support Audit {q}'],
  onboarding: ['New Hire Onboarding – {team}', '{region} Onboarding Calls', 'Onboarding Script Check {q}'],
};
const QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4'];
const REGIONS = ['EMEA', 'APAC', 'LATAM', 'North America', 'DACH', 'Nordics'];
const TEAMS = ['Team Falcon', 'Night Shift', 'Tier 1', 'Enterprise', 'SMB', 'Zürich Hub'];
/** Descriptions by type, so that each says what its engagement's name promises. */
const DESCRIPTIONS: Record<string, readonly string[]> = {
  'quality-review': [
    'Scores a weekly sample of calls against the updated rubric.',
    'Baseline evaluation before the tooling change; compare with the follow-up engagement.',
  ],
  'sales-coaching': [
    'Coaching loop for new account executives: discovery, objection handling and next steps.',
    'Reviews recorded calls with each rep against the sales playbook.',
  ],
  'support-audit': [
    'Tracks how agents handle escalations before and after the new playbook.',
    'Checks that refund policies are quoted correctly and consistently.',
  ],
  onboarding: [
    'Checks that new hires follow the onboarding script in their first calls.',
    'Scores the first two weeks of calls of each new hire.',
  ],
};
const OTHER_DESCRIPTIONS = ['Evaluations of a sample of calls.'];

function engagementName(rng: Rng, type: string): string {
  return pick(rng, NAME_PATTERNS[type] ?? ['Engagement {q}'])
    .replace('{q}', pick(rng, QUARTERS))
    .replace('{region}', pick(rng, REGIONS))
    .replace('{team}', pick(rng, TEAMS));
}

function engagementStatus(rng: Rng): string {
  const r = rng();
  return r < 0.5 ? 'active' : r < 0.8 ? 'completed' : r < 0.92 ? 'paused' : 'archived';
}

/** `count` engagements, newest first, created within the ~200 days before `now`. */
export function generateEngagements(rng: Rng, count: number, now: Date): Engagement[] {
  const nowMs = now.getTime();
  const ids = new Set<string>();
  const list: Engagement[] = [];
  for (let i = 0; i < count; i++) {
    let id = randomId(rng, 'eng_');
    while (ids.has(id)) id = randomId(rng, 'eng_');
    ids.add(id);
    const type = pick(rng, ENGAGEMENT_TYPES);
    const created = nowMs - Math.floor(rng() * 200 * DAY) - 60_000;
    const updated = created + Math.floor(rng() * (nowMs - created));
    const engagement: Engagement = {
      id,
      name: engagementName(rng, type),
      type,
      status: engagementStatus(rng),
      evaluationCount: Math.floor(rng() * 401),
      createdAt: new Date(created).toISOString(),
      updatedAt: new Date(updated).toISOString(),
    };
    const r = rng();
    if (r >= 0.2) engagement.description = r < 0.35 ? '' : pick(rng, DESCRIPTIONS[type] ?? OTHER_DESCRIPTIONS);
    list.push(engagement);
  }
  return list.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

export function meter(used: number, included: number): Meter {
  return { used, included, overage: Math.max(0, Math.round((used - included) * 1000) / 1000) };
}

export function makeSummary(period: string, used: Record<MeterName, number>): UsageSummary {
  return {
    billingPeriod: period,
    tier: TIER,
    usage: {
      calls: meter(used.calls, INCLUDED.calls),
      webhooks: meter(used.webhooks, INCLUDED.webhooks),
      storage_gb: meter(used.storage_gb, INCLUDED.storage_gb),
    },
  };
}

/** Usage per month, index 0 = current period. Month -1 is over on calls, month -2 on webhooks. */
const SEEDED_USAGE: readonly Record<MeterName, number>[] = [
  { calls: 82_140, webhooks: 9_410, storage_gb: 7.35 },
  { calls: 108_450, webhooks: 18_200, storage_gb: 6.9 },
  { calls: 91_300, webhooks: 21_540, storage_gb: 6.42 },
  { calls: 76_880, webhooks: 15_020, storage_gb: 5.87 },
  { calls: 69_215, webhooks: 12_760, storage_gb: 5.31 },
  { calls: 58_904, webhooks: 11_005, storage_gb: 4.8 },
  { calls: 51_230, webhooks: 9_310, storage_gb: 4.21 },
  { calls: 44_075, webhooks: 8_120, storage_gb: 3.64 },
  { calls: 36_720, webhooks: 6_405, storage_gb: 2.93 },
  { calls: 21_480, webhooks: 3_870, storage_gb: 2.05 },
];
export const SEEDED_PERIODS = SEEDED_USAGE.length;

export interface SeededPeriod {
  summary: UsageSummary;
  byKey: KeyUsage[];
  details: SeededDetail[];
}

/** Usage data for the current period and the nine before it, keyed by period. */
export function generateUsage(rng: Rng, now: Date): Map<string, SeededPeriod> {
  const result = new Map<string, SeededPeriod>();
  const current = periodOf(now);
  SEEDED_USAGE.forEach((used, offset) => {
    const period = shiftPeriod(current, -offset);
    const { start, end } = periodBounds(period);
    const until = Math.min(end, now.getTime());
    const byKey = generateByKey(rng, offset, used.calls, start, until);
    const details = generateDetails(rng, byKey, start, until);
    result.set(period, { summary: makeSummary(period, used), byKey, details });
  });
  return result;
}

function generateByKey(rng: Rng, offset: number, total: number, start: number, until: number): KeyUsage[] {
  const d = DEMO_KEYS;
  const ci = USAGE_ONLY_KEYS[0];
  const legacy = USAGE_ONLY_KEYS[1];
  const owners: { keyId: string; name: string; weight: number }[] = [
    { ...d.admin, weight: 40 },
    { ...d.writer, weight: 20 },
    { ...d.readOnly, weight: 15 },
    { ...ci, weight: 15 },
    { ...d.noUsage, weight: 7 },
  ];
  if (offset <= 2) owners.push({ ...d.usageOnly, weight: 3 });
  if (offset >= 3) owners.push({ ...legacy, weight: 10 });
  const weights = owners.map((o) => o.weight * (0.8 + rng() * 0.4));
  const sum = weights.reduce((a, b) => a + b, 0);
  let remaining = total;
  return owners.map((owner, i) => {
    const calls = i === owners.length - 1 ? remaining : Math.floor((total * weights[i]) / sum);
    remaining -= calls;
    const span = Math.min(until - start, 3 * DAY);
    const lastUsed = until - 1 - Math.floor(rng() * span);
    return { keyId: owner.keyId, name: owner.name, calls, lastUsedAt: new Date(lastUsed).toISOString() };
  });
}

const ENDPOINTS: readonly {
  method: string;
  path: string;
  scope: Scope;
  weight: number;
  ok: number;
  errors: number[];
}[] = [
  { method: 'GET', path: '/v1/engagements', scope: 'engagements:read', weight: 35, ok: 200, errors: [401, 429, 500] },
  { method: 'GET', path: '/v1/engagements/{id}', scope: 'engagements:read', weight: 20, ok: 200, errors: [404, 429] },
  { method: 'POST', path: '/v1/engagements', scope: 'engagements:write', weight: 8, ok: 201, errors: [422, 429] },
  { method: 'PATCH', path: '/v1/engagements/{id}', scope: 'engagements:write', weight: 7, ok: 200, errors: [404, 422] },
  { method: 'GET', path: '/v1/usage/summary', scope: 'usage:read', weight: 15, ok: 200, errors: [400, 429] },
  { method: 'GET', path: '/v1/usage/details', scope: 'usage:read', weight: 8, ok: 200, errors: [400, 500] },
  { method: 'GET', path: '/v1/usage/by-key', scope: 'usage:read', weight: 7, ok: 200, errors: [403] },
];
/** What each demo key may do; a call it has no scope for is answered 403 (a read-only key never writes). */
const withScope = (allowed: boolean, status: number) => (allowed ? status : 403);
const SCOPES_BY_KEY = new Map<string, readonly Scope[]>(Object.values(DEMO_KEYS).map((k) => [k.keyId, k.scopes]));
const ENDPOINT_WEIGHT = ENDPOINTS.reduce((a, e) => a + e.weight, 0);
const REGIONS_META = ['eu-west-1', 'us-east-1', 'ap-southeast-2'];
const SDKS = ['node/2.3.1', 'python/1.8.0', 'curl/8.5.0', 'vscode-ext/0.1.0'];

function weighted<T extends { weight: number }>(rng: Rng, items: readonly T[], total: number): T {
  let r = rng() * total;
  for (const item of items) {
    r -= item.weight;
    if (r < 0) return item;
  }
  return items[items.length - 1];
}

function generateDetails(rng: Rng, keys: KeyUsage[], start: number, until: number): SeededDetail[] {
  const count = 115 + Math.floor(rng() * 11);
  const keyWeights = keys.map((k) => ({ keyId: k.keyId, weight: k.calls + 1 }));
  const keyTotal = keyWeights.reduce((a, k) => a + k.weight, 0);
  const records: SeededDetail[] = [];
  for (let i = 0; i < count; i++) {
    const endpoint = weighted(rng, ENDPOINTS, ENDPOINT_WEIGHT);
    const failed = rng() < 0.08;
    const id = randomId(rng, 'req_', 10);
    const timestamp = new Date(start + Math.floor(rng() * Math.max(1, until - start))).toISOString();
    const keyId = weighted(rng, keyWeights, keyTotal).keyId;
    const allowed = SCOPES_BY_KEY.get(keyId)?.includes(endpoint.scope) ?? true;
    records.push({
      id,
      timestamp,
      keyId,
      endpoint: endpoint.path.replace('{id}', randomId(rng, 'eng_')),
      method: endpoint.method,
      // Drawn whether or not the key may call it, so every other record stays as it was seeded.
      statusCode: withScope(allowed, failed ? pick(rng, endpoint.errors) : endpoint.ok),
      durationMs: 18 + Math.floor(rng() * rng() * 900),
      units: endpoint.path === '/v1/usage/details' ? 1 + Math.floor(rng() * 4) : 1,
      meta: { region: pick(rng, REGIONS_META), sdk: pick(rng, SDKS) },
    });
  }
  return records.sort((a, b) => b.timestamp.localeCompare(a.timestamp));
}
