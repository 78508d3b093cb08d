// Helpers of the Performance suite: VS Code's own activation statistics, a tight bounded
// poll for the moment something happens, and the shape of the figures `npm run bench` reads.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PanelTimeline } from '../../../src/testing/usage';
import { EXTENSION_ID, waitFor } from './helpers';

export interface VscodeActivationStats {
  loadCodeMs: number;
  callActivateMs: number;
  finishActivateMs: number;
  event: string;
}

/** What the suite writes to EUS_BENCH_OUT (all durations in ms, performance.now() based). */
export interface BenchFigures {
  vscodeVersion: string;
  uiKind: string;
  /** Node.js of the extension host. */
  hostNode: string;
  latencyMs: number;
  vscodeStats?: VscodeActivationStats;
  /** Measured only when this suite activates the extension (it runs alone). */
  activation?: { firstCommandMs: number; requests: number };
  firstItemsMs?: number;
  savedItemsMs?: number;
  meters?: { readyMs: number; metersMs: number; phases?: DashboardPhases };
  savedMeters?: { readyMs: number; metersMs: number; phases?: DashboardPhases };
  memory?: { items: number; heapBeforeMb: number; heapAfterMb: number; loadMoreMs: number };
  /** Dashboard opened → the 12-period trend posted; summaries asked for, and how far apart they were sent. */
  trends?: { readyMs: number; trendMs: number; requests: number; spreadMs: number; phases?: DashboardPhases };
  /** Dashboard opened again with the closed periods stored: summaries asked for. */
  trendsReopen?: { requests: number };
  /** Summary reads per interval with N windows ticking (sharing the global state). */
  sharedReads?: Array<{ windows: number; intervals: number; reads: number }>;
  /** Go to Engagement over 10,000 engagements: the loaded ones, then all, in the quick pick. */
  goTo?: { latencyMs: number; firstMs: number; firstItems: number; allMs: number; allItems: number };
  /** The chat tool "find engagements" over 10,000 (vscode.lm.invokeTool): whole set read (cold), then held (warm). */
  chatFind?: {
    latencyMs: number;
    items: number;
    matched: number;
    cold: { ms: number; requests: number };
    warm: { ms: number; requests: number };
  };
  /** Sort by name over 10,000 engagements, from the command to the sorted tree. */
  sortAll?: { latencyMs: number; ms: number; items: number };
  /** Go to Engagement and the whole read over 10,000 engagements on each road (support/roads.ts). */
  roads?: RoadFigures[];
}

/**
 * Where a dashboard's time went, each in ms from the command: the panel made, the HTML set
 * (extension host), the webview's document started, its script started, `ready` sent (the
 * webview's clock), `ready` received (extension host).
 */
export interface DashboardPhases {
  panelMs?: number;
  htmlMs?: number;
  documentMs?: number;
  scriptMs?: number;
  readySentMs?: number;
  readyMs?: number;
}

/** The phases of a dashboard's timeline (see PanelTimeline), from `started` (performance.now()). */
export function dashboardPhases(timeline: PanelTimeline, started: number): DashboardPhases {
  const from = (at: number | undefined) => (at === undefined ? undefined : Math.round(at - started));
  return {
    panelMs: from(timeline.panelAt),
    htmlMs: from(timeline.htmlSetAt),
    documentMs: from(timeline.webview?.navigationStartAt),
    scriptMs: from(timeline.webview?.scriptStartAt),
    readySentMs: from(timeline.webview?.readySentAt),
    readyMs: from(timeline.readyAt),
  };
}

/**
 * How the extension reaches the service: loopback http, HTTPS with a private CA (VS Code's
 * defaults), HTTPS through a proxy, HTTPS with `http.systemCertificates` off.
 */
export type RoadName = 'http' | 'https' | 'proxy' | 'httpsNodeCa';

/** One measured run on a road, counted at the service (and the proxy). */
export interface RoadCost {
  /** Wall time (Go to: the command until every engagement is in the quick pick). */
  ms: number;
  /** CPU time of the extension host's main thread meanwhile (Linux; 10 ms ticks). */
  hostCpuMs?: number;
  /** Requests the service received. */
  requests: number;
  /** New TCP connections it accepted. */
  tcp: number;
  /** TLS handshakes it completed. */
  tls: number;
  /** CONNECT tunnels in the proxy's log. */
  tunnels: number;
  /** Handshakes the service saw fail (a read cancelled while connecting). */
  handshakeFailures: number;
}

export interface RoadFigures {
  road: RoadName;
  /** e.g. `https://127.0.0.2:PORT/v1`, without the port. */
  address: string;
  latencyMs: number;
  items: number;
  /** Each run of Go to Engagement, and of the client's whole read (`engagements.listAll()`). */
  goTo: RoadCost[];
  read: RoadCost[];
}

/** Our row of "Extension Activation Stats" in VS Code's perf document (command `perfview.show`). */
export async function activationStats(): Promise<VscodeActivationStats> {
  await vscode.commands.executeCommand('perfview.show');
  const doc = await waitFor(
    () =>
      vscode.workspace.textDocuments.find(
        (d) => d.uri.scheme === 'perf' && d.getText().includes('Extension Activation Stats'),
      ),
    'the perf document',
    15_000,
  );
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  const section = doc
    .getText()
    .split(/^## /m)
    .find((s) => s.startsWith('Extension Activation Stats'));
  assert.ok(section, 'the perf document has an "Extension Activation Stats" section');
  const row = section.split('\n').find((line) => line.toLowerCase().includes(EXTENSION_ID));
  assert.ok(row, `the stats have a row for ${EXTENSION_ID}:\n${section}`);
  // | Extension | Eager | Load Code | Call Activate | Finish Activate | Event | By |
  const [, , , load, call, finish, event] = row.split('|').map((c) => c.trim());
  const stats = {
    loadCodeMs: Number(load),
    callActivateMs: Number(call),
    finishActivateMs: Number(finish),
    event: event ?? '',
  };
  assert.ok(
    [stats.loadCodeMs, stats.callActivateMs, stats.finishActivateMs].every(Number.isFinite),
    `numbers in the row: ${row}`,
  );
  return stats;
}

/**
 * Polls `read` every few milliseconds until `done` holds, and returns that value. For
 * timestamps the extension records itself; the poll only has to notice them. Bounded.
 */
export async function measureUntil<T>(
  read: () => T | undefined,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const value = read();
    if (value !== undefined && done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
