// Data shapes of the reference service. They mirror the service contract on purpose without
// importing anything from src/: the stand-in must not share mistakes with the client.

export type Scope = 'engagements:read' | 'engagements:write' | 'usage:read';

export const ALL_SCOPES: readonly Scope[] = ['engagements:read', 'engagements:write', 'usage:read'];

/** An API key the service accepts. `key` is the full secret string sent as the bearer token. */
export interface KeySpec {
  key: string;
  keyId: string;
  name: string;
  scopes: Scope[];
}

export interface Engagement {
  id: string;
  name: string;
  description?: string;
  type: string;
  status: string;
  evaluationCount: number;
  createdAt: string;
  updatedAt: string;
}

/** Statuses a PATCH may set. Seeded data uses all four; the contract itself names only two. */
export const ENGAGEMENT_STATUSES: readonly string[] = ['active', 'paused', 'completed', 'archived'];

/**
 * The longest name the service takes (the contract leaves length limits open): a longer one is
 * refused (422, naming the field), as a real service's validation would.
 */
export const NAME_MAX_LENGTH = 200;

export const ENGAGEMENT_TYPES: readonly string[] = ['quality-review', 'sales-coaching', 'support-audit', 'onboarding'];

export interface Meter {
  used: number;
  included: number;
  overage: number;
}

export type MeterName = 'calls' | 'webhooks' | 'storage_gb';

export interface UsageSummary {
  billingPeriod: string;
  tier: string;
  usage: Record<MeterName, Meter>;
}

export interface KeyUsage {
  keyId: string;
  name: string;
  calls: number;
  lastUsedAt: string;
}

/** Detail records are open-shaped in the contract; the seeded ones look like SeededDetail. */
export type UsageDetailRecord = Record<string, unknown>;

export interface SeededDetail {
  id: string;
  timestamp: string;
  keyId: string;
  endpoint: string;
  method: string;
  statusCode: number;
  durationMs: number;
  units: number;
  meta: { region: string; sdk: string };
  [extra: string]: unknown;
}
