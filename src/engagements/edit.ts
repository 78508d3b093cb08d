// Update one engagement: rename, edit the description or change the status, the current value
// prefilled. Only changed fields are sent; nothing when nothing changed. Before sending, the
// engagement is read again: if it changed on the server since it was shown, the user chooses
// Overwrite, Reload or Cancel. A failed PATCH offers Retry (same values) and Edit.
import * as vscode from 'vscode';
import type { Engagement, EngagementChanges } from '../api/types';
import { changedFields, differingFields, hasChanges } from '../core/changes';
import { relativeTime } from '../core/format';
import { statusChoices, statusLook } from '../core/status';
import { validateName, validateStatus } from '../core/validation';
import { isApiError } from '../api/errors';
import { showError } from '../ui/errors';
import { type Back, isBack, runSteps } from '../ui/ui';
import { type EngagementDeps, notice, requireApi, ui, withProgress } from './common';
import { confirmWrite, performWrite, pinEnvironment, refusalFor, refusedFields, type Pinned } from './writes';

export type EditField = 'name' | 'description' | 'status';

function fieldTitle(field: EditField, name: string): string {
  if (field === 'name') return vscode.l10n.t('Rename “{0}”', name);
  if (field === 'description') return vscode.l10n.t('Description of “{0}”', name);
  return vscode.l10n.t('Status of “{0}”', name);
}

/** Asks for one field's new value; the current value (or the user's earlier answer) is prefilled. */
export async function askField(
  deps: EngagementDeps,
  field: EditField,
  engagement: Engagement,
  value: string,
  step?: { step: number; totalSteps: number },
  refusal?: string,
): Promise<string | Back | undefined> {
  const title = fieldTitle(field, engagement.name);
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
  return ui(deps).pick<string>({
    title,
    ...step,
    placeholder: note ?? vscode.l10n.t('Choose a status, or type another one'),
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
        title: vscode.l10n.t('Edit “{0}”', engagement.name),
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
    const prefill = wanted[f] ?? (f === 'description' ? (engagement.description ?? '') : engagement[f]);
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

export type ConflictChoice = 'overwrite' | 'reload' | 'cancel';

/** Says that an engagement changed on the server since it was shown, and asks what to do. */
export async function askOnConflict(
  deps: EngagementDeps,
  shown: Engagement,
  fresh: Engagement,
): Promise<ConflictChoice> {
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
      fresh.name,
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
export async function applyChanges(
  deps: EngagementDeps,
  shown: Engagement,
  changes: EngagementChanges,
  edit: (engagement: Engagement, refusal?: string) => Promise<void>,
  pinned?: Pinned,
): Promise<void> {
  if (!hasChanges(changes)) {
    notice(deps, vscode.l10n.t('Nothing changed in “{0}”; nothing was sent.', shown.name));
    return;
  }
  const pin = pinned ?? pinEnvironment(deps);
  if (!pin) return;
  const { api } = pin;
  const action = vscode.l10n.t('update “{0}”', shown.name);
  const again = () => applyChanges(deps, basis, changes, edit, pin);
  const reopen = () => edit((pin.active() ? deps.store.get(shown.id) : undefined) ?? basis);
  /** The version the user decided to change (moves forward with each Overwrite). */
  let basis = shown;
  let preconditions = true;
  for (let round = 0; round < MAX_CONFLICT_ROUNDS; round++) {
    let fresh: Engagement;
    try {
      fresh = await withProgress(vscode.l10n.t('Checking “{0}”…', shown.name), () => api.engagements.get(shown.id));
    } catch (error) {
      deps.services.log.error(`Re-reading engagement ${shown.id} before an update failed`, error);
      await showError(ui(deps), error, { action, environmentLabel: pin.label, edit: reopen, retry: again });
      return;
    }
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
    let conflict = false;
    await performWrite(deps, {
      pin,
      action,
      progress: vscode.l10n.t('Updating “{0}”…', shown.name),
      send: () =>
        api.engagements.update(shown.id, changes, preconditions ? { expectedUpdatedAt: fresh.updatedAt } : {}),
      check: async () => {
        const { engagement, applied } = await api.engagements.checkUpdate(shown.id, changes);
        return applied ? engagement : undefined;
      },
      done: async (updated, how) => {
        if (pin.active()) deps.store.upsert(updated);
        confirmWrite(deps, vscode.l10n.t('Updated “{0}”.', updated.name), how);
        if (pin.active()) await deps.view.reveal(updated.id);
      },
      accepted: {
        pending: vscode.l10n.t(
          'The service accepted the change to “{0}” for processing; the new values show as pending until the service shows them.',
          shown.name,
        ),
        notShown: vscode.l10n.t(
          'The service accepted the change to “{0}” and has not shown it yet. Refresh in a moment to see it.',
          shown.name,
        ),
      },
      retry: again,
      edit: reopen,
      handle: async (error) => {
        if (isApiError(error) && error.kind === 'conflict') {
          conflict = true;
          return true;
        }
        const refusal = refusalFor(refusedFields(error), ['name', 'description', 'status']);
        if (!refusal) return false;
        await edit(basis, refusal.message);
        return true;
      },
    });
    if (!conflict) return;
    // 409/412: someone changed it between the read and the PATCH. Read again and ask. A
    // service that refuses the precondition although nothing changed gets the PATCH without it.
    const now = await api.engagements.get(shown.id).catch(() => undefined);
    if (now && now.updatedAt === fresh.updatedAt) preconditions = false;
  }
  await ui(deps).message(
    'warning',
    vscode.l10n.t('“{0}” keeps changing on the server; nothing was sent. Try again in a moment.', shown.name),
    {},
  );
}
