// The write tools: create an engagement; change the name, description or status of one, or
// the status of several. `prepareInvocation` says exactly what will change (old → new, every
// engagement listed), where, and marks production; it reads nothing slow. `invoke` reads each
// engagement again first and writes nothing over a version other than the one confirmed
// (the bulk status path's stale-write guard), then sends each change with that version as
// its precondition.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { createBody, updateBody } from '../api/writeBodies';
import { type Engagement, type EngagementChanges, isAccepted } from '../api/types';
import { changedFields, hasChanges } from '../core/changes';
import { LIMITS, mapLimited } from '../core/concurrency';
import { escapeLine } from '../core/engagementText';
import { describeError } from '../ui/errors';
import type { ChatDeps } from './deps';
import { engagementLink } from './link';
import { MAX_UPDATED } from './names';
import { dataBlock, heading, textResult } from './result';
import { environmentName, findEnvironment, resolveTarget, type Target, ToolRefusal } from './target';
import { keepWritten, knownEngagement } from './wholeSet';

/** How long a confirmation may spend reading current values it does not hold (VS Code gives it 3 s). */
const PREPARE_READ_MS = 1_500;

export interface CreateInput {
  environment?: string;
  name?: string;
  type?: string;
  description?: string;
}

export interface UpdateInput {
  environment?: string;
  ids?: string[];
  name?: string;
  description?: string;
  status?: string;
}

/** Why a write cannot be made here, said instead of a confirmation that could only fail. */
function refusal(deps: ChatDeps, named: unknown): string | undefined {
  if (!vscode.workspace.isTrusted)
    return vscode.l10n.t(
      'This folder is not trusted (Restricted Mode): the engagement tools only read here. Trust the folder to create or change engagements.',
    );
  try {
    const env = findEnvironment(deps, named);
    if (deps.services.environments.capabilities(env.id).write === false)
      return vscode.l10n.t(
        'The API key of “{0}” lacks the engagements:write scope, so it cannot create or change engagements. Ask the user to replace it with a key that has it.',
        env.label,
      );
  } catch (error) {
    if (error instanceof ToolRefusal) return error.message;
    throw error;
  }
  return undefined;
}

function field(text: string | undefined): string {
  return text === undefined || text === '' ? vscode.l10n.t('(none)') : `“${escapeLine(text)}”`;
}

export function prepareCreate(deps: ChatDeps, input: CreateInput): vscode.PreparedToolInvocation {
  const refused = refusal(deps, input.environment);
  if (refused) return { invocationMessage: refused };
  const env = findEnvironment(deps, input.environment);
  const lines = [
    vscode.l10n.t('Name: {0}', field(input.name)),
    vscode.l10n.t('Type: {0}', field(input.type)),
    vscode.l10n.t('Description: {0}', field(input.description)),
  ];
  return {
    invocationMessage: vscode.l10n.t('Creating an engagement in {0}', environmentName(env)),
    confirmationMessages: {
      title: vscode.l10n.t('Create an engagement in {0}?', environmentName(env)),
      message: new vscode.MarkdownString(lines.join('  \n')),
    },
  };
}

export async function createEngagement(deps: ChatDeps, input: CreateInput) {
  const refused = refusal(deps, input.environment);
  if (refused) throw new ToolRefusal(refused);
  const target = await resolveTarget(deps, input.environment);
  const body = createBody({
    name: String(input.name ?? ''),
    type: String(input.type ?? ''),
    description: input.description,
  });
  const outcome = await target.api.engagements.create(body);
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
    dataBlock({ ...outcome.engagement, link: engagementLink(target.env.label, outcome.engagement.id) }),
  );
}

function ids(input: UpdateInput): string[] {
  const list = Array.isArray(input.ids) ? input.ids : [];
  const clean = [...new Set(list.filter((id): id is string => typeof id === 'string').map((id) => id.trim()))].filter(
    (id) => id !== '' && id.length <= 200,
  );
  if (clean.length === 0) throw new ToolRefusal(vscode.l10n.t('Give the ids of the engagements to change.'));
  if (clean.length > MAX_UPDATED)
    throw new ToolRefusal(vscode.l10n.t('At most {0} engagements can be changed at once.', MAX_UPDATED));
  return clean;
}

function wanted(input: UpdateInput, count: number): EngagementChanges {
  const changes: EngagementChanges = {};
  if (typeof input.name === 'string') changes.name = input.name;
  if (typeof input.description === 'string') changes.description = input.description;
  if (typeof input.status === 'string') changes.status = input.status;
  if (count > 1 && (changes.name !== undefined || changes.description !== undefined))
    throw new ToolRefusal(
      vscode.l10n.t(
        'Only the status can be changed for several engagements at once; name and description one at a time.',
      ),
    );
  // Refused here as the service would: an empty name or status, nothing to change.
  updateBody(changes);
  return changes;
}

