// Update one engagement: rename, edit the description or change the status, the current value
// prefilled. Only changed fields are sent; nothing when nothing changed. Before sending (update.ts), the
// engagement is read again: if it changed on the server since it was shown, the user chooses
// Overwrite, Reload or Cancel. A failed PATCH offers Retry (same values) and Edit.
import * as vscode from 'vscode';
import type { Engagement, EngagementChanges } from '../api/types';
import { changedFields } from '../core/changes';
import { statusChoices, statusLook } from '../core/status';
import { validateName, validateStatus } from '../core/validation';
import { type Back, isBack, runSteps } from '../ui/ui';
import { type EngagementDeps, requireApi, ui } from './common';
import { applyChanges } from './update';

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
