// Change the status of several engagements at once (multi-select in the tree). Each is read
// again first; if any changed meanwhile the user chooses Overwrite, Reload or Cancel for the
// batch. Failures are reported by name, and Retry sends only the failed ones again.
import * as vscode from 'vscode';
import { type AcceptedWrite, isAccepted } from '../api/types';
import type { Engagement } from '../core/engagement';
import { changedFields, differingFields } from '../api/engagements';
import { LIMITS, mapLimited } from '../core/concurrency';
import { nameText } from '../core/engagementText';
import { failsAgain, isApiError } from '../api/errors';
import { describeError } from '../api/errorText';
import { showError } from '../ui/errorMessages';
import { isBack } from '../ui/ui';
import type { EngagementDeps } from './commandKit';
import { notice, requireApi, ui, withProgress } from './commandKit';
import { askStatus } from './edit';
import type { Pinned } from './writeOutcomes';
import { notShownYet, pinEnvironment } from './writeOutcomes';

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
    notice(
      deps,
      vscode.l10n.t('All {0} engagements already have the status “{1}”; nothing was sent.', targets.length, status),
    );
    return;
  }
  const pin = pinEnvironment(deps);
  if (pin) await setStatuses(deps, pin, toChange, status);
}

/**
 * Reads each again right before sending (also for Retry Failed): which changed on the server
 * since the user saw them? Then PATCHes the status with that version as a precondition.
 */
async function setStatuses(deps: EngagementDeps, pin: Pinned, toChange: Engagement[], status: string): Promise<void> {
  const { api } = pin;
  const reads = await withProgress(vscode.l10n.t('Checking {0}…', engagements(toChange.length)), () =>
    mapLimited(toChange, LIMITS.perEngagement, (e) => api.engagements.get(e.id)),
  );
  const unreadable = toChange.flatMap((e, i) =>
    reads[i].status === 'rejected' ? [{ engagement: e, error: reads[i].reason as unknown }] : [],
  );
  const fresh = toChange.flatMap((e, i) =>
    reads[i].status === 'fulfilled' ? [{ shown: e, fresh: reads[i].value }] : [],
  );
  const moved = fresh.filter((pair) => pair.fresh.updatedAt !== pair.shown.updatedAt);
  if (moved.length) {
    const overwrite = vscode.l10n.t('Overwrite');
    const reload = vscode.l10n.t('Reload');
    const names = moved
      .map(
        (pair) =>
          `“${nameText(pair.fresh)}” (${differingFields(pair.shown, pair.fresh).join(', ') || vscode.l10n.t('updated')})`,
      )
      .join(', ');
    const choice = await ui(deps).message(
      'warning',
      vscode.l10n.t('{0} of {1} changed on the server since shown.', moved.length, engagements(toChange.length)),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Changed meanwhile: {0}. Overwrite sets the status anyway; Reload shows their current versions and changes nothing.',
          names,
        ),
      },
      overwrite,
      reload,
    );
    if (choice === reload) {
      if (pin.active()) for (const pair of moved) deps.store.upsert(pair.fresh);
      return;
    }
    if (choice !== overwrite) return;
  }
  const ready = fresh.map((pair) => pair.fresh);
  const { failures, accepted } = await patchAll(deps, pin, ready, status);
  followAcceptedMany(deps, pin, accepted, status);
  await report(deps, pin, [...unreadable, ...failures], ready.length + unreadable.length, status, accepted.length);
}

/**
 * Changes the service accepted (202) and does not show yet: pending in the tree while each is
 * looked for again; one message when some are still not shown after the window.
 */
function followAcceptedMany(deps: EngagementDeps, pin: Pinned, accepted: AcceptedWrite[], status: string): void {
  if (accepted.length === 0) return;
  const count = engagements(accepted.length);
  notice(
    deps,
    vscode.l10n.t(
      'The service accepted the status “{0}” of {1} for processing; it shows as pending until the service shows it.',
      status,
      count,
    ),
  );
  if (!pin.active()) return;
  void Promise.all(accepted.map((write) => deps.store.track(write)))
    .then(async (outcomes) => {
      const notShown = outcomes.filter((o) => o.kind === 'notShown').length;
      if (notShown === 0) return;
      await notShownYet(
        deps,
        pin,
        vscode.l10n.t(
          'The service accepted the status “{0}” of {1} and has not shown it yet. Refresh in a moment to see it.',
          status,
          engagements(notShown),
        ),
      );
    })
    .catch((error: unknown) => deps.services.log.error('Following accepted status changes failed', error));
}

