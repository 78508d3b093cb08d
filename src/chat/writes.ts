// The write tools once confirmed (`invoke`): create an engagement; change the name, description
// or status of one, or the status of several. Each engagement is read again first and nothing
// is written over a version other than the one the confirmation (confirm.ts) showed (the bulk
// status path's stale-write guard); then each change is sent with that version as its
// precondition, to the environment and with the key the confirmation named (target.ts).
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { changedFields, createBody, hasChanges } from '../api/engagements';
import { type Engagement, type EngagementChanges, isAccepted } from '../api/types';
import { LIMITS, mapLimited } from '../core/concurrency';
import { unknownValue, withUnknownFields } from '../core/engagementText';
import { describeError } from '../ui/errorMessages';
import type { ChatDeps, Confirmation } from './deps';
import { Tools } from './deps';
import { engagementLink } from './links';
import { dataBlock, errorResult, heading, textResult } from './result';
import { confirmedTarget, type Target, ToolRefusal } from './target';
import { type CreateInput, ids, refusal, refusalIn, takeConfirmation, type UpdateInput, wanted } from './confirm';
import { keepWritten } from './engagementTools';

/**
 * The target a confirmed write goes to: why it cannot be written (checked again, in the
 * environment confirmed), or where the confirmation bound it to.
 */
async function boundTarget(deps: ChatDeps, input: { environment?: unknown }, confirmed: Confirmation | undefined) {
  const refused = confirmed
    ? refusalIn(deps, { id: confirmed.environmentId, label: confirmed.label })
    : refusal(deps, input.environment);
  if (refused) throw new ToolRefusal(refused);
  return confirmedTarget(deps, confirmed);
}

export async function createEngagement(deps: ChatDeps, input: CreateInput) {
  const target = await boundTarget(deps, input, takeConfirmation(deps, Tools.createEngagement, input));
  const body = createBody({
    name: String(input.name ?? ''),
    type: String(input.type ?? ''),
    description: input.description,
  });
  let outcome: Awaited<ReturnType<typeof target.api.engagements.create>>;
  try {
    outcome = await target.api.engagements.create(body);
  } catch (error) {
    // Said for the environment it was sent to, which need not be the active one.
    deps.services.log.error(`The chat tool ${Tools.createEngagement} failed`, error);
    return errorResult(error, target.env.label, heading(target));
  }
  if (isAccepted(outcome)) {
    if (target.active) void deps.store.track(outcome);
    return textResult(
      heading(target),
      vscode.l10n.t('The service accepted the new engagement for processing; it does not show it yet.'),
      dataBlock(body),
    );
  }
  keepWritten(deps, target, outcome.engagement, true);
  return textResult(
    heading(target),
    vscode.l10n.t('Created the engagement.'),
    dataBlock({
      ...withUnknownFields(outcome.engagement),
      link: engagementLink(target.env.label, outcome.engagement.id),
    }),
  );
}

type Outcome =
  | { id: string; result: 'changed'; engagement: Engagement }
  | { id: string; result: 'accepted' }
  | { id: string; result: 'unchanged' }
  | { id: string; result: 'changedMeanwhile'; fields: string }
  | { id: string; result: 'failed'; error: unknown };

export async function updateEngagements(deps: ChatDeps, input: UpdateInput) {
  const confirmed = takeConfirmation(deps, Tools.updateEngagements, input);
  const target = await boundTarget(deps, input, confirmed);
  const list = ids(input);
  const changes = wanted(input, list.length);
  const shown = confirmed?.versions;
  const outcomes = await mapLimited(list, LIMITS.perEngagement, (id) => updateOne(deps, target, id, changes, shown));
  const rows = outcomes.map((r, i): Outcome =>
    r.status === 'fulfilled' ? r.value : { id: list[i], result: 'failed', error: r.reason },
  );
  return report(target, rows);
}

async function updateOne(
  deps: ChatDeps,
  target: Target,
  id: string,
  wantedChanges: EngagementChanges,
  shown: ReadonlyMap<string, string> | undefined,
): Promise<Outcome> {
  const fresh = await target.api.engagements.get(id);
  const confirmed = shown?.get(id);
  if (confirmed !== undefined && confirmed !== fresh.updatedAt)
    return { id, result: 'changedMeanwhile', fields: fresh.updatedAt ?? unknownValue() };
  const changes = changedFields(fresh, wantedChanges);
  if (!hasChanges(changes)) return { id, result: 'unchanged' };
  let engagement: Engagement;
  try {
    const outcome = await target.api.engagements.update(id, changes, { expectedUpdatedAt: fresh.updatedAt });
    if (isAccepted(outcome)) {
      if (target.active) void deps.store.track(outcome);
      return { id, result: 'accepted' };
    }
    engagement = outcome.engagement;
  } catch (error) {
    if (!isApiError(error) || !error.writeOutcome) throw error;
    // Made, or perhaps made: look before calling it failed.
    const check = await target.api.engagements.checkUpdate(id, changes).catch(() => undefined);
    if (!check?.applied) throw error;
    engagement = check.engagement;
  }
  keepWritten(deps, target, engagement);
  return { id, result: 'changed', engagement };
}

function report(target: Target, rows: Outcome[]) {
  const count = (kind: Outcome['result']) => rows.filter((r) => r.result === kind).length;
  const summary = vscode.l10n.t(
    'Changed {0}, accepted for processing {1}, already so (nothing sent) {2}, changed by someone else since confirmed (nothing sent) {3}, failed {4}.',
    count('changed'),
    count('accepted'),
    count('unchanged'),
    count('changedMeanwhile'),
    count('failed'),
  );
  const hint = count('changedMeanwhile')
    ? vscode.l10n.t('Read the engagements changed meanwhile again and ask the user before changing them.')
    : '';
  const data = rows.map((r) => {
    const link = engagementLink(target.env.label, r.id);
    switch (r.result) {
      case 'changed':
        return {
          id: r.id,
          result: r.result,
          name: r.engagement.name,
          status: r.engagement.status,
          updatedAt: r.engagement.updatedAt ?? unknownValue(),
          link,
        };
      case 'failed':
        return { id: r.id, result: r.result, error: describeError(r.error, target.env.label) };
      case 'changedMeanwhile':
        return { id: r.id, result: r.result, updatedAt: r.fields, link };
      default:
        return { id: r.id, result: r.result, link };
    }
  });
  return textResult(heading(target), summary, hint, dataBlock(data));
}
