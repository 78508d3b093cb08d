// What a transport gives the agent tools: which environment an input names and a client for
// it, what it keeps of engagements between calls, the trend reader, links, and its log. VS Code
// (src/chat/target.ts) gives the user's environments and the tree's store; the MCP server
// (src/mcp/server.ts) the one environment it was started for. Free of `vscode`.
import type { Place } from '../api/errorText';
import type { ServiceApi } from '../api/service';
import type { AcceptedWrite, UsageRecord } from '../api/types';
import { BREAKDOWN_CAP } from '../core/breakdown';
import { l10n } from '../core/l10n';
import { FreshReads } from './freshReads';
import type { Engagement } from '../core/engagement';
import type { TrendPoint } from '../core/trend';

/** An environment as the tools name it. */
export interface ToolEnvironment {
  readonly id: string;
  readonly label: string;
  readonly baseUrl: string;
  readonly production?: boolean;
}

export interface Target {
  env: ToolEnvironment;
  api: ServiceApi;
  /** The environment the host shows (VS Code: the active one, whose tree follows what a tool reads and writes). */
  active: boolean;
}

/** A tool's answer that is not a result: said in words, with what to do. */
export class ToolRefusal extends Error {}

/** What a tool is given besides its input: the client's cancellation, and where progress goes. */
export interface ToolContext {
  /** Aborted when the client cancels the call: every read of the call stops. */
  signal?: AbortSignal;
  /** Told as a long read goes (over MCP: progress notifications, when the client asked for them). */
  progress?: (done: number, total: number, message: string) => void;
}

export interface WholeSet {
  items: readonly Engagement[];
  /** When it was read (ms since the epoch): it is said with every answer from it. */
  readAt: number;
  /** Rows the service sent without a usable id: not among `items` (they cannot be read or changed). */
  skipped?: number;
}

export interface ToolHost {
  /** Where it runs: its words differ (no view or VS Code setting named to an agent outside VS Code). */
  readonly place: Place;
  /** How the user replaces a key here, said after “the user can replace it”. */
  readonly replaceKey: string;
  /** The environment an input names (or the default one) with a client for it; refuses in words. */
  resolve(named: unknown): Promise<Target>;
  /** The label of the environment an input names, for the words of a failure; never throws. */
  labelOf(named: unknown): string | undefined;
  /** Every engagement of `target`, read unless a set fresh enough is held (one read for calls at once). */
  wholeSet(target: Target, context?: ToolContext): Promise<WholeSet>;
  /** The usage records of a period of `target` (up to the cap), read unless a set fresh enough is held. */
  records(target: Target, period: string, context?: ToolContext): Promise<RecordSet>;
  /** One engagement of `target` as last read, without reading. */
  known(target: Target, id: string): Engagement | undefined;
  /** A write landed: what the host keeps shows it. */
  written(target: Target, engagement: Engagement, created?: boolean): void;
  /** A write accepted for later (202). */
  accepted(target: Target, write: AcceptedWrite): void;
  /** The 12 periods up to `current` (the periods not held read with `signal`). */
  readTrend(
    target: Target,
    current: string,
    signal?: AbortSignal,
  ): Promise<{ data: { current: string; points: TrendPoint[] } }>;
  /** A link that opens the engagement where the host can open one. */
  link(target: Target, id: string): string | undefined;
  /** A failure, for the host's log (never the key: the client's messages are redacted). */
  logFailure(tool: string, error: unknown): void;
}

export interface RecordSet {
  /** The period's records in the service's order, at most `BREAKDOWN_CAP`. */
  items: readonly UsageRecord[];
  readAt: number;
  /** Records the period has past the cap, not read (0 when every one was read). */
  notRead: number;
}

/**
 * The whole sets read for the tools, by environment (and period), kept while fresh and kept up
 * to date with what the tools write: engagements for every environment of the MCP server and
 * for VS Code's environments other than the active one (whose set is the tree's); the usage
 * records of a period for both. Calls at once share one read, which stops when every call
 * waiting for it is cancelled.
 */
export class WholeSets {
  private readonly engagements: FreshReads<{ items: Engagement[]; skipped?: number }>;
  private readonly usage: FreshReads<{ items: UsageRecord[]; notRead: number }>;

  constructor(maxAgeMs: () => number) {
    this.engagements = new FreshReads(maxAgeMs);
    this.usage = new FreshReads(maxAgeMs);
  }

  async read(target: Target, context: ToolContext = {}): Promise<WholeSet> {
    const { value, readAt } = await this.engagements.get(
      target.env.id,
      async (signal, onProgress) => {
        const result = await target.api.engagements.listAll({ signal, onProgress });
        return { items: result.items, skipped: result.skipped };
      },
      context,
      l10n.t('Reading the engagements'),
    );
    return { items: value.items, readAt, skipped: value.skipped };
  }

  async records(target: Target, period: string, context: ToolContext = {}): Promise<RecordSet> {
    const { value, readAt } = await this.usage.get(
      `${target.env.id}\n${period}`,
      async (signal, onProgress) => {
        const read = await target.api.usage.detailsAll(period, { signal, onProgress, limit: BREAKDOWN_CAP });
        const capped = read.stop !== undefined || read.items.length >= BREAKDOWN_CAP;
        return { items: read.items, notRead: capped ? Math.max(0, read.totalCount - read.items.length) : 0 };
      },
      context,
      l10n.t('Reading the usage records of {0}', period),
    );
    return { items: value.items, readAt, notRead: value.notRead };
  }

  get(target: Target, id: string): Engagement | undefined {
    return this.engagements.peek(target.env.id)?.items.find((e) => e.id === id);
  }

  written(target: Target, engagement: Engagement, created = false): void {
    const kept = this.engagements.peek(target.env.id);
    if (!kept) return;
    const index = kept.items.findIndex((e) => e.id === engagement.id);
    if (index >= 0) kept.items[index] = engagement;
    else if (created) kept.items.unshift(engagement);
  }

  clear(): void {
    this.engagements.clear();
    this.usage.clear();
  }
}
