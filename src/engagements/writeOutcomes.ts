// One way to send a create or an update and say what happened, shared by the create, edit and
// status flows. A write the service carried out is reported as done, whatever form its answer
// took. A write the service accepted (202) and does not show yet is shown as pending and looked
// for again, never called failed. A write whose outcome is unknown (a timeout, a cut
// connection, a 5xx) is never called failed either: it is checked first, and Retry is offered
// only when the check shows it did not happen. The user's input is kept throughout.
import * as vscode from 'vscode';
import type { ApiError } from '../api/errors';
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorText';
import type { ServiceApi } from '../api/service';
import type { AcceptedWrite, WriteOutcome, WriteResult } from '../api/types';
import { isAccepted } from '../api/types';
import type { Engagement } from '../core/engagement';
import { Settings } from '../shared/constants';
import { showError } from '../ui/errorMessages';
import type { EngagementDeps } from './commandKit';
import { notice, ui, withProgress } from './commandKit';

/** The environment a flow started in: its client, for every request of the flow (Retry included). */
export interface Pinned {
  api: ServiceApi;
  environmentId: string;
  label: string;
  /** Whether the pinned environment is still the active one (the tree shows only the active one). */
  active(): boolean;
}

export function pinEnvironment(deps: EngagementDeps): Pinned | undefined {
  const { connection } = deps.services;
  const api = connection.api;
  const environment = connection.environment;
  if (!api || !environment) return undefined;
  return {
    api,
    environmentId: environment.id,
    label: environment.label,
    active: () => connection.environment?.id === environment.id && connection.api === api,
  };
}

export interface WriteFlow {
  pin: Pinned;
  /** What is being done, for messages: "create “Churn calls”". */
  action: string;
  progress: string;
  send: () => Promise<WriteOutcome>;
  /** After an unknown outcome: the engagement if the change is there, undefined if it is not. */
  check: () => Promise<Engagement | undefined>;
  /** Shows the result (tree, notice); `late` when only the check found it. */
  done: (engagement: Engagement, how: { result?: WriteResult; late?: boolean }) => Promise<void>;
  /** What the user is told of a write the service accepted (202) and does not show yet. */
  accepted: {
    /** At once: it is shown as pending. */
    pending: string;
    /** When the service has not shown it within the window. */
    notShown: string;
  };
  retry: () => Promise<unknown>;
  edit: () => Promise<unknown>;
  /** Called for a failure that is not about the outcome (e.g. a conflict); true when handled. */
  handle?: (error: unknown) => Promise<boolean>;
}

/** Sends the write and reports. Resolves when the user has nothing more to decide. */
export async function performWrite(deps: EngagementDeps, flow: WriteFlow): Promise<void> {
  let outcome: WriteOutcome;
  try {
    outcome = await withProgress(flow.progress, flow.send);
  } catch (error) {
    deps.services.log.error(`Could not ${flow.action}`, error);
    await settleFailure(deps, flow, error);
    return;
  }
  if (isAccepted(outcome)) followAccepted(deps, flow.pin, outcome, flow);
  else await flow.done(outcome.engagement, { result: outcome });
}

/**
 * A write the service accepted (202) and does not show yet: the tree shows it as pending
 * while the store looks for it again (`src/engagements/accepted.ts`). When it appears, `done`
 * shows it like any write; when it does not within the window, the user is told so, with
 * Refresh. Never Retry (it was accepted), never "failed". Returns at once: the look goes on
 * in the background, and another environment or key ends it.
 */
function followAccepted(
  deps: EngagementDeps,
  pin: Pinned,
  write: AcceptedWrite,
  flow: Pick<WriteFlow, 'accepted' | 'action'> & { done?: WriteFlow['done'] },
): void {
  deps.services.log.info(`The service accepted "${flow.action}" (202) and does not show it yet; looking again`);
  // The tree shows the active environment only: a write to another one is not looked for.
  if (!pin.active()) return notice(deps, flow.accepted.notShown);
  notice(deps, flow.accepted.pending);
  void deps.store
    .track(write)
    .then(async (outcome) => {
      if (outcome.kind === 'shown') await flow.done?.(outcome.result.engagement, { result: outcome.result });
      else if (outcome.kind === 'notShown') await notShownYet(deps, pin, flow.accepted.notShown);
    })
    .catch((error: unknown) => deps.services.log.error(`Following "${flow.action}" failed`, error));
}

/** Says that the service accepted a write and has not shown it yet; Refresh reads the list again. */
export async function notShownYet(deps: EngagementDeps, pin: Pinned, text: string): Promise<void> {
  const refresh = vscode.l10n.t('Refresh');
  const choice = await ui(deps).message('info', text, {}, refresh);
  if (choice === refresh && pin.active()) await deps.store.refresh();
}

