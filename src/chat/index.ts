// The chat feature: the Language Model Tools (package.json `languageModelTools`), the MCP
// servers offered to VS Code (mcp.ts), the links that open an engagement (a URI handler) and
// Copy Link. Registering reads nothing.
import * as vscode from 'vscode';
import { Commands } from '../shared/constants';
import type { Feature } from '../shared/feature';
import type { Services } from '../services';
import { wholeSetMaxAge } from '../shared/staleness';
import type { ChatDeps, ChatPorts } from './deps';
import { TOOL_NAMES } from '../tools/definitions';
import { WholeSets } from '../tools/host';
import { copyLink, openLink } from './links';
import { type McpServers, NO_MCP_SERVERS, registerMcpServers } from './mcp';
import { copyMcpConfiguration, keepServerCopy } from './mcpClients';
import { invokeTool, prepareTool } from './tools';

/** What the chat feature built: the tools it registered and what they are built from. */
export interface ChatParts {
  /** The tools this extension registered (none where the VS Code has no tools API). */
  tools: readonly string[];
  deps: ChatDeps;
  mcp: McpServers;
  /** The MCP server at its path that survives updates (none in the browser). */
  serverCopy: () => Promise<string>;
}

export function registerChat(services: Services, ports: ChatPorts) {
  const deps: ChatDeps = { ...ports, services, wholeSets: new WholeSets(wholeSetMaxAge), confirmed: new Map() };
  const { context, connection, environments } = services;
  const registered: string[] = [];
  // The tools API is stable since 1.95; a host without it (or one that turned tools off) simply has none.
  if (typeof vscode.lm?.registerTool === 'function') {
    for (const name of TOOL_NAMES) {
      context.subscriptions.push(
        vscode.lm.registerTool<object>(name, {
          prepareInvocation: (options, token) =>
            prepareTool(deps, name, options.input as Record<string, unknown>, token),
          invoke: (options, token) => invokeTool(deps, name, options.input as Record<string, unknown>, token),
        }),
      );
      registered.push(name);
    }
  }
  context.subscriptions.push(
    // Another environment, URL or key: what tools read of other environments is read again.
    connection.onDidChange(() => deps.wholeSets.clear()),
    environments.onDidChange(() => deps.wholeSets.clear()),
    vscode.window.registerUriHandler({
      handleUri: async (uri) => {
        try {
          await openLink(services, uri);
        } catch (error) {
          services.log.error('Opening a link failed', error);
        }
      },
    }),
  );

  // Kept up to date from the start, for clients outside VS Code; checked again by the command.
  // One check at a time in this window: a call meanwhile waits for the one under way.
  let checking: Promise<string> | undefined;
  const serverCopy = () => {
    if (WEB) return Promise.reject(new Error('VS Code for the Web runs no MCP server'));
    checking ??= keepServerCopy(context).finally(() => (checking = undefined));
    return checking;
  };
  if (!WEB)
    serverCopy().catch((error: unknown) =>
      services.log.error('The MCP server could not be copied to its stable place', error),
    );

  return {
    commands: {
      [Commands.copyEngagementLink]: (...args: unknown[]) => copyLink(services, ports, args),
      [Commands.copyMcpConfiguration]: () => copyMcpConfiguration(services, serverCopy),
    },
    parts: { tools: registered, deps, mcp: WEB ? NO_MCP_SERVERS : registerMcpServers(services), serverCopy },
  } satisfies Feature<ChatParts>;
}
