// The confirmations of the write tools (`prepareInvocation`): exactly what will change (old →
// new, every engagement listed), where, and a production environment marked. It reads nothing
// slow: values not held yet are read within a bounded time, and what does not come is shown
// as not read. What a confirmation shows is what its invocation is bound to: the environment
// and key (target.ts) and the versions shown (the stale-write guard of writes.ts).
import * as vscode from 'vscode';
import type { Engagement, EngagementChanges } from '../api/types';
import { LIMITS, mapLimited } from '../core/concurrency';
import { escapeLine } from '../core/engagementText';
import type { ChatDeps } from './deps';
import { Tools } from './names';
import { confirmationFor, environmentName, findEnvironment, resolveTarget } from './target';
import { type CreateInput, field, ids, keepConfirmation, refusal, type UpdateInput, wanted } from './writeInputs';
import { knownEngagement } from './wholeSet';

/** How long a confirmation may spend reading current values it does not hold (VS Code gives it 3 s). */
const PREPARE_READ_MS = 1_500;

export async function prepareCreate(deps: ChatDeps, input: CreateInput): Promise<vscode.PreparedToolInvocation> {
  const refused = refusal(deps, input.environment);
  if (refused) return { invocationMessage: refused };
  const env = findEnvironment(deps, input.environment);
  keepConfirmation(deps, Tools.createEngagement, input, await confirmationFor(deps, env));
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
  const versions = new Map([...current].map(([id, e]) => [id, e.updatedAt]));
  keepConfirmation(deps, Tools.updateEngagements, input, await confirmationFor(deps, env, versions));
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