async function settleFailure(deps: EngagementDeps, flow: WriteFlow, error: unknown): Promise<void> {
  if (flow.handle && (await flow.handle(error))) return;
  if (!isApiError(error) || !error.writeOutcome) {
    await showError(ui(deps), error, {
      action: flow.action,
      environmentLabel: flow.pin.label,
      retry: flow.retry,
      edit: flow.edit,
    });
    return;
  }
  await checkOutcome(deps, flow, error);
}

/** How long to keep looking for a write that timed out: the service may still be working on it. */
function patienceMs(error: ApiError): number {
  if (error.kind !== 'timeout') return 0;
  const seconds = vscode.workspace.getConfiguration(Settings.section).get<number>(Settings.requestTimeoutSeconds, 30);
  return Math.min(60, Math.max(1, seconds)) * 1000;
}

const CHECK_INTERVAL_MS = 500;

/** Looks for the change, again for a while when the service may still be working on it. */
async function lookFor(flow: WriteFlow, patience: number): Promise<Engagement | undefined> {
  const deadline = Date.now() + patience;
  for (;;) {
    const found = await flow.check();
    if (found || Date.now() + CHECK_INTERVAL_MS > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, CHECK_INTERVAL_MS));
  }
}

/**
 * The service may have made the change (`unknown`), or said it did but its answer could not
 * be read (`applied`): look before saying anything, and offer Retry only when it is not there.
 */
async function checkOutcome(deps: EngagementDeps, flow: WriteFlow, error: ApiError): Promise<void> {
  let patience = patienceMs(error);
  for (;;) {
    let found: Engagement | undefined;
    try {
      found = await withProgress(vscode.l10n.t('Checking whether the service made the change…'), () =>
        lookFor(flow, patience),
      );
    } catch (checkError) {
      if (!(await checkFailed(deps, flow, error, checkError))) return;
      patience = 0;
      continue;
    }
    if (found) await flow.done(found, { late: true });
    else if (error.writeOutcome === 'applied') await appliedNotShown(deps, flow);
    else
      await showError(ui(deps), error, {
        action: flow.action,
        environmentLabel: flow.pin.label,
        retry: flow.retry,
        edit: flow.edit,
        checkedNotApplied: true,
      });
    return;
  }
}

/** Checking failed too: Retry is not offered yet. True when the user chose Check Again. */
async function checkFailed(
  deps: EngagementDeps,
  flow: WriteFlow,
  error: ApiError,
  checkError: unknown,
): Promise<boolean> {
  const checkAgain = vscode.l10n.t('Check Again');
  const edit = vscode.l10n.t('Edit');
  const logs = vscode.l10n.t('Show Logs');
  deps.services.log.error(`Checking whether "${flow.action}" was carried out failed`, checkError);
  const choice = await ui(deps).message(
    'error',
    vscode.l10n.t(
      'Could not {0}: {1} The change may have been made; checking failed too ({2}), so Retry is not offered yet.',
      flow.action,
      describeError(error, flow.pin.label),
      describeError(checkError, flow.pin.label),
    ),
    {},
    checkAgain,
    edit,
    logs,
  );
  if (choice === checkAgain) return true;
  if (choice === edit) await flow.edit();
  else if (choice === logs) deps.services.log.show();
  return false;
}

/** The service said it was done, yet it is not there: say so; sending again could double it. */
async function appliedNotShown(deps: EngagementDeps, flow: WriteFlow): Promise<void> {
  const refresh = vscode.l10n.t('Refresh');
  const logs = vscode.l10n.t('Show Logs');
  if (flow.pin.active()) void deps.store.refresh();
  const choice = await ui(deps).message(
    'warning',
    vscode.l10n.t(
      'The service reported “{0}” as done, but its answer could not be read and the change is not visible yet. Refresh in a moment; details are in the log.',
      flow.action,
    ),
    {},
    refresh,
    logs,
  );
  if (choice === refresh && flow.pin.active()) await deps.store.refresh();
  else if (choice === logs) deps.services.log.show();
}

/** The short confirmation after a write, saying how its result was learned when that matters. */
export function confirmWrite(deps: EngagementDeps, text: string, how: { result?: WriteResult; late?: boolean }): void {
  const parts = [text];
  if (how.late) parts.push(vscode.l10n.t('The service did not confirm it, but a check found the change made.'));
  if (how.result?.source === 'search')
    parts.push(
      vscode.l10n.t('Its answer did not name the engagement: the newest one with this name and type is shown.'),
    );
  if (how.result?.accepted) parts.push(vscode.l10n.t('The service accepted it for processing and shows it now.'));
  notice(deps, parts.join(' '));
}
