// The tools' dispatch: which function answers each tool, and one place that turns every
// failure into words for the model. Never throws: VS Code would show a thrown error's message raw.
import type * as vscode from 'vscode';
import type { ChatDeps, ToolName } from './deps';
import { Tools } from './deps';
import { findEngagements, getEngagement } from './engagementTools';
import { errorResult } from './result';
import { findEnvironment } from './target';
import { usage } from './usageTool';
import { prepareCreate, prepareUpdate } from './confirm';
import { createEngagement, updateEngagements } from './writes';

type Input = Record<string, unknown>;

export async function invokeTool(
  deps: ChatDeps,
  name: ToolName,
  input: Input,
  token: vscode.CancellationToken,
): Promise<vscode.LanguageModelToolResult> {
  try {
    switch (name) {
      case Tools.findEngagements:
        return await findEngagements(deps, input, token);
      case Tools.getEngagement:
        return await getEngagement(deps, input);
      case Tools.createEngagement:
        return await createEngagement(deps, input);
      case Tools.updateEngagements:
        return await updateEngagements(deps, input);
      case Tools.usage:
        return await usage(deps, input);
    }
  } catch (error) {
    deps.services.log.error(`The chat tool ${name} failed`, error);
    let label: string | undefined;
    try {
      label = findEnvironment(deps, input.environment).label;
    } catch {
      label = undefined;
    }
    return errorResult(error, label);
  }
}

/** The confirmation of a write; reads get none (undefined: VS Code's own message). */
export async function prepareTool(
  deps: ChatDeps,
  name: ToolName,
  input: Input,
  token: vscode.CancellationToken,
): Promise<vscode.PreparedToolInvocation | undefined> {
  if (name === Tools.createEngagement) return prepareCreate(deps, input);
  if (name === Tools.updateEngagements) return prepareUpdate(deps, input, token);
  return undefined;
}
