// Updating an engagement, from the command to the row: what the engagement commands share
// (their dependencies, the client of the active environment, progress, notices, finding the
// engagement a command is about), the edit itself, the PATCH with its conflict check, and the
// one way a create or an update is sent and what happened is said.
//
// Update one engagement: rename, edit the description or change the status, the current value
// prefilled. Only changed fields are sent; nothing when nothing changed. Before sending, the
// engagement is read again: if it changed on the server since it was shown, the user chooses
// Overwrite, Reload or Cancel. A failed PATCH offers Retry (same values) and Edit.
import * as vscode from 'vscode';
import type { ApiError } from '../api/errors';
import { isApiError } from '../api/errors';
import type { ServiceApi } from '../api/service';
import type { AcceptedWrite, EngagementChanges, WriteOutcome, WriteResult } from '../api/types';
import type { Engagement } from '../core/engagement';
import { isAccepted } from '../api/types';
import { changedFields, differingFields, hasChanges } from '../api/engagements';
import { relativeTime } from '../core/format';
import { fieldText, nameText, statusChoices, statusLook } from '../core/engagementText';
import { safeText, shortLabel } from '../core/text';
import { validateName, validateStatus } from '../core/validation';
import { Commands, Settings, Views } from '../shared/constants';
import type { Back, Ui } from '../ui/ui';
import { isBack, runSteps, statusNotice } from '../ui/ui';
import type { Services } from '../services';
import { describeError } from '../api/errorText';
import { showError } from '../ui/errorMessages';
import type { QueryState } from './tree';
import { isEngagementNode } from './tree';
import type { EngagementStore } from './store';
import type { EngagementsView } from './view';

export type EditField = 'name' | 'description' | 'status';

function fieldTitle(field: EditField, name: string): string {
  if (field === 'name') return vscode.l10n.t('Rename “{0}”', name);
  if (field === 'description') return vscode.l10n.t('Description of “{0}”', name);
  return vscode.l10n.t('Status of “{0}”', name);
}

/** Asks for one field's new value; the current value (or the user's earlier answer) is prefilled. */
async function askField(
  deps: EngagementDeps,
  field: EditField,
  engagement: Engagement,
  value: string,
  step?: { step: number; totalSteps: number },
  refusal?: string,
): Promise<string | Back | undefined> {
  const title = fieldTitle(field, nameText(engagement));
  if (field === 'status') return askStatus(deps, title, engagement.status, value, step, refusal);
  return ui(deps).input({
    title,
    ...step,
    value,
    prompt:
      field === 'name' ? vscode.l10n.t('New name (required)') : vscode.l10n.t('New description (empty to clear it)'),
    initialError: refusal,
    validate: field === 'name' ? (v) => (validateName(v) ? vscode.l10n.t('Enter a name.') : undefined) : undefined,
  });
}

export function askStatus(
  deps: EngagementDeps,
  title: string,
  current: string | undefined,
  value: string | undefined,
  step?: { step: number; totalSteps: number },
  note?: string,
): Promise<string | Back | undefined> {
  const choices = statusChoices(deps.store.seenStatuses());
  if (value && !choices.some((c) => c === value)) choices.unshift(value);
  // A refusal is a sentence of the service's, too long for the box's one grey line: it is said
  // whole in a notification beside the list, which asks again.
  if (note) void ui(deps).message('warning', note, {});
  return ui(deps).pick<string>({
    title,
    ...step,
    placeholder: note
      ? vscode.l10n.t('The service refused this status (its reason is in the notification): choose another')
      : vscode.l10n.t('Choose a status, or type another one'),
    items: choices.map((s) => {
      const look = statusLook(s);
      return {
        label: look.text,
        value: s,
        iconId: look.icon,
        description: s === current ? vscode.l10n.t('current') : undefined,
      };
    }),
    activeValue: value,
    freeEntry: {
      label: (text) => vscode.l10n.t('Set the status “{0}”', text),
      value: (text) => text.trim(),
      validate: (text) => (validateStatus(text) ? vscode.l10n.t('Enter a status.') : undefined),
    },
  });
}

/**
 * The edit flow. Without `field`, it first asks what to change (step 1 of 2, Back returns to
 * it). `wanted` prefills the answer (Edit after a failure, Reload after a conflict).
 */