/** `checked`: the outcome was unknown and a check found the change not made (Retry is safe). */
type Failure = { engagement: Engagement; error: unknown; checked?: boolean };

async function patchAll(
  deps: EngagementDeps,
  pin: Pinned,
  targets: Engagement[],
  status: string,
): Promise<{ failures: Failure[]; accepted: AcceptedWrite[] }> {
  const { api } = pin;
  const accepted: AcceptedWrite[] = [];
  if (targets.length === 0) return { failures: [], accepted };
  const checkedNotMade = new Set<string>();
  const results = await withProgress(
    vscode.l10n.t('Setting the status of {0} to “{1}”…', engagements(targets.length), status),
    () =>
      mapLimited(targets, LIMITS.perEngagement, async (e) => {
        let updated: Engagement;
        try {
          const outcome = await api.engagements.update(e.id, { status }, { expectedUpdatedAt: e.updatedAt });
          if (isAccepted(outcome)) {
            accepted.push(outcome);
            return undefined;
          }
          updated = outcome.engagement;
        } catch (error) {
          if (!isApiError(error) || !error.writeOutcome) throw error;
          // Made, or perhaps made: look before calling it failed.
          const check = await api.engagements.checkUpdate(e.id, { status }).catch(() => undefined);
          if (check && !check.applied) checkedNotMade.add(e.id);
          if (!check?.applied) throw error;
          updated = check.engagement;
        }
        if (pin.active()) deps.store.upsert(updated);
        return updated;
      }),
  );
  const failures: Failure[] = [];
  results.forEach((r, i) => {
    if (r.status === 'rejected') {
      failures.push({ engagement: targets[i], error: r.reason as unknown, checked: checkedNotMade.has(targets[i].id) });
      deps.services.log.error(`Setting the status of engagement ${targets[i].id} failed`, r.reason);
    }
  });
  return { failures, accepted };
}

async function report(
  deps: EngagementDeps,
  pin: Pinned,
  failures: Failure[],
  attempted: number,
  status: string,
  /** How many of the attempted the service accepted and does not show yet (said apart). */
  accepted = 0,
): Promise<void> {
  const succeeded = attempted - failures.length - accepted;
  if (succeeded > 0) notice(deps, vscode.l10n.t('Set the status of {0} to “{1}”.', engagements(succeeded), status));
  if (failures.length === 0) return;
  // Retry sends again only what certainly did not happen (an unknown outcome was checked above).
  const again = () =>
    setStatuses(
      deps,
      pin,
      failures.map((f) => (pin.active() ? deps.store.get(f.engagement.id) : undefined) ?? f.engagement),
      status,
    );
  if (failures.length === 1 && attempted === 1) {
    const { engagement, error, checked } = failures[0];
    await showError(ui(deps), error, {
      action: vscode.l10n.t('set the status of “{0}”', nameText(engagement)),
      environmentLabel: pin.label,
      retry: again,
      checkedNotApplied: checked,
    });
    return;
  }
  const lines = failures.map(
    ({ engagement, error }) => `“${nameText(engagement)}”: ${describeError(error, pin.label)}`,
  );
  const retry = vscode.l10n.t('Retry Failed');
  const logs = vscode.l10n.t('Show Logs');
  const uncertain = failures.some(
    ({ error, checked }) => isApiError(error) && error.writeOutcome !== undefined && !checked,
  );
  // Retry Failed only where sending again could succeed: not where the browser refuses the headers.
  const actions = uncertain || failures.some(({ error }) => failsAgain(error)) ? [logs] : [retry, logs];
  const note = uncertain
    ? ` ${vscode.l10n.t('Some may have been changed anyway (the check could not tell): refresh before you try again.')}`
    : '';
  const choice = await ui(deps).message(
    'error',
    `${vscode.l10n.t('Could not set the status of {0} of {1}: {2}', failures.length, engagements(attempted), lines.join(' · '))}${note}`,
    {},
    ...actions,
  );
  if (choice === retry) await again();
  else if (choice === logs) deps.services.log.show();
}
