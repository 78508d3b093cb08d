// The Language Model Tools: VS Code's transport of the agent tools (src/tools). A write goes
// where the person's confirmation said (confirm.ts, target.ts), with the key it was confirmed
// with and over no version other than the ones it showed, or it is refused in words.
import * as vscode from 'vscode';
import { type ToolName, Tools, WRITE_TOOLS } from '../tools/definitions';
import { ToolRefusal } from '../tools/host';
import { readInput, runTool, type WriteTarget } from '../tools/run';
import type { ChatDeps } from './deps';
import { prepareCreate, prepareUpdate, refusal, refusalIn, takeConfirmation } from './confirm';
import { chatHost, confirmedTarget } from './target';

type Input = Record<string, unknown>;

export async function invokeTool(
  deps: ChatDeps,
  name: ToolName,
  input: Input,
  token: vscode.CancellationToken,
): Promise<vscode.LanguageModelToolResult> {
  const abort = new AbortController();
  const cancel = token.onCancellationRequested(() => abort.abort());
  try {
    const result = await runTool(chatHost(deps), name, input, {
      signal: abort.signal,
      writeTarget: WRITE_TOOLS.includes(name) ? () => boundTarget(deps, name, input) : undefined,
    });
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.text)]);
  } finally {
    cancel.dispose();
  }
}

/**
 * Where a confirmed write goes: why it cannot be written (checked again, in the environment
 * confirmed), or where the confirmation bound it to, with the versions it showed.
 */
async function boundTarget(deps: ChatDeps, name: ToolName, input: Input): Promise<WriteTarget> {
  const confirmed = takeConfirmation(deps, name, input);
  const refused = confirmed
    ? refusalIn(deps, { id: confirmed.environmentId, label: confirmed.label })
    : refusal(deps, input.environment);
  if (refused) throw new ToolRefusal(refused);
  return { target: await confirmedTarget(deps, confirmed), versions: confirmed?.versions };
}

/** The confirmation of a write; reads get none (undefined: VS Code's own message). */
export async function prepareTool(
  deps: ChatDeps,
  name: ToolName,
  input: Input,
  token: vscode.CancellationToken,
): Promise<vscode.PreparedToolInvocation | undefined> {
  if (!WRITE_TOOLS.includes(name)) return undefined;
  try {
    if (name === Tools.createEngagement) return await prepareCreate(deps, readInput(name, input));
    return await prepareUpdate(deps, readInput(Tools.updateEngagements, input), token);
  } catch (error) {
    // The invocation says what does not fit; nothing to confirm.
    if (error instanceof ToolRefusal) return { invocationMessage: error.message };
    throw error;
  }
}
