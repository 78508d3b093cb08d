// Change the status of several engagements at once (multi-select in the tree). Each is read
// again first; if any changed meanwhile the user chooses Overwrite, Reload or Cancel for the
// batch. Failures are reported by name, and Retry sends only the failed ones again.
import * as vscode from 'vscode';
import type { Engagement } from '../api/types';
import { changedFields, differingFields, mapLimited } from '../core/changes';
import { describeError, showError } from '../ui/errors';
import { isBack } from '../ui/ui';
import { type EngagementDeps, environmentLabel, notice, requireApi, ui, withProgress } from './common';
import { askStatus } from './edit';

const CONCURRENCY = 4;

function engagements(count: number): string {
  return count === 1 ? vscode.l10n.t('1 engagement') : vscode.l10n.t('{0} engagements', count);
}

export async function changeStatusOfMany(deps: EngagementDeps, targets: Engagement[]): Promise<void> {
  if (!(await requireApi(deps))) return;
  const statuses = new Set(targets.map((e) => e.status));
  const common = statuses.size === 1 ? targets[0].status : undefined;
  const status = await askStatus(deps, vscode.l10n.t('Status of {0} engagements', targets.length), common, common);
  if (status === undefined || isBack(status)) return;
  const toChange = targets.filter((e) => changedFields(e, { status }).status !== undefined);
  if (toChange.length === 0) {
    notice(deps, vscode.l10n.t('All {0} engagements already have the status “{1}”; nothing was sent.', targets.length, status));
    return;
  }
  const api = deps.services.connection.api;
  if (!api) return;

  // Read each again: which changed on the server since the tree showed them?
  const reads = await withProgress(vscode.l10n.t('Checking {0}…', engagements(toChange.length)), () => mapLimited(toChange, CONCURRENCY, (e) => api.engagements.get(e.id)));
  const unreadable = toChange.flatMap((e, i) => (reads[i].status === 'rejected' ? [{ engagement: e, error: reads[i].reason as unknown }] : []));
  const fresh = toChange.flatMap((e, i) => (reads[i].status === 'fulfilled' ? [{ shown: e, fresh: reads[i].value }] : []));
  const moved = fresh.filter((pair) => pair.fresh.updatedAt !== pair.shown.updatedAt);
  if (moved.length) {
    const overwrite = vscode.l10n.t('Overwrite');
    const reload = vscode.l10n.t('Reload');
    const names = moved.map((pair) => `“${pair.fresh.name}” (${differingFields(pair.shown, pair.fresh).join(', ') || vscode.l10n.t('updated')})`).join(', ');
    const choice = await ui(deps).message(
      'warning',
      vscode.l10n.t('{0} of {1} changed on the server since shown.', moved.length, engagements(toChange.length)),
      { modal: true, detail: vscode.l10n.t('Changed meanwhile: {0}. Overwrite sets the status anyway; Reload shows their current versions and changes nothing.', names) },
      overwrite,
      reload,
    );
    if (choice === reload) {
      for (const pair of moved) deps.store.upsert(pair.fresh);
      return;
    }
    if (choice !== overwrite) return;
  }
  const ready = fresh.map((pair) => pair.shown);
  const failures = await patchAll(deps, ready, status);
  await report(deps, [...unreadable, ...failures], ready.length + unreadable.length, status);
}

async function patchAll(deps: EngagementDeps, targets: Engagement[], status: string): Promise<Array<{ engagement: Engagement; error: unknown }>> {
  const api = deps.services.connection.api;
  if (!api || targets.length === 0) return [];
  const results = await withProgress(vscode.l10n.t('Setting the status of {0} to “{1}”…', engagements(targets.length), status), () =>
    mapLimited(targets, CONCURRENCY, async (e) => {
      const updated = await api.engagements.update(e.id, { status });
      deps.store.upsert(updated);
      return updated;
    }),
  );
  const failures: Array<{ engagement: Engagement; error: unknown }> = [];
  results.forEach((r, i) => {
    if (r.status === 'rejected') {
      failures.push({ engagement: targets[i], error: r.reason as unknown });
      deps.services.log.error(`Setting the status of engagement ${targets[i].id} failed`, r.reason);
    }
  });
  return failures;
}

async function report(deps: EngagementDeps, failures: Array<{ engagement: Engagement; error: unknown }>, attempted: number, status: string): Promise<void> {
  const succeeded = attempted - failures.length;
  if (succeeded > 0) notice(deps, vscode.l10n.t('Set the status of {0} to “{1}”.', engagements(succeeded), status));
  if (failures.length === 0) return;
  if (failures.length === 1 && attempted === 1) {
    const { engagement, error } = failures[0];
    await showError(ui(deps), error, { action: vscode.l10n.t('set the status of “{0}”', engagement.name), environmentLabel: environmentLabel(deps), retry: () => retryOne(deps, engagement, status) });
    return;
  }
  const env = environmentLabel(deps);
  const lines = failures.map(({ engagement, error }) => `“${engagement.name}”: ${describeError(error, env)}`);
  const retry = vscode.l10n.t('Retry Failed');
  const logs = vscode.l10n.t('Show Logs');
  const choice = await ui(deps).message('error', vscode.l10n.t('Could not set the status of {0} of {1}: {2}', failures.length, engagements(attempted), lines.join(' · ')), {}, retry, logs);
  if (choice === retry) {
    const again = failures.map((f) => deps.store.get(f.engagement.id) ?? f.engagement);
    const second = await patchAll(deps, again, status);
    await report(deps, second, again.length, status);
  } else if (choice === logs) deps.services.log.show();
}

async function retryOne(deps: EngagementDeps, engagement: Engagement, status: string): Promise<void> {
  const api = deps.services.connection.api;
  if (!api) return;
  const updated = await withProgress(vscode.l10n.t('Updating “{0}”…', engagement.name), () => api.engagements.update(engagement.id, { status }));
  deps.store.upsert(updated);
  notice(deps, vscode.l10n.t('Updated “{0}”.', updated.name));
}
