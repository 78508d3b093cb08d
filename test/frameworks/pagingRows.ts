// The rows the paging services (fastifyOffset.ts, honoCursor.ts, fastifyLinkHeader.ts) hold,
// made here once so that the three differ only in how they page. Two shapes, as the framework
// at hand would hand rows over: the Fastify services answer database rows (integer ids,
// snake_case columns, as an ORM maps them), the Hono service answers the contract's camelCase
// names with string ids. The usage summary and by-key answers are fixed and have the
// contract's shape in every service. Also the base64url helpers the opaque cursors use.

import type { Engagement, SeededDetail } from '../service/types';

/** An engagement as an ORM hands it over: integer id, snake_case columns. */
export interface SnakeEngagement extends EngagementRow {
  evaluation_count: number;
  created_at: string;
  updated_at: string;
}

/** An engagement row as the database holds it; a column an old row lacks is absent. */
export interface EngagementRow {
  id: number;
  name: string;
  description: string | null;
  type: string;
  status: string;
  evaluation_count?: number;
  created_at?: string;
  updated_at?: string;
}

/** An engagement with the contract's field names and a string id: the reference service's. */
export type { Engagement as CamelEngagement } from '../service/types';

/** A usage detail record as the Fastify services hold it. */
export interface SnakeUsageRecord {
  id: number;
  timestamp: string;
  key_id: string;
  endpoint: string;
  method: string;
  status_code: number;
  units: number;
}

/** A usage detail record as the Hono service holds it: the reference service's fields, fewer. */
export type CamelUsageRecord = Pick<
  SeededDetail,
  'id' | 'timestamp' | 'keyId' | 'endpoint' | 'method' | 'statusCode' | 'units'
>;

/** The types the paging services hand out (the contract leaves the list open). */
export const PAGING_TYPES = ['evaluation', 'pilot', 'quality-review'] as const;
/** The statuses a PATCH may set. */
export const PAGING_STATUSES = ['active', 'completed', 'archived'] as const;
/** The one billing period that has detail records unless a service is told otherwise. */
export const USAGE_PERIOD = '2026-10';

const MINUTE = 60_000;
const createdAt = (i: number) => new Date(Date.UTC(2026, 8, 1, 9) + i * MINUTE).toISOString();
const updatedAt = (i: number) => new Date(Date.UTC(2026, 9, 1, 9) + i * MINUTE).toISOString();

/**
 * `count` rows numbered from 1; every fourth has a description, every third is completed; the
 * i-th (from 0) has i × `evaluationsEach` evaluations.
 */
export function snakeEngagements(count: number, evaluationsEach = 2): SnakeEngagement[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `Engagement ${i + 1}`,
    description: i % 4 ? null : `Row ${i + 1} of the table`,
    type: PAGING_TYPES[i % PAGING_TYPES.length],
    status: i % 3 ? 'active' : 'completed',
    evaluation_count: i * evaluationsEach,
    created_at: createdAt(i),
    updated_at: updatedAt(i),
  }));
}

/** The same rows with string ids `eng_0001`… and the contract's names (no description: absent). */
export function camelEngagements(count: number): Engagement[] {
  return snakeEngagements(count).map((row) => ({
    id: camelEngagementId(row.id),
    name: row.name,
    ...(row.description === null ? {} : { description: row.description }),
    type: row.type,
    status: row.status,
    evaluationCount: row.evaluation_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));
}

/** `eng_0007` for the seventh engagement. */
export function camelEngagementId(n: number): string {
  return `eng_${String(n).padStart(4, '0')}`;
}

const ENDPOINTS = [
  ['GET', '/v1/engagements'],
  ['GET', '/v1/engagements/{id}'],
  ['POST', '/v1/engagements'],
  ['PATCH', '/v1/engagements/{id}'],
  ['GET', '/v1/usage/summary'],
] as const;

/** `count` records of the period, one every 2 hours from its first day, oldest first. */
export function snakeUsageRecords(count: number, period = USAGE_PERIOD): SnakeUsageRecord[] {
  const [year, month] = period.split('-').map(Number);
  const start = Date.UTC(year, month - 1, 1);
  return Array.from({ length: count }, (_, i) => {
    const [method, endpoint] = ENDPOINTS[i % ENDPOINTS.length];
    return {
      id: i + 1,
      timestamp: new Date(start + i * 2 * 3_600_000).toISOString(),
      key_id: i % 3 ? 'key_prod' : 'key_staging',
      endpoint,
      method,
      status_code: i % 17 === 5 ? 429 : method === 'POST' ? 201 : 200,
      units: 1 + (i % 5),
    };
  });
}

/** The same records with string ids `ur_00001`… and camelCase names. */
export function camelUsageRecords(count: number, period = USAGE_PERIOD): CamelUsageRecord[] {
  return snakeUsageRecords(count, period).map((r) => ({
    id: `ur_${String(r.id).padStart(5, '0')}`,
    timestamp: r.timestamp,
    keyId: r.key_id,
    endpoint: r.endpoint,
    method: r.method,
    statusCode: r.status_code,
    units: r.units,
  }));
}

/** The fixed usage summary, in the contract's shape. */
export function usageSummary(billingPeriod: string) {
  const meter = (used: number, included: number) => ({ used, included, overage: Math.max(0, used - included) });
  return {
    billingPeriod,
    tier: 'growth',
    usage: { calls: meter(82_000, 100_000), webhooks: meter(5_200, 5_000), storage_gb: meter(7.35, 10) },
  };
}

/** The fixed usage by key, in the contract's shape. */
export function usageByKey(billingPeriod: string) {
  return {
    billingPeriod,
    keys: [
      { keyId: 'key_prod', name: 'Production', calls: 61_000, lastUsedAt: '2026-10-20T08:00:00.000Z' },
      { keyId: 'key_staging', name: 'Staging', calls: 21_000, lastUsedAt: '2026-10-19T17:30:00.000Z' },
    ],
  };
}

export function toBase64Url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** The text a base64url token stands for, or undefined when it is not base64url. */
export function fromBase64Url(token: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  return Buffer.from(token, 'base64url').toString('utf8');
}
