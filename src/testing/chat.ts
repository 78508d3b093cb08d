// The chat feature's test probes: what VS Code calls of a tool (the chat UI cannot be driven
// from the extension host), a link opened as the URI handler opens it, and the link Copy Link
// writes. Built from the parts the feature returned; in development and test builds only.
import * as vscode from 'vscode';
import { linkOf, openLink } from '../chat/links';
import type { ChatParts } from '../chat/index';
import type { McpServers } from '../chat/mcp';
import type { ToolName } from '../tools/definitions';
import { invokeTool, prepareTool } from '../chat/tools';

export interface ChatExports {
  /** The tools this extension registered (none where the VS Code has no tools API). */
  registered(): string[];
  /** What a tool's `prepareInvocation` answers for an input: the very function VS Code calls. */
  prepare(name: string, input: object): Promise<vscode.PreparedToolInvocation | undefined>;
  /** What VS Code calls once the person confirmed what `prepare` showed for the same input (a dialog the extension host cannot click). */
  invokeConfirmed(name: string, input: object): Promise<string>;
  /** Opens a link as the URI handler does (code-server does not hand `openExternal` links to it in tests). */
  openLink(link: string): Promise<void>;
  /** The link of an engagement in the active environment, as Copy Link writes it. */
  link(id: string): Promise<string | undefined>;
  /** The MCP server definitions provider, as VS Code calls it. */
  mcp: McpServers;
  /** The MCP server at its path that survives updates, copied there again if it changed. */
  serverCopy(): Promise<string>;
}

export function chatProbe(parts: ChatParts): ChatExports {
  const { deps } = parts;
  const { services } = deps;
  const token = () => new vscode.CancellationTokenSource().token;
  return {
    registered: () => [...parts.tools],
    prepare: (name, input) => prepareTool(deps, name as ToolName, input as Record<string, unknown>, token()),
    invokeConfirmed: async (name, input) => {
      const result = await invokeTool(deps, name as ToolName, input as Record<string, unknown>, token());
      return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    },
    openLink: (link) => openLink(services, vscode.Uri.parse(link)),
    link: (id) => Promise.resolve(linkOf(services, id)),
    mcp: parts.mcp,
    serverCopy: parts.serverCopy,
  };
}
