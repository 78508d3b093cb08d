// Create an engagement: name → type → description → confirm, with step numbers and Back.
// A failed create keeps the answers: Retry sends the same values again (only when the user
// asks), Edit reopens the steps prefilled. Nothing is ever re-sent automatically.
import * as vscode from 'vscode';
import type { NewEngagement } from '../api/types';
import { Commands } from '../constants';
import { validateDescription, validateName, validateType } from '../core/validation';
import { showError } from '../ui/errors';
import { isBack, runSteps } from '../ui/ui';
import { type EngagementDeps, environmentLabel, notice, requireApi, ui, withProgress } from './common';

const STEPS = 4;

/** Asks for a new engagement (prefilled with `draft`, starting at `startAt`) and sends it. */
export async function createEngagement(deps: EngagementDeps, draft: Partial<NewEngagement> = {}, startAt = 0): Promise<void> {
  if (!(await requireApi(deps))) return;
  // The types offered come from the data; load it if nothing was read yet.
  void deps.store.ensureLoaded();
  const answer = { name: draft.name ?? '', type: draft.type ?? '', description: draft.description ?? '' };
  const title = vscode.l10n.t('Create Engagement');
  const steps = [
    async () => {
      const name = await ui(deps).input({
        title,
        step: 1,
        totalSteps: STEPS,
        value: answer.name,
        prompt: vscode.l10n.t('Name of the engagement (required)'),
        placeholder: vscode.l10n.t('For example: Q3 Support Quality Review'),
        validate: (v) => (validateName(v) ? vscode.l10n.t('Enter a name (at most 200 characters).') : undefined),
      });
      if (name === undefined || isBack(name)) return name;
      answer.name = name.trim();
      return 'next' as const;
    },
    async () => {
      const seen = deps.store.seenTypes();
      const types = answer.type && !seen.includes(answer.type) ? [answer.type, ...seen] : seen;
      const type = await ui(deps).pick<string>({
        title,
        step: 2,
        totalSteps: STEPS,
        placeholder: types.length ? vscode.l10n.t('Choose a type, or type a new one') : vscode.l10n.t('Type the engagement type'),
        items: types.map((t) => ({ label: t, value: t, iconId: 'tag', description: t === answer.type ? vscode.l10n.t('chosen') : undefined })),
        activeValue: answer.type || undefined,
        freeEntry: {
          label: (text) => vscode.l10n.t('Use the type “{0}”', text),
          value: (text) => text.trim(),
          validate: (text) => (validateType(text) ? vscode.l10n.t('Enter a type (at most 200 characters).') : undefined),
        },
      });
      if (type === undefined || isBack(type)) return type;
      answer.type = type;
      return 'next' as const;
    },
    async () => {
      const description = await ui(deps).input({
        title,
        step: 3,
        totalSteps: STEPS,
        value: answer.description,
        prompt: vscode.l10n.t('Description (optional; press Enter to leave it empty)'),
        validate: (v) => (validateDescription(v) ? vscode.l10n.t('Keep the description under 2,000 characters.') : undefined),
      });
      if (description === undefined || isBack(description)) return description;
      answer.description = description.trim();
      return 'next' as const;
    },
    async () => {
      const confirmed = await ui(deps).pick<'create'>({
        title,
        step: 4,
        totalSteps: STEPS,
        placeholder: vscode.l10n.t('Create this engagement in {0}?', environmentLabel(deps) ?? ''),
        items: [
          {
            label: vscode.l10n.t('Create “{0}”', answer.name),
            description: answer.type,
            detail: answer.description || vscode.l10n.t('No description'),
            value: 'create',
            iconId: 'add',
          },
        ],
      });
      if (confirmed === undefined || isBack(confirmed)) return confirmed;
      return 'next' as const;
    },
  ];
  if (!(await runSteps(steps, startAt))) return;
  const input: NewEngagement = { name: answer.name, type: answer.type };
  if (answer.description) input.description = answer.description;
  await submit(deps, input);
}

async function submit(deps: EngagementDeps, input: NewEngagement): Promise<void> {
  const send = async () => {
    const api = deps.services.connection.api;
    if (!api) throw new Error(vscode.l10n.t('No environment is active.'));
    const created = await withProgress(vscode.l10n.t('Creating “{0}” in {1}…', input.name, environmentLabel(deps) ?? ''), () => api.engagements.create(input));
    deps.store.upsert(created, true);
    notice(deps, vscode.l10n.t('Created “{0}” ({1}).', created.name, created.id));
    if (!(await deps.view.reveal(created.id))) await hiddenByFilter(deps, created.name);
  };
  try {
    await send();
  } catch (error) {
    deps.services.log.error(`Creating the engagement "${input.name}" failed`, error);
    await showError(ui(deps), error, {
      action: vscode.l10n.t('create “{0}”', input.name),
      environmentLabel: environmentLabel(deps),
      retry: send,
      edit: () => createEngagement(deps, input, 0),
    });
  }
}

async function hiddenByFilter(deps: EngagementDeps, name: string): Promise<void> {
  if (!deps.query.filtered) return;
  const clear = vscode.l10n.t('Clear Filter');
  const choice = await ui(deps).message('info', vscode.l10n.t('“{0}” was created; the current filter hides it.', name), {}, clear);
  if (choice === clear) await vscode.commands.executeCommand(Commands.clearEngagementFilter);
}