export async function editEngagement(
  deps: EngagementDeps,
  engagement: Engagement,
  field?: EditField,
  wanted: EngagementChanges = {},
  refusal?: string,
): Promise<void> {
  if (!(await requireApi(deps))) return;
  let chosen: EditField | undefined = field;
  let value = '';
  const steps: Array<() => Promise<'next' | Back | undefined>> = [];
  if (!field) {
    steps.push(async () => {
      const picked = await ui(deps).pick<EditField>({
        title: vscode.l10n.t('Edit “{0}”', nameText(engagement)),
        step: 1,
        totalSteps: 2,
        placeholder: vscode.l10n.t('What do you want to change? (The type cannot be changed.)'),
        items: [
          { label: vscode.l10n.t('Rename…'), description: engagement.name, value: 'name', iconId: 'edit' },
          {
            label: vscode.l10n.t('Edit Description…'),
            description: engagement.description || vscode.l10n.t('(none)'),
            value: 'description',
            iconId: 'note',
          },
          {
            label: vscode.l10n.t('Change Status…'),
            description: statusLook(engagement.status).text,
            value: 'status',
            iconId: statusLook(engagement.status).icon,
          },
        ],
        activeValue: chosen,
      });
      if (picked === undefined || isBack(picked)) return picked;
      chosen = picked;
      return 'next';
    });
  }
  steps.push(async () => {
    const f = chosen as EditField;
    const prefill = wanted[f] ?? engagement[f] ?? '';
    const answer = await askField(
      deps,
      f,
      engagement,
      prefill,
      field ? undefined : { step: 2, totalSteps: 2 },
      refusal,
    );
    if (answer === undefined || isBack(answer)) return answer;
    value = answer;
    return 'next';
  });
  if (!(await runSteps(steps)) || !chosen) return;
  await applyChanges(deps, engagement, changedFields(engagement, { [chosen]: value }), (again, why) =>
    editEngagement(deps, again, chosen, { [chosen as EditField]: value }, why),
  );
}

// Sending an update: the engagement is read right before (a change made meanwhile is asked
// about: Overwrite, Reload or Cancel), and the PATCH carries the version decided on.
type ConflictChoice = 'overwrite' | 'reload' | 'cancel';

/** Says that an engagement changed on the server since it was shown, and asks what to do. */
async function askOnConflict(deps: EngagementDeps, shown: Engagement, fresh: Engagement): Promise<ConflictChoice> {
  const overwrite = vscode.l10n.t('Overwrite');
  const reload = vscode.l10n.t('Reload');
  const fields = differingFields(shown, fresh);
  const detail = fields.length
    ? vscode.l10n.t(
        'Changed meanwhile: {0}. Overwrite sends your change anyway; Reload shows the current version first.',
        fields.join(', '),
      )
    : vscode.l10n.t('Overwrite sends your change anyway; Reload shows the current version first.');
  const choice = await ui(deps).message(
    'warning',
    vscode.l10n.t(
      '“{0}” was changed on the server (updated {1}) since it was shown.',
      nameText(fresh),
      relativeTime(fresh.updatedAt),
    ),
    { modal: true, detail },
    overwrite,
    reload,
  );
  return choice === overwrite ? 'overwrite' : choice === reload ? 'reload' : 'cancel';
}

/** How often in one flow the user is asked about changes made meanwhile before it gives up. */
const MAX_CONFLICT_ROUNDS = 5;

/**
 * Sends `changes` for `shown`. Right before sending (again after Overwrite, and for Retry) the
 * engagement is read: if it changed since the version the user decided on, they choose
 * Overwrite, Reload or Cancel. The PATCH carries that version as a precondition, so a service
 * that checks answers 409/412 when someone changed it in between: the same question again.
 * `edit` reopens the flow (prefilled) on a version, with the service's refusal when it gave one.
 */
async function applyChanges(
  deps: EngagementDeps,
  shown: Engagement,
  changes: EngagementChanges,
  edit: (engagement: Engagement, refusal?: string) => Promise<void>,
  pinned?: Pinned,
): Promise<void> {
  if (!hasChanges(changes)) {
    notice(deps, vscode.l10n.t('Nothing changed in “{0}”; nothing was sent.', nameText(shown)));
    return;
  }
  const pin = pinned ?? pinEnvironment(deps);
  if (!pin) return;
  const { api } = pin;
  const action = vscode.l10n.t('update “{0}”', nameText(shown));
  const again = () => applyChanges(deps, basis, changes, edit, pin);
  const reopen = () => edit((pin.active() ? deps.store.get(shown.id) : undefined) ?? basis);
  /** The version the user decided to change (moves forward with each Overwrite). */
  let basis = shown;
  let preconditions = true;
  const flow: UpdateFlow = { pin, shown, changes, action, again, reopen, edit };
  for (let round = 0; round < MAX_CONFLICT_ROUNDS; round++) {
    const fresh = await readBeforeSending(deps, flow);
    if (!fresh) return;
    if (fresh.updatedAt !== basis.updatedAt) {
      const choice = await askOnConflict(deps, basis, fresh);
      if (choice === 'cancel') return;
      if (choice === 'reload') {
        if (pin.active()) {
          deps.store.upsert(fresh);
          await deps.view.reveal(fresh.id);
        }
        await edit(fresh);
        return;
      }
      // Overwrite: decided on this version; read once more right before sending.
      basis = fresh;
      continue;
    }
    if (!(await sendChanges(deps, flow, { basis, fresh, preconditions }))) return;
    // 409/412: someone changed it between the read and the PATCH. Read again and ask. A
    // service that refuses the precondition although nothing changed gets the PATCH without it.
    const now = await api.engagements.get(shown.id).catch(() => undefined);
    if (now && now.updatedAt === fresh.updatedAt) preconditions = false;
  }
  await ui(deps).message(
    'warning',
    vscode.l10n.t('“{0}” keeps changing on the server; nothing was sent. Try again in a moment.', nameText(shown)),
    {},
  );
}

