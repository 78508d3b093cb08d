// The usage dashboard as the integration suites drive it: opened from its command and waited
// on until its real webview script says ready, read through the state the extension posted.
import path from 'node:path';
import type { DashboardProbe } from '../../../src/testing/usage';
import type { DashboardState, HostMessage } from '../../../src/usage/protocol';
import { type TestContext, runCommand, waitFor } from './helpers';

/** The billing period `offset` months from the current one (UTC), as the service names it. */
export function utcPeriod(offset = 0): string {
  const now = new Date();
  const index = now.getUTCFullYear() * 12 + now.getUTCMonth() + offset;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Every section (summary, per-key, records) shows data. */
export function allReady(state: DashboardState): boolean {
  return state.summary.status === 'ready' && state.keys.status === 'ready' && state.details.status === 'ready';
}

/** Opens the dashboard from its command and waits until the real webview is up and the host idle. */
export async function openDashboard(ctx: TestContext): Promise<DashboardProbe> {
  await runCommand('openUsageDashboard');
  const probe = await waitFor(() => ctx.exports.usage?.dashboard(), 'the dashboard panel');
  await waitFor(() => probe.ready, 'the webview script to start and say ready', 20_000);
  await probe.idle();
  return probe;
}

/** The state in the last message the extension posted to the webview (an update). */
export function posted(probe: DashboardProbe): DashboardState {
  const message: HostMessage | undefined = probe.lastMessage();
  if (message?.type !== 'update') throw new Error(`the last message posted is an update, not ${message?.type}`);
  return message.state;
}

/** Waits until the posted state passes `check` (after the host is idle), and returns it. */
export async function settled(
  probe: DashboardProbe,
  what: string,
  check: (state: DashboardState) => boolean,
): Promise<DashboardState> {
  await probe.idle();
  return waitFor(() => (check(posted(probe)) ? posted(probe) : undefined), what);
}

/** Makes the service report these calls in the summary of `period` (the other figures as they are). */
export function serveCalls(
  ctx: TestContext,
  calls: { used: number; included: number; overage: number },
  period = utcPeriod(),
): void {
  const summary = ctx.service.store.summary(period);
  ctx.service.store.setSummary(period, { ...summary, usage: { ...summary.usage, calls } });
}

/** Asks for another period, as the dashboard's period picker does, and waits for its summary. */
export async function showPeriod(
  probe: DashboardProbe,
  period: string,
  what = `the summary of ${period}`,
): Promise<DashboardState> {
  await probe.receive({ type: 'setPeriod', period });
  return settled(probe, what, (s) => s.summary.status === 'ready' && s.summary.data.period === period);
}

/**
 * Declares the notification an export to `file` ends with: “Exported N usage records of
 * <period> to <file name>.” (N: `records` when given), dismissed.
 */
export function expectExported(ctx: TestContext, file: string, records?: number): void {
  const name = path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  ctx.ui.expectMessage(new RegExp(`^Exported ${records ?? '\\d+'} usage records of \\d{4}-\\d{2} to ${name}\\.$`), {
    level: 'info',
  });
}
