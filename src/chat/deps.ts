// What the chat tools, links and MCP server definitions are built from: the services, and ports to what other features own, declared here as narrowly as chat uses them and wired by the composition root
// (src/extension.ts): the store of the active environment's engagements (the tree's, so a
// whole set read for the tree or for a tool is read once while fresh), the engagement a tree
// row shows, and the usage trend's reader.
import type { AcceptedWrite, UsageSummary } from '../api/types';
import type { Engagement } from '../core/engagement';
import type { TrendPoint } from '../core/trend';
import type { Services } from '../services';
import type { WholeSets } from '../tools/host';

/** What chat reads and writes of the active environment's engagements. */
interface EngagementsPort {
  snapshot(): {
    readonly items: readonly Engagement[];
    readonly complete: boolean;
    readonly error?: unknown;
    /** Rows left out for want of an id (see `StoreSnapshot.skipped`). */
    readonly skipped?: number;
  };
  /** How long ago the items were read (ms). */
  age(): number;
  get(id: string): Engagement | undefined;
  /** Reads every engagement unless a whole set younger than `maxAgeMs` is held; false: not read. */
  loadAll(maxAgeMs: number): Promise<boolean>;
  /** A write landed: the store shows it. */
  upsert(engagement: Engagement, created?: boolean): void;
  /** A write accepted for later (202): the store looks for it as the tree does. */
  track(write: AcceptedWrite): Promise<unknown>;
}

/**
 * The trend of the 12 periods up to `current` in `environment`: its closed periods from the
 * history the dashboard keeps (and kept there once read), the others read through `summaryOf`.
 */
type TrendReader = (
  summaryOf: (period: string) => Promise<UsageSummary>,
  environment: { id: string; baseUrl: string },
  current: string,
  describe: (error: unknown) => string,
) => Promise<{ data: { current: string; points: TrendPoint[] } }>;

/** What the composition root hands chat of the other features. */
export interface ChatPorts {
  store: EngagementsPort;
  /** The engagement a command's argument shows when it is a row of the engagements tree. */
  rowEngagement(arg: unknown): Pick<Engagement, 'id' | 'name'> | undefined;
  readTrend: TrendReader;
}

/**
 * What a person confirmed of a write, kept from its confirmation to its invocation: where it
 * goes and with which key (it is sent there with that key, or not at all), and for an update
 * the version of each engagement the confirmation showed (nothing is written over another).
 */
export interface Confirmation {
  environmentId: string;
  label: string;
  baseUrl: string;
  /** The key's fingerprint (src/session/keyVault.ts); undefined: no key for it on this machine. */
  key?: string;
  /** `updatedAt` of each engagement as the confirmation showed it, by id. */
  versions: ReadonlyMap<string, string>;
}

export interface ChatDeps extends ChatPorts {
  services: Services;
  /** Engagements of other environments read for a tool, while fresh. */
  wholeSets: WholeSets;
  /** Confirmations not yet invoked, by the tool and its input (see `confirmationKey`). */
  confirmed: Map<string, Confirmation>;
}
