// Shapes of the Engagement and Usage Service contract (section 2) and of what the client makes
// of them. Fields the contract does not name are kept as they come (index signatures), so
// nothing the service sends is lost. The engagement itself is src/core/engagement.ts's.
import type { Engagement } from '../core/engagement';

export interface Page<T> {
  data: T[];
  page: number;
  pageSize: number;
  totalCount: number;
  /** The service sent no total (a bare array): one more item is assumed after a full page. */
  totalEstimated?: boolean;
  /**
   * Where the service said its next page is, when it is not `page + 1` in the size asked: a
   * link (by offset or cursor) or a cursor to send back. Followed rather than `page + 1`.
   */
  next?: NextPage;
  /** The service said whether a page follows (a next link or cursor, `has_more`, `next: null`); undefined when it did not say. */
  more?: boolean;
  /** Rows of this page left out of `data`: they have no usable id (the log says which). */
  skipped?: number;
}

/**
 * The service's own way to its next page: an absolute URL it named (a `next` link in the body
 * or a `Link` header; the client sends the key only within the base URL), or query parameters
 * to send back with the list's own (a cursor token, or the last item's id after `has_more`).
 */
export type NextPage = { url: string } | { query: Record<string, string> };

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
  /** The next page as the service named it: sent instead of `page`. */
  next?: NextPage;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/**
 * How a write's result was learned: from its answer, or read back because the answer carried
 * no whole engagement: from its `Location`, from the id its body named, by reading the updated
 * engagement again, or by searching for the newest one with the name and type sent.
 */
export type WriteSource = 'answer' | 'location' | 'named' | 'reread' | 'search';

export interface WriteResult {
  /** The engagement as the service now holds it. */
  engagement: Engagement;
  source: WriteSource;
  /** The service answered 202: it accepted the change and may apply it a little later. */
  accepted: boolean;
}

/**
 * A write the service accepted (202) and does not show yet: a read-back found no engagement
 * (or one without the change). Not a failure: it is looked for again (see
 * `src/engagements/accepted.ts`) until it appears.
 */
export type AcceptedWrite =
  | {
      pending: 'create';
      /** The engagement's id, when the answer named it: in its `Location`, or in its body. */
      id?: string;
      named?: 'location' | 'named';
      /** What was sent (the POST body). */
      input: NewEngagement;
      /** When it was sent (ms since epoch, this machine's clock). */
      sentAt: number;
      /**
       * The earliest `createdAt` the engagement can have (ms since epoch): a search for it
       * passes over older engagements with the same name and type.
       */
      createdFrom: number;
    }
  | {
      pending: 'update';
      id: string;
      /** What was sent (the PATCH body). */
      changes: EngagementChanges;
      sentAt: number;
    };

/** What a create or update came to: done (with the engagement), or accepted and not shown yet. */
export type WriteOutcome = WriteResult | AcceptedWrite;

export function isAccepted(outcome: WriteOutcome): outcome is AcceptedWrite {
  return 'pending' in outcome;
}
