// What a transport gives the agent tools: which environment an input names and a client for
// it, what it keeps of engagements between calls, the trend reader, links, and its log. VS Code
// (src/chat/target.ts) gives the user's environments and the tree's store; the MCP server
// (src/mcp/server.ts) the one environment it was started for. Free of `vscode`.
import type { ServiceApi } from '../api/service';
import type { AcceptedWrite } from '../api/types';
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

export interface WholeSet {
  items: readonly Engagement[];
  /** Read just now (false: reused while fresh). */
  read: boolean;
  /** Rows the service sent without a usable id: not among `items` (they cannot be read or changed). */
  skipped?: number;
}

export interface ToolHost {
  /** How the user replaces a key here, said after “the user can replace it”. */
  readonly replaceKey: string;
  /** The environment an input names (or the default one) with a client for it; refuses in words. */
  resolve(named: unknown): Promise<Target>;
  /** The label of the environment an input names, for the words of a failure; never throws. */
  labelOf(named: unknown): string | undefined;
  /** Every engagement of `target`, read unless a set fresh enough is held. */
  wholeSet(target: Target, signal?: AbortSignal): Promise<WholeSet>;
  /** One engagement of `target` as last read, without reading. */
  known(target: Target, id: string): Engagement | undefined;
  /** A write landed: what the host keeps shows it. */
  written(target: Target, engagement: Engagement, created?: boolean): void;
  /** A write accepted for later (202). */
  accepted(target: Target, write: AcceptedWrite): void;
  /** The 12 periods up to `current`. */
  readTrend(target: Target, current: string): Promise<{ data: { current: string; points: TrendPoint[] } }>;
  /** A link that opens the engagement where the host can open one. */
  link(target: Target, id: string): string | undefined;
  /** A failure, for the host's log (never the key: the client's messages are redacted). */
  logFailure(tool: string, error: unknown): void;
}

/**
 * The whole sets of engagements read for the tools, by environment id, kept while fresh and
 * kept up to date with what the tools write: for every environment of the MCP server, and for
 * VS Code's environments other than the active one (whose set is the tree's).
 */
export class WholeSets {
  private readonly kept = new Map<string, { items: Engagement[]; readAt: number; skipped?: number }>();

  constructor(private readonly maxAgeMs: () => number) {}

  async read(target: Target, signal?: AbortSignal): Promise<WholeSet> {
    const kept = this.kept.get(target.env.id);
    if (kept && Date.now() - kept.readAt < this.maxAgeMs())
      return { items: kept.items, read: false, skipped: kept.skipped };
    const result = await target.api.engagements.listAll({ signal });
    this.kept.set(target.env.id, { items: result.items, readAt: Date.now(), skipped: result.skipped });
    return { items: result.items, read: true, skipped: result.skipped };
  }

  get(target: Target, id: string): Engagement | undefined {
    return this.kept.get(target.env.id)?.items.find((e) => e.id === id);
  }

  written(target: Target, engagement: Engagement, created = false): void {
    const kept = this.kept.get(target.env.id);
    if (!kept) return;
    const index = kept.items.findIndex((e) => e.id === engagement.id);
    if (index >= 0) kept.items[index] = engagement;
    else if (created) kept.items.unshift(engagement);
  }

  clear(): void {
    this.kept.clear();
  }
}
