// A period whose records tell a story: a steady number of calls a day spread over the demo keys,
// and planted spikes (a day on which one key called one endpoint many times more). The records
// account for the calls meter one record a call, so the day the included amount was passed is
// in them; the per-key table is counted from them. For the breakdown's tests, e2e pictures and
// bench. Deterministic (seeded).
import type { ServiceStore } from './store';
import type { SeededDetail } from './types';
import { createRng, meter, pick, randomId, TIER } from './seed';
import { periodBounds } from './period';

const DAY = 86_400_000;

export interface PlantedSpike {
  /** Day of the month (1-based). */
  day: number;
  /** Records added that day, all with this key, method and endpoint. */
  records: number;
  keyId: string;
  method: string;
  endpoint: string;
}

export interface PlantedPeriod {
  period: string;
  /** Records on each day before `days` ends (the steady calls). */
  perDay: number;
  /** Days of the month with records (1 … days); default the whole month. */
  days?: number;
  spikes?: readonly PlantedSpike[];
  /** No record is later than this (the service's clock: today's records are of its hours so far). */
  now?: Date;
  /** The calls meter's included amount; default the steady calls of the whole month. */
  included?: number;
  seed?: number;
}

/** The keys the steady calls come from, and their names in the per-key table. */
export const PLANTED_KEYS: ReadonlyArray<{ keyId: string; name: string }> = [
  { keyId: 'key_admin', name: 'Admin (demo)' },
  { keyId: 'key_writer', name: 'Writer (second full key)' },
  { keyId: 'key_readonly', name: 'Read-only dashboard' },
  { keyId: 'key_ci', name: 'CI pipeline' },
];

const CALLS = [
  { method: 'GET', endpoint: '/v1/engagements' },
  { method: 'GET', endpoint: '/v1/usage/summary' },
  { method: 'PATCH', endpoint: '/v1/engagements/eng_1' },
  { method: 'GET', endpoint: '/v1/usage/by-key' },
];

/** Stores the period's records, per-key calls and summary in the service; returns the records (newest first, as served). */
export function plantPeriod(store: ServiceStore, plan: PlantedPeriod): SeededDetail[] {
  const rng = createRng(plan.seed ?? 7);
  const { start, end } = periodBounds(plan.period);
  const days = plan.days ?? Math.round((end - start) / DAY);
  const records: SeededDetail[] = [];
  const add = (day: number, keyId: string, call: { method: string; endpoint: string }) => {
    const from = start + (day - 1) * DAY;
    const span = Math.max(1, Math.min(DAY, (plan.now?.getTime() ?? Infinity) - from));
    const at = from + Math.floor(rng() * span);
    records.push({
      id: randomId(rng, 'req_', 12),
      timestamp: new Date(at).toISOString(),
      keyId,
      endpoint: call.endpoint,
      method: call.method,
      statusCode: rng() < 0.05 ? 429 : call.method === 'POST' ? 201 : 200,
      durationMs: 20 + Math.floor(rng() * 400),
      units: 1 + Math.floor(rng() * 3),
      meta: { region: 'eu-west-1', sdk: 'node/2.3.1' },
    });
  };
  for (let day = 1; day <= days; day++)
    for (let i = 0; i < plan.perDay; i++) add(day, pick(rng, PLANTED_KEYS).keyId, pick(rng, CALLS));
  for (const spike of plan.spikes ?? []) for (let i = 0; i < spike.records; i++) add(spike.day, spike.keyId, spike);
  records.sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  store.setDetails(plan.period, records);
  const lastUsed = new Map<string, string>();
  const calls = new Map<string, number>();
  for (const record of records) {
    calls.set(record.keyId, (calls.get(record.keyId) ?? 0) + 1);
    if (!lastUsed.has(record.keyId)) lastUsed.set(record.keyId, record.timestamp);
  }
  store.setByKey(
    plan.period,
    PLANTED_KEYS.filter((k) => calls.has(k.keyId)).map((k) => ({
      keyId: k.keyId,
      name: k.name,
      calls: calls.get(k.keyId) ?? 0,
      lastUsedAt: lastUsed.get(k.keyId) ?? '',
    })),
  );
  const included = plan.included ?? plan.perDay * Math.round((end - start) / DAY);
  store.setSummary(plan.period, {
    billingPeriod: plan.period,
    tier: TIER,
    usage: { calls: meter(records.length, included), webhooks: meter(0, 20_000), storage_gb: meter(1, 10) },
  });
  return records;
}
