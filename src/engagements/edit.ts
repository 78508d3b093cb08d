// The edit flow: rename, edit the description or change the status of one engagement, the
// current value prefilled. Only changed fields are sent; nothing when nothing changed. Before
// sending, the engagement is read again: if it changed on the server since it was shown, the
// user chooses Overwrite, Reload or Cancel. The PATCH carries the version decided on; a failed
// one offers Retry (same values) and Edit, a refused field reopens its box with the reason.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { changedFields, differingFields, hasChanges } from '../api/engagements';
import type { EngagementChanges } from '../api/types';
import type { Engagement } from '../core/engagement';
import { nameText, statusChoices, statusLook } from '../core/engagementText';
import { relativeTime } from '../core/format';
import { validateName, validateStatus } from '../core/validation';
import { showError } from '../ui/errorMessages';
import type { Back } from '../ui/ui';
import { isBack, runSteps } from '../ui/ui';
import type { EngagementDeps } from './commandKit';
import { notice, requireApi, ui, withProgress } from './commandKit';
import { refusalFor, refusedFields } from './refusals';
import type { Pinned } from './writeOutcomes';
import { confirmWrite, performWrite, pinEnvironment } from './writeOutcomes';

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
