// The service's data: engagements (newest first), API keys and usage per billing period.
// Tests may reach in and reshape any of it (hostile strings, 10,000 items, odd shapes).
import type { Engagement, KeySpec, KeyUsage, MeterName, UsageDetailRecord, UsageSummary } from './types';
import type { Rng } from './seed';
import { createRng, demoKeySpecs, generateEngagements, generateUsage, makeSummary, randomId } from './seed';
import { periodOf } from './period';

export interface StoreOptions {
  seed: number;
  engagementCount: number;
  now: () => Date;
}

export interface NewEngagementInput {
  name: string;
  type: string;
  description?: string;
}

export interface EngagementChangesInput {
  name?: string;
  description?: string;
  status?: string;
}

const ZERO_USAGE: Record<MeterName, number> = { calls: 0, webhooks: 0, storage_gb: 0 };

function clone<T>(value: T): T {
  return structuredClone(value);
}

export class ServiceStore {
  private list: Engagement[] = [];
  /** Writes accepted (202) to be applied later, at `at` by the service clock, in order. */
  private deferred: Array<{ at: number; apply: () => void }> = [];
  /** Ids given to accepted creates not made yet. */
  private readonly promised = new Set<string>();
  /** Keys that may call the service. */
  keys: KeySpec[] = [];
  private readonly summaries = new Map<string, UsageSummary>();
  private readonly byKeys = new Map<string, KeyUsage[]>();
  private readonly detailsByPeriod = new Map<string, UsageDetailRecord[]>();
  private rng: Rng;
  private idRng: Rng;
  /** The first billing period of the account: the summary of an earlier one is answered 404. Unset: every period has a summary. */
  accountStart?: string;

  /**
   * Engagements in list order (newest first). Replace with setEngagements or edit in place.
   * Reading them first applies the accepted writes that are due by the service clock.
   */
  get engagements(): Engagement[] {
    this.applyDue();
    return this.list;
  }

  set engagements(list: Engagement[]) {
    this.list = list;
  }

  /** Applies `apply` `delayMs` from now by the service clock (an accepted write processed later). */
  defer(delayMs: number, apply: () => void): void {
    this.deferred.push({ at: this.options.now().getTime() + delayMs, apply });
  }

  /** How many accepted writes are still to be applied. */
  get deferredCount(): number {
    return this.deferred.length;
  }

  private applyDue(): void {
    if (this.deferred.length === 0) return;
    const now = this.options.now().getTime();
    const due = this.deferred.filter((d) => d.at <= now);
    if (due.length === 0) return;
    this.deferred = this.deferred.filter((d) => d.at > now);
    for (const { apply } of due) apply();
  }

  constructor(private readonly options: StoreOptions) {
    this.rng = createRng(options.seed);
    this.idRng = createRng(options.seed ^ 0x5bd1e995);
    this.reset();
  }

  /** Back to the seeded data: same seed, same data; timestamps relative to `now()`. */
  reset(): void {
    const now = this.options.now();
    this.deferred = [];
    this.promised.clear();
    this.rng = createRng(this.options.seed);
    this.idRng = createRng(this.options.seed ^ 0x5bd1e995);
    this.engagements = generateEngagements(this.rng, this.options.engagementCount, now);
    this.keys = demoKeySpecs();
    this.accountStart = undefined;
    this.summaries.clear();
    this.byKeys.clear();
    this.detailsByPeriod.clear();
    for (const [period, data] of generateUsage(this.rng, now)) {
      this.summaries.set(period, data.summary);
      this.byKeys.set(period, data.byKey);
      this.detailsByPeriod.set(period, data.details);
    }
  }

  // ---- engagements ----

  /** Replaces all engagements (copied; order kept). */
  setEngagements(list: readonly Engagement[]): void {
    this.deferred = [];
    this.promised.clear();
    this.engagements = list.map(clone);
  }

  /** Replaces all engagements with `n` generated ones. */
  seedEngagements(n: number): void {
    this.deferred = [];
    this.promised.clear();
    this.engagements = generateEngagements(this.rng, n, this.options.now());
  }

