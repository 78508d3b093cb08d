// Running a tool, for both transports: which function answers each, and one place that turns
// every failure into words for the model. Never throws: a transport would show a thrown error's
// message raw. Free of `vscode`.
import { createEngagement, findEngagements, getEngagement, updateEngagements } from './engagements';
import { type ToolName, Tools } from './definitions';
import type { Target, ToolHost } from './host';
import { errorResult, type ToolResult } from './result';
import { usage } from './usage';

/** Where a write is sent, and the version of each engagement it is based on. */
export interface WriteTarget {
  target: Target;
  versions?: ReadonlyMap<string, string>;
}

export interface RunOptions {
  signal?: AbortSignal;
  /**
   * Where a write goes, decided by the transport: in VS Code where the person's confirmation
   * said (src/chat/confirm.ts). Default: the environment the input names.
   */
  writeTarget?: () => Promise<WriteTarget>;
}

export async function runTool(
  host: ToolHost,
  name: ToolName,
  input: Record<string, unknown>,
  options: RunOptions = {},
): Promise<ToolResult> {
  const writeTarget =
    options.writeTarget ?? (async (): Promise<WriteTarget> => ({ target: await host.resolve(input.environment) }));
  try {
    switch (name) {
      case Tools.findEngagements:
        return await findEngagements(host, input, options.signal);
      case Tools.getEngagement:
        return await getEngagement(host, input);
      case Tools.usage:
        return await usage(host, input);
      case Tools.createEngagement:
        return await createEngagement(host, (await writeTarget()).target, input);
      case Tools.updateEngagements: {
        const { target, versions } = await writeTarget();
        return await updateEngagements(host, target, input, versions);
      }
    }
  } catch (error) {
    host.logFailure(name, error);
    return errorResult(error, { label: host.labelOf(input.environment), replaceKey: host.replaceKey });
  }
}
