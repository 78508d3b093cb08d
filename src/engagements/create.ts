// Create an engagement: name → type → description → confirm, with step numbers and Back.
// A failed create keeps the answers: Retry sends the same values again (only when the user
// asks), Edit reopens the steps prefilled. Nothing is ever re-sent automatically.
import * as vscode from 'vscode';
import type { NewEngagement } from '../api/types';
import { Commands } from '../shared/constants';
import { validateName, validateType } from '../core/validation';
import { isBack, runSteps } from '../ui/ui';
import type { EngagementDeps } from './commandKit';
import { environmentLabel, requireApi, ui } from './commandKit';
import { refusalFor, refusedFields } from './refusals';
import type { Pinned } from './writeOutcomes';
import { confirmWrite, performWrite, pinEnvironment } from './writeOutcomes';

const STEPS = 4;

/** The answers so far, and what the flow reopens with: the step it starts at, the service's refusal there. */
interface CreateFlow {
  deps: EngagementDeps;
  title: string;
  answer: { name: string; type: string; description: string };
  startAt: number;
  refusal?: string;
}

/** Asks for a new engagement (prefilled with `draft`, starting at `startAt`) and sends it. */
export async function createEngagement(
  deps: EngagementDeps,
  draft: Partial<NewEngagement> = {},
  startAt = 0,
  refusal?: string,
): Promise<void> {
  if (!(await requireApi(deps))) return;
  // The types offered come from the data; load it if nothing was read yet.
  void deps.store.ensureLoaded();
  const answer = { name: draft.name ?? '', type: draft.type ?? '', description: draft.description ?? '' };
  const flow: CreateFlow = { deps, title: vscode.l10n.t('Create Engagement'), answer, startAt, refusal };
  const steps = [askName, askType, askDescription, confirmCreate].map((step) => () => step(flow));
  if (!(await runSteps(steps, startAt))) return;
  const input: NewEngagement = { name: answer.name, type: answer.type };
  if (answer.description) input.description = answer.description;
  await submit(deps, input);
}

async function askName({ deps, title, answer, startAt, refusal }: CreateFlow) {
  const name = await ui(deps).input({
    title,
    step: 1,
    totalSteps: STEPS,
    value: answer.name,
    prompt: vscode.l10n.t('Name of the engagement (required)'),
    placeholder: vscode.l10n.t('For example: Q3 Support Quality Review'),
    initialError: startAt === 0 ? refusal : undefined,
    validate: (v) => (validateName(v) ? vscode.l10n.t('Enter a name.') : undefined),
  });
  if (name === undefined || isBack(name)) return name;
  answer.name = name.trim();
  return 'next' as const;
}

async function askType({ deps, title, answer, startAt, refusal }: CreateFlow) {
  const seen = deps.store.seenTypes();
  const types = answer.type && !seen.includes(answer.type) ? [answer.type, ...seen] : seen;
  const type = await ui(deps).pick<string>({
    title,
    step: 2,
    totalSteps: STEPS,
    placeholder:
      startAt === 1 && refusal
        ? refusal
        : types.length
          ? vscode.l10n.t('Choose a type, or type a new one')
          : vscode.l10n.t('Type the engagement type'),
    items: types.map((t) => ({
      label: t,
      value: t,
      iconId: 'tag',
      description: t === answer.type ? vscode.l10n.t('chosen') : undefined,
    })),
    activeValue: answer.type || undefined,
    freeEntry: {
      label: (text) => vscode.l10n.t('Use the type “{0}”', text),
      value: (text) => text.trim(),
      validate: (text) => (validateType(text) ? vscode.l10n.t('Enter a type.') : undefined),
    },
  });
  if (type === undefined || isBack(type)) return type;
  answer.type = type;
  return 'next' as const;
}

async function askDescription({ deps, title, answer, startAt, refusal }: CreateFlow) {
  const description = await ui(deps).input({
    title,
    step: 3,
    totalSteps: STEPS,
    value: answer.description,
    prompt: vscode.l10n.t('Description (optional; press Enter to leave it empty)'),
    initialError: startAt === 2 ? refusal : undefined,
  });
  if (description === undefined || isBack(description)) return description;
  answer.description = description.trim();
  return 'next' as const;
}

async function confirmCreate({ deps, title, answer }: CreateFlow) {
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
}

async function submit(deps: EngagementDeps, input: NewEngagement, pinned?: Pinned): Promise<void> {
  const pin = pinned ?? pinEnvironment(deps);
  if (!pin) return;
  const sentAt = Date.now();
  await performWrite(deps, {
    pin,
    action: vscode.l10n.t('create “{0}”', input.name),
    progress: vscode.l10n.t('Creating “{0}” in {1}…', input.name, pin.label),
    send: () => pin.api.engagements.create(input),
    // Created after all? An engagement with this name and type, made since it was sent.
    check: () => pin.api.engagements.findCreated(input, sentAt),
    done: async (created, how) => {
      if (pin.active()) deps.store.upsert(created, true);
      // Its name as the service holds it; as sent when the service's answer left it out.
      const name = created.name ?? input.name;
      confirmWrite(deps, vscode.l10n.t('Created “{0}” ({1}).', name, created.id), how);
      if (pin.active() && !(await deps.view.reveal(created.id))) await hiddenByFilter(deps, name);
    },
    accepted: {
      pending: vscode.l10n.t(
        'The service accepted “{0}” for processing; it shows as pending in the view until the service shows it.',
        input.name,
      ),
      notShown: vscode.l10n.t(
        'The service accepted “{0}” and has not shown it yet. Refresh in a moment to see it.',
        input.name,
      ),
    },
    // Only offered when nothing was created: the same input, to the same environment.
    retry: () => submit(deps, input, pin),
    edit: () => createEngagement(deps, input, 0),
    handle: async (error) => {
      // The service refused a field: ask for it again, its message shown, the rest kept.
      const refused = refusedField(error);
      if (!refused) return false;
      await createEngagement(deps, input, refused.step, refused.message);
      return true;
    },
  });
}

const FIELD_STEPS: Record<string, number> = { name: 0, type: 1, description: 2 };

/** The field the service refused (a 400/422 naming it), if it is one the flow asks for. */
function refusedField(error: unknown): { step: number; message: string } | undefined {
  const refusal = refusalFor(refusedFields(error), Object.keys(FIELD_STEPS));
  return refusal && { step: FIELD_STEPS[refusal.field], message: refusal.message };
}

async function hiddenByFilter(deps: EngagementDeps, name: string): Promise<void> {
  if (!deps.query.filtered) return;
  const clear = vscode.l10n.t('Clear Filter');
  const choice = await ui(deps).message(
    'info',
    vscode.l10n.t('“{0}” was created; the current filter hides it.', name),
    {},
    clear,
  );
  if (choice === clear) await vscode.commands.executeCommand(Commands.clearEngagementFilter);
}
