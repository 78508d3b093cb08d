// Running a tool, for both transports: the input read against the tool's schema (refused in
// words when it does not fit, nothing done), which function answers each, and one place that
// turns every failure into words for the model. Never throws: a transport would show a thrown
// error's message raw. Free of `vscode`.
import { l10n } from '../core/l10n';
import { createEngagement, findEngagements, getEngagement, updateEngagements } from './engagements';
import { INPUTS, type InputOf, type ToolName, Tools } from './definitions';
import { type Target, type ToolContext, type ToolHost, ToolRefusal } from './host';
import { errorResult, failedIn, type ToolResult } from './result';
import { usage } from './usage';

/** Where a write is sent, and the version of each engagement it is based on. */
export interface WriteTarget {
  target: Target;
  versions?: ReadonlyMap<string, string>;
}

export interface RunOptions extends ToolContext {
  /**
   * Where a write goes, decided by the transport: in VS Code where the person's confirmation
   * said (src/chat/confirm.ts). Default: the environment the input names.
   */
  writeTarget?: () => Promise<WriteTarget>;
  /** Every engagement of an update must say in `basedOn` the version it was read with (over MCP). */
  versionsRequired?: boolean;
}

/** The input of `name` as the tool reads it, or a refusal in words saying what does not fit. */
export function readInput<N extends ToolName>(name: N, input: unknown): InputOf<N> {
  try {
    return INPUTS[name].read(input ?? {}, '') as InputOf<N>;
  } catch (error) {
    if (error instanceof ToolRefusal) throw new ToolRefusal(l10n.t('Nothing was done: {0}', error.message));
    throw error;
  }
}

export async function runTool(
  host: ToolHost,
  name: ToolName,
  given: Record<string, unknown>,
  options: RunOptions = {},
): Promise<ToolResult> {
  const context: ToolContext = { signal: options.signal, progress: options.progress };
  try {
    const writeTarget =
      options.writeTarget ?? (async (): Promise<WriteTarget> => ({ target: await host.resolve(given.environment) }));
    switch (name) {
      case Tools.findEngagements:
        return await findEngagements(host, readInput(name, given), context);
      case Tools.getEngagement:
        return await getEngagement(host, readInput(name, given), context);
      case Tools.usage:
        return await usage(host, readInput(name, given), context);
      case Tools.createEngagement: {
        const input = readInput(name, given);
        return await createEngagement(host, (await writeTarget()).target, input, context);
      }
      case Tools.updateEngagements: {
        const input = readInput(name, given);
        const { target, versions } = await writeTarget();
        return await updateEngagements(host, target, input, {
          versions,
          versionsRequired: options.versionsRequired,
          signal: options.signal,
        });
      }
    }
  } catch (error) {
    host.logFailure(name, error);
    return errorResult(error, failedIn(host, host.labelOf(given.environment)));
  }
}