/** The key under which a confirmation's versions are kept until its invocation. */
function inputKey(input: UpdateInput): string {
  return JSON.stringify([input.environment ?? '', ids(input), input.name, input.description, input.status]);
}

/**
 * An id in a confirmation, written so it reads the same in the chat (Markdown) and in VS
 * Code's dialog outside a chat (the Markdown shown as plain text, where an escape's backslash
 * would show): an id of letters and digits joined by single `_ . -` is Markdown as it stands
 * (an `_` between two letters or digits starts no emphasis); any other id is escaped.
 */
function idText(id: string): string {
  return /^[A-Za-z0-9]+(?:[_.-][A-Za-z0-9]+)*$/.test(id) ? id : escapeLine(id);
}

function oldToNew(e: Engagement | undefined, changes: EngagementChanges): string {
  const parts: string[] = [];
  for (const key of ['name', 'description', 'status'] as const) {
    if (changes[key] === undefined) continue;
    const before = e ? field(key === 'description' ? (e.description ?? '') : e[key]) : vscode.l10n.t('(not read)');
    parts.push(`${key}: ${before} → ${field(changes[key])}`);
  }
  return parts.join('; ');
}

export async function prepareUpdate(
  deps: ChatDeps,
  input: UpdateInput,
  token: vscode.CancellationToken,
): Promise<vscode.PreparedToolInvocation> {
  const refused = refusal(deps, input.environment);
  if (refused) return { invocationMessage: refused };
  let list: string[];
  let changes: EngagementChanges;
  try {
    list = ids(input);
    changes = wanted(input, list.length);
  } catch (error) {
    // The invocation says what is wrong; nothing to confirm.
    return { invocationMessage: error instanceof Error ? error.message : String(error) };
  }
  const env = findEnvironment(deps, input.environment);
  const target = await resolveTarget(deps, input.environment).catch(() => undefined);
  const current = new Map<string, Engagement>();
  for (const id of list) {
    const known = target && knownEngagement(deps, target, id);
    if (known) current.set(id, known);
  }
  const missing = list.filter((id) => !current.has(id));
  if (target && missing.length) {
    // Not held yet: read within a bounded time; what does not come is shown as not read.
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), PREPARE_READ_MS);
    const cancel = token.onCancellationRequested(() => abort.abort());
    const reads = await mapLimited(missing, LIMITS.perEngagement, (id) =>
      target.api.engagements.get(id, { signal: abort.signal }),
    );
    clearTimeout(timer);
    cancel.dispose();
    reads.forEach((r, i) => {
      if (r.status === 'fulfilled') current.set(missing[i], r.value);
    });
  }
  deps.shown.set(inputKey(input), new Map([...current].map(([id, e]) => [id, e.updatedAt])));
  const lines = list.map((id) => {
    const e = current.get(id);
    const name = e ? `“${escapeLine(e.name)}” (${idText(id)})` : idText(id);
    return `- ${name}: ${oldToNew(e, changes)}`;
  });
  const title =
    list.length === 1
      ? vscode.l10n.t('Change an engagement in {0}?', environmentName(env))
      : vscode.l10n.t('Change {0} engagements in {1}?', list.length, environmentName(env));
  return {
    invocationMessage: vscode.l10n.t('Changing {0} engagement(s) in {1}', list.length, environmentName(env)),
    confirmationMessages: { title, message: new vscode.MarkdownString(lines.join('\n')) },
  };
}

type Outcome =
  | { id: string; result: 'changed'; engagement: Engagement }
  | { id: string; result: 'accepted' }
  | { id: string; result: 'unchanged' }
  | { id: string; result: 'changedMeanwhile'; fields: string }
  | { id: string; result: 'failed'; error: unknown };

export async function updateEngagements(deps: ChatDeps, input: UpdateInput) {
  const refused = refusal(deps, input.environment);
  if (refused) throw new ToolRefusal(refused);
  const list = ids(input);
  const changes = wanted(input, list.length);
  const target = await resolveTarget(deps, input.environment);
  const shown = deps.shown.get(inputKey(input));
  deps.shown.delete(inputKey(input));
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
  shown: Map<string, string> | undefined,
): Promise<Outcome> {
  const fresh = await target.api.engagements.get(id);
  const confirmed = shown?.get(id);
  if (confirmed !== undefined && confirmed !== fresh.updatedAt)
    return { id, result: 'changedMeanwhile', fields: fresh.updatedAt };
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
          updatedAt: r.engagement.updatedAt,
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
