// The write tools in VS Code before anything is sent: whether this folder and key may write at
// all, the confirmation a person is shown (`prepareInvocation`: exactly what will change), and
// that confirmation kept until its invocation, which it binds (src/chat/tools.ts).
import * as vscode from 'vscode';
import type { EngagementChanges } from '../api/types';
import type { Engagement } from '../core/engagement';
import { LIMITS, mapLimited } from '../core/concurrency';
import { escapeLine, unknownValue } from '../core/engagementText';
import type { Environment } from '../session/model';
import { type InputOf, Tools } from '../tools/definitions';
import { type UpdateInput, ids, wanted } from '../tools/engagements';
import { ToolRefusal } from '../tools/host';
import type { ChatDeps, Confirmation } from './deps';
import { chatHost, confirmationFor, environmentName, findEnvironment, resolveTarget } from './target';

/** Why a write cannot be made here, said instead of a confirmation that could only fail. */
export function refusal(deps: ChatDeps, named: unknown): string | undefined {
  if (!vscode.workspace.isTrusted) return untrusted();
  try {
    return refusalIn(deps, findEnvironment(deps, named));
  } catch (error) {
    if (error instanceof ToolRefusal) return error.message;
    throw error;
  }
}

/** Why a write cannot be made in `env` (known), or undefined. */
export function refusalIn(deps: ChatDeps, env: Pick<Environment, 'id' | 'label'>): string | undefined {
  if (!vscode.workspace.isTrusted) return untrusted();
  if (deps.services.environments.capabilities(env.id).write === false)
    return vscode.l10n.t(
      'The API key of “{0}” lacks the engagements:write scope, so it cannot create or change engagements. Ask the user to replace it with a key that has it.',
      env.label,
    );
  return undefined;
}

function untrusted(): string {
  return vscode.l10n.t(
    'This folder is not trusted (Restricted Mode): the engagement tools only read here. Trust the folder to create or change engagements.',
  );
}

function field(text: string | undefined): string {
  return text === undefined || text === '' ? vscode.l10n.t('(none)') : `“${escapeLine(text)}”`;
}

/** Confirmations kept at most: one a person cancelled is never invoked, and goes with the oldest. */
const KEPT_CONFIRMATIONS = 100;

/**
 * The key a confirmation is kept under until its invocation: the tool and its input (VS Code
 * hands both calls the same input), the input's properties in a fixed order.
 */
function confirmationKey(tool: string, input: object): string {
  return JSON.stringify([tool, input], (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

/**
 * Keeps what a confirmation bound the write to. The same tool and input confirmed again
 * replaces it: VS Code shows a tool's confirmation right after preparing it and invokes the
 * tool once it is answered, so the latest is the one the person is answering.
 */
function keepConfirmation(deps: ChatDeps, tool: string, input: object, confirmation: Confirmation): void {
  const key = confirmationKey(tool, input);
  deps.confirmed.delete(key);
  deps.confirmed.set(key, confirmation);
  for (const oldest of deps.confirmed.keys()) {
    if (deps.confirmed.size <= KEPT_CONFIRMATIONS) break;
    deps.confirmed.delete(oldest);
  }
}

/** What the person confirmed for this invocation (once: a second invocation finds none). */
export function takeConfirmation(deps: ChatDeps, tool: string, input: object): Confirmation | undefined {
  const key = confirmationKey(tool, input);
  const confirmation = deps.confirmed.get(key);
  deps.confirmed.delete(key);
  return confirmation;
}

// The confirmations of the write tools (`prepareInvocation`): exactly what will change (old →
// new, every engagement listed), where, and a production environment marked. It reads nothing
// slow: values not held yet are read within a bounded time, and what does not come is shown
// as not read. What a confirmation shows is what its invocation is bound to: the environment
// and key (target.ts) and the versions shown (the stale-write guard of writes.ts).
/** How long a confirmation may spend reading current values it does not hold (VS Code gives it 3 s). */
const PREPARE_READ_MS = 1_500;

export async function prepareCreate(
  deps: ChatDeps,
  input: InputOf<typeof Tools.createEngagement>,
): Promise<vscode.PreparedToolInvocation> {
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
    // A name or status the service sent none of readably is unknown, not none.
    const before = !e
      ? vscode.l10n.t('(not read)')
      : key === 'description'
        ? field(e.description ?? '')
        : e[key] === undefined
          ? unknownValue()
          : field(e[key]);
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
    const known = target && chatHost(deps).known(target, id);
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
  // An engagement without a readable `updatedAt` has no version to hold the write to.
  const versions = new Map([...current].flatMap(([id, e]) => (e.updatedAt === undefined ? [] : [[id, e.updatedAt]])));
  keepConfirmation(deps, Tools.updateEngagements, input, await confirmationFor(deps, env, versions));
  const lines = list.map((id) => {
    const e = current.get(id);
    const name = e?.name !== undefined ? `“${escapeLine(e.name)}” (${idText(id)})` : idText(id);
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