/** One update: what is sent where, and what its failures offer. */
interface UpdateFlow {
  pin: Pinned;
  shown: Engagement;
  changes: EngagementChanges;
  action: string;
  /** Retry: the same changes again. */
  again: () => Promise<void>;
  /** Edit: the flow reopened on the newest version. */
  reopen: () => Promise<void>;
  /** The flow reopened on a version, with the service's refusal. */
  edit: (engagement: Engagement, refusal?: string) => Promise<void>;
}

/** The engagement as the service has it right before sending; undefined (and said why) when it cannot be read. */
async function readBeforeSending(deps: EngagementDeps, flow: UpdateFlow): Promise<Engagement | undefined> {
  const { pin, shown, action, again, reopen } = flow;
  try {
    return await withProgress(vscode.l10n.t('Checking “{0}”…', nameText(shown)), () =>
      pin.api.engagements.get(shown.id),
    );
  } catch (error) {
    deps.services.log.error(`Re-reading engagement ${shown.id} before an update failed`, error);
    await showError(ui(deps), error, { action, environmentLabel: pin.label, edit: reopen, retry: again });
    return undefined;
  }
}

/**
 * Sends the PATCH, with the version read just before (`fresh`) as its precondition unless the
 * service refused that already. True when the service answered 409/412 (changed in between).
 */
async function sendChanges(
  deps: EngagementDeps,
  flow: UpdateFlow,
  { basis, fresh, preconditions }: { basis: Engagement; fresh: Engagement; preconditions: boolean },
): Promise<boolean> {
  const { pin, shown, changes, action } = flow;
  const { api } = pin;
  let conflict = false;
  await performWrite(deps, {
    pin,
    action,
    progress: vscode.l10n.t('Updating “{0}”…', nameText(shown)),
    send: () => api.engagements.update(shown.id, changes, preconditions ? { expectedUpdatedAt: fresh.updatedAt } : {}),
    check: async () => {
      const { engagement, applied } = await api.engagements.checkUpdate(shown.id, changes);
      return applied ? engagement : undefined;
    },
    done: async (updated, how) => {
      if (pin.active()) deps.store.upsert(updated);
      confirmWrite(deps, vscode.l10n.t('Updated “{0}”.', nameText(updated)), how);
      if (pin.active()) await deps.view.reveal(updated.id);
    },
    accepted: {
      pending: vscode.l10n.t(
        'The service accepted the change to “{0}” for processing; the new values show as pending until the service shows them.',
        nameText(shown),
      ),
      notShown: vscode.l10n.t(
        'The service accepted the change to “{0}” and has not shown it yet. Refresh in a moment to see it.',
        nameText(shown),
      ),
    },
    retry: flow.again,
    edit: flow.reopen,
    handle: async (error) => {
      if (isApiError(error) && error.kind === 'conflict') {
        conflict = true;
        return true;
      }
      const refusal = refusalFor(refusedFields(error), ['name', 'description', 'status']);
      if (!refusal) return false;
      await flow.edit(basis, refusal.message);
      return true;
    },
  });
  return conflict;
}

// One way to send a create or an update and say what happened. A write the service carried
// out is reported as done, whatever form its answer took. A write the service accepted (202)
// and does not show yet is shown as pending and looked for again, never called failed. A
// write whose outcome is unknown (a timeout, a cut connection, a 5xx) is never called failed
// either: it is checked first, and Retry is offered only when the check shows it did not
// happen. The user's input is kept throughout.
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

/** The per-field messages of a 400/422 the service sent (not a check made before sending). */
export function refusedFields(error: unknown): Record<string, string> | undefined {
  return isApiError(error) && error.kind === 'invalidRequest' && error.status !== undefined
    ? error.fieldErrors
    : undefined;
}

/**
 * The refused field among `asked` (in the flow's order) and what its reopened box says: the
 * service's reason for it, and its reasons for any other field it refused, so one correction
 * does not meet the next refusal unannounced.
 */
