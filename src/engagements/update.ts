// Sending an update: the engagement is read right before (a change made meanwhile is asked
// about: Overwrite, Reload or Cancel), and the PATCH carries the version decided on.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { Engagement, EngagementChanges } from '../api/types';
import { differingFields, hasChanges } from '../core/changes';
import { relativeTime } from '../core/format';
import { showError } from '../ui/errors';
import { type EngagementDeps, notice, ui, withProgress } from './common';
import { confirmWrite, performWrite, pinEnvironment, refusalFor, refusedFields, type Pinned } from './writes';

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
    vscode.l10n.t('“{0}” keeps changing on the server; nothing was sent. Try again in a moment.', shown.name),
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
    return await withProgress(vscode.l10n.t('Checking “{0}”…', shown.name), () => pin.api.engagements.get(shown.id));
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
    progress: vscode.l10n.t('Updating “{0}”…', shown.name),
    send: () => api.engagements.update(shown.id, changes, preconditions ? { expectedUpdatedAt: fresh.updatedAt } : {}),
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
