// An engagement as the contract (section 2) names it: the one shape the client reads an answer
// into (src/api/readings.ts) and the pure logic of src/core shows, sorts and filters. Fields
// the contract does not name are kept as they come (the index signature).

export interface Engagement {
  id: string;
  /**
   * Undefined when the service sent none or a malformed one: the row is still listed, its name
   * shown as unknown (the log says so once per answer). The same for `type` and `status`.
   */
  name?: string;
  description?: string;
  type?: string;
  /** Any string: the contract names `active` and `completed` but not the full set. */
  status?: string;
  /**
   * Only shown: undefined when the service sent none or a malformed one (shown as unknown; the
   * log says so once per answer). The same for `createdAt`, `updatedAt` and `description`.
   */
  evaluationCount?: number;
  createdAt?: string;
  updatedAt?: string;
  [extra: string]: unknown;
}

/** The engagement's fields the contract names: any other field the service sends is extra. */
export const ENGAGEMENT_FIELDS: readonly string[] = [
  'id',
  'name',
  'description',
  'type',
  'status',
  'evaluationCount',
  'createdAt',
  'updatedAt',
];