  getEngagement(id: string): Engagement | undefined {
    return this.engagements.find((e) => e.id === id);
  }

  /**
   * Makes an engagement; with `delayMs`, an accepted create: its id is given now, but it is
   * made (and listed, with that creation time) only `delayMs` later by the service clock.
   */
  createEngagement(input: NewEngagementInput, delayMs = 0): Engagement {
    let id = randomId(this.idRng, 'eng_');
    while (this.getEngagement(id) || this.promised.has(id)) id = randomId(this.idRng, 'eng_');
    const when = new Date(this.options.now().getTime() + delayMs);
    const at = when.toISOString();
    const engagement: Engagement = {
      id,
      name: input.name,
      type: input.type,
      status: 'active',
      evaluationCount: 0,
      createdAt: at,
      updatedAt: at,
    };
    if (input.description !== undefined) engagement.description = input.description;
    if (delayMs <= 0) {
      this.engagements.unshift(engagement);
      return engagement;
    }
    this.promised.add(id);
    this.defer(delayMs, () => {
      this.promised.delete(id);
      this.list.unshift(engagement);
    });
    return structuredClone(engagement);
  }

  /** Applies the given fields; updatedAt always moves strictly later. Undefined if unknown. */
  updateEngagement(id: string, changes: EngagementChangesInput): Engagement | undefined {
    const engagement = this.getEngagement(id);
    if (!engagement) return undefined;
    if (changes.name !== undefined) engagement.name = changes.name;
    if (changes.description !== undefined) engagement.description = changes.description;
    if (changes.status !== undefined) engagement.status = changes.status;
    const previous = Date.parse(engagement.updatedAt);
    const now = this.options.now().getTime();
    engagement.updatedAt = new Date(Number.isFinite(previous) && previous >= now ? previous + 1 : now).toISOString();
    return engagement;
  }

  // ---- keys ----

  /** Adds a key (or replaces the one with the same keyId). */
  addKey(spec: KeySpec): void {
    this.keys = this.keys.filter((k) => k.keyId !== spec.keyId);
    this.keys.push({ ...spec, scopes: [...spec.scopes] });
  }

  removeKey(keyId: string): void {
    this.keys = this.keys.filter((k) => k.keyId !== keyId);
  }

  findKey(key: string): KeySpec | undefined {
    return this.keys.find((k) => k.key === key);
  }

  // ---- usage ----

  /** The summary of a period; a period without data has zero usage. Returned as stored. */
  summary(period: string): UsageSummary {
    return this.summaries.get(period) ?? makeSummary(period, ZERO_USAGE);
  }

  /** Whether the service has a summary for the period (not before the account existed). */
  knowsPeriod(period: string): boolean {
    return this.accountStart === undefined || period >= this.accountStart;
  }

  /** Stores a summary for a period; it is served verbatim (cast odd shapes in tests). */
  setSummary(period: string, summary: UsageSummary): void {
    this.summaries.set(period, summary);
  }

  byKey(period: string): KeyUsage[] {
    return this.byKeys.get(period) ?? [];
  }

  setByKey(period: string, keys: readonly KeyUsage[]): void {
    this.byKeys.set(period, keys.map(clone));
  }

  details(period: string): UsageDetailRecord[] {
    return this.detailsByPeriod.get(period) ?? [];
  }

  /** Stores the detail records of a period, in the order given (served verbatim). */
  setDetails(period: string, records: readonly UsageDetailRecord[]): void {
    this.detailsByPeriod.set(period, [...records]);
  }

  /** Live counting: one more call for the key in the period of `at`. */
  recordCall(key: KeySpec, at: Date): void {
    const period = periodOf(at);
    let rows = this.byKeys.get(period);
    if (!rows) this.byKeys.set(period, (rows = []));
    let row = rows.find((r) => r.keyId === key.keyId);
    if (!row) rows.push((row = { keyId: key.keyId, name: key.name, calls: 0, lastUsedAt: at.toISOString() }));
    row.calls += 1;
    row.lastUsedAt = at.toISOString();
  }

  /** The current billing period according to the service clock. */
  currentPeriod(): string {
    return periodOf(this.options.now());
  }
}