export function refusalFor(
  fields: Record<string, string> | undefined,
  asked: readonly string[],
): { field: string; message: string } | undefined {
  const field = fields && asked.find((f) => Object.hasOwn(fields, f));
  if (!fields || field === undefined) return undefined;
  const message = vscode.l10n.t('The service refused this {0}: {1}', field, fields[field]);
  const others = Object.entries(fields)
    .filter(([other]) => other !== field)
    .map(([other, reason]) => `${other}: ${reason}`)
    .join('; ');
  return { field, message: others ? vscode.l10n.t('{0} (also: {1})', message, others) : message };
}

// What the engagement commands share: their dependencies, the client of the active
// environment, progress, short notices, and finding the engagement(s) a command is about.
export interface EngagementDeps {
  services: Services;
  store: EngagementStore;
  query: QueryState;
  view: EngagementsView;
}

export function ui(deps: EngagementDeps): Ui {
  return deps.services.ui.current;
}

export function environmentLabel(deps: EngagementDeps): string | undefined {
  return deps.services.connection.environment?.label;
}

/** The client of the active environment; without one, says so and offers to add one. */
export async function requireApi(deps: EngagementDeps): Promise<ServiceApi | undefined> {
  const api = deps.services.connection.api;
  if (api) return api;
  const add = vscode.l10n.t('Add Environment');
  const choice = await ui(deps).message(
    'info',
    vscode.l10n.t('No environment is set up yet. Add one to work with engagements.'),
    {},
    add,
  );
  if (choice === add) await vscode.commands.executeCommand(Commands.addEnvironment);
  return undefined;
}

/**
 * Runs a request with progress in the Engagements view (its progress bar, and a badge on the
 * activity bar while the view is hidden), where the work was started: not a notification.
 * The title goes to the log. Writes are not cancellable: they may land anyway.
 */
export function withProgress<T>(title: string, task: () => Promise<T>, log?: { info(text: string): void }): Promise<T> {
  log?.info(safeText(title));
  return Promise.resolve(vscode.window.withProgress({ location: { viewId: Views.engagements } }, task));
}

/** A short confirmation in the status bar, plus the log. */
export function notice(deps: EngagementDeps, text: string): void {
  deps.services.log.info(text);
  const shown = statusNotice(text);
  deps.services.recorder.notice(shown);
}

/**
 * The engagements a command was invoked on: the tree passes the clicked node and, with
 * multi-select, every selected node; other callers may pass an engagement id. Undefined when
 * the command came from the palette (the caller then asks).
 */
export function targetsFromArgs(deps: EngagementDeps, args: unknown[]): Engagement[] | string | undefined {
  const [first, second] = args;
  if (
    Array.isArray(second) &&
    second.length > 1 &&
    second.every(isEngagementNode) &&
    (!isEngagementNode(first) || second.includes(first))
  ) {
    return second.map((node) => node.engagement);
  }
  if (isEngagementNode(first)) return [first.engagement];
  if (typeof first === 'string' && first.trim() !== '')
    return deps.store.get(first) ? [deps.store.get(first) as Engagement] : first;
  if (Array.isArray(first) && first.length && first.every((id) => typeof id === 'string')) {
    const found = first.map((id: string) => deps.store.get(id)).filter((e): e is Engagement => e !== undefined);
    return found.length ? found : undefined;
  }
  return undefined;
}

/** Asks which loaded engagement a palette command is about. */
export async function pickEngagement(deps: EngagementDeps, title: string): Promise<Engagement | undefined> {
  if (!(await requireApi(deps))) return undefined;
  await deps.store.ensureLoaded();
  const items = deps.store.snapshot().items;
  if (items.length === 0) {
    await ui(deps).message(
      'info',
      vscode.l10n.t('There are no engagements to choose from in {0}.', environmentLabel(deps) ?? ''),
      {},
    );
    return undefined;
  }
  const id = await ui(deps).pick<string>({
    title,
    placeholder: vscode.l10n.t('Type to search the loaded engagements by name'),
    items: items.map((e) => ({
      label: shortLabel(nameText(e), e.id),
      description: `${statusLook(e.status).text} · ${fieldText(e.type)}`,
      detail: e.id,
      value: e.id,
      iconId: statusLook(e.status).icon,
    })),
  });
  return typeof id === 'string' ? deps.store.get(id) : undefined;
}

/** The single engagement a command is about: from the tree, an id (read from the service), or a pick. */
export async function singleTarget(
  deps: EngagementDeps,
  args: unknown[],
  title: string,
): Promise<Engagement | undefined> {
  // With several selected, a single-item command acts on the item it was invoked on.
  if (isEngagementNode(args[0])) return args[0].engagement;
  const targets = targetsFromArgs(deps, args);
  if (Array.isArray(targets)) return targets[0];
  if (typeof targets === 'string') {
    const api = await requireApi(deps);
    return api
      ? withProgress(vscode.l10n.t('Reading engagement {0}…', targets), () => api.engagements.get(targets))
      : undefined;
  }
  return pickEngagement(deps, title);
}
