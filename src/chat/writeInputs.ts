// The input of the write tools, checked before anything is confirmed or sent: whether this
// folder and key may write at all, the ids (at most `MAX_UPDATED`), the changes asked (as the
// service would check them), and how a confirmation is kept until its invocation.
import * as vscode from 'vscode';
import { updateBody } from '../api/writeBodies';
import type { EngagementChanges } from '../api/types';
import { escapeLine } from '../core/engagementText';
import type { Environment } from '../session/model';
import type { ChatDeps, Confirmation } from './deps';
import { MAX_UPDATED } from './names';
import { findEnvironment, ToolRefusal } from './target';

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

export function field(text: string | undefined): string {
  return text === undefined || text === '' ? vscode.l10n.t('(none)') : `“${escapeLine(text)}”`;
}

export function ids(input: UpdateInput): string[] {
  const list = Array.isArray(input.ids) ? input.ids : [];
  const clean = [...new Set(list.filter((id): id is string => typeof id === 'string').map((id) => id.trim()))].filter(
    (id) => id !== '' && id.length <= 200,
  );
  if (clean.length === 0) throw new ToolRefusal(vscode.l10n.t('Give the ids of the engagements to change.'));
  if (clean.length > MAX_UPDATED)
    throw new ToolRefusal(vscode.l10n.t('At most {0} engagements can be changed at once.', MAX_UPDATED));
  return clean;
}

export function wanted(input: UpdateInput, count: number): EngagementChanges {
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
export function keepConfirmation(deps: ChatDeps, tool: string, input: object, confirmation: Confirmation): void {
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
