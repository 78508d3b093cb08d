// Shapes of the Engagement and Usage Service contract (section 2). Fields the contract does
// not name are kept as they come (index signatures), so nothing the service sends is lost.

export interface Engagement {
  id: string;
  name: string;
  description?: string;
  type: string;
  /** Any string: the contract names `active` and `completed` but not the full set. */
  status: string;
  evaluationCount: number;
  createdAt: string;
  updatedAt: string;
  [extra: string]: unknown;
}

export interface Page<T> {
  data: T[];
  page: number;
  pageSize: number;
  totalCount: number;
  /** The service sent no total (a bare array): one more item is assumed after a full page. */
  totalEstimated?: boolean;
}

export interface NewEngagement {
  name: string;
  type: string;
  description?: string;
}

/** PATCH body: only the fields given are sent. `type` can never be changed. */
export interface EngagementChanges {
  name?: string;
  description?: string;
  status?: string;
}

export type MeterName = 'calls' | 'webhooks' | 'storage_gb';
export const METER_NAMES: readonly MeterName[] = ['calls', 'webhooks', 'storage_gb'];

export interface Meter {
  used: number;
  included: number;
  overage: number;
}

export interface UsageSummary {
  billingPeriod: string;
  tier: string;
  usage: Record<MeterName, Meter>;
  [extra: string]: unknown;
}

export interface KeyUsage {
  keyId: string;
  name: string;
  calls: number;
  lastUsedAt: string;
  [extra: string]: unknown;
}

export interface UsageByKey {
  billingPeriod: string;
  keys: KeyUsage[];
  [extra: string]: unknown;
}

/** The contract leaves detail records open: they are kept exactly as they come. */
export type UsageRecord = Record<string, unknown>;

export type Scope = 'engagements:read' | 'engagements:write' | 'usage:read';

export interface PageRequest {
  page?: number;
  pageSize?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** How a write's result was learned: from its answer, or read back because the answer had none. */
export type WriteSource = 'answer' | 'location' | 'reread' | 'search';

export interface WriteResult {
  /** The engagement as the service now holds it. */
  engagement: Engagement;
  source: WriteSource;
  /** The service answered 202: it accepted the change and may apply it a little later. */
  accepted: boolean;
}
