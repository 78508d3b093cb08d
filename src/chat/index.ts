// The chat feature: the Language Model Tools (package.json `languageModelTools`), the links
// that open an engagement (a URI handler) and Copy Link. Registering reads nothing and loads
// only the tools' names: each tool's code, the link handler and Copy Link are loaded
// (import()) when first used, so activation stays as fast and as small as before.
import * as vscode from 'vscode';
import { Commands } from '../shared/constants';
import type { EngagementStore } from '../engagements/store';
import type { Feature, Services } from '../shared/services';
import type { ChatDeps } from './deps';
import { TOOL_NAMES, type ToolName } from './names';

export interface ChatExports {
  /** The tools this extension registered (none where the VS Code has no tools API). */
  registered(): string[];
  /** What a tool's `prepareInvocation` answers for an input: the very function VS Code calls. */
  prepare(name: string, input: object): Promise<vscode.PreparedToolInvocation | undefined>;
  /** What VS Code calls once the person confirmed (a dialog the extension host cannot click). */
  invokeConfirmed(name: string, input: object): Promise<string>;
  /** Opens a link as the URI handler does (code-server does not hand `openExternal` links to it in tests). */
  openLink(link: string): Promise<void>;
  /** The link of an engagement in the active environment, as Copy Link writes it. */
  link(id: string): Promise<string | undefined>;
}

export function registerChat(services: Services, store: EngagementStore) {
  const deps: ChatDeps = { services, store, wholeSets: new Map(), shown: new Map() };
  const { context, connection, environments } = services;
  const load = () => import('./tools');
  const registered: string[] = [];
  const prepare = async (name: ToolName, input: object, token: vscode.CancellationToken) =>
    (await load()).prepareTool(deps, name, input as Record<string, unknown>, token);
  // The tools API is stable since 1.95; a host without it (or one that turned tools off) simply has none.
  if (typeof vscode.lm?.registerTool === 'function') {
    for (const name of TOOL_NAMES) {
      context.subscriptions.push(
        vscode.lm.registerTool<object>(name, {
          prepareInvocation: (options, token) => prepare(name, options.input, token),
          invoke: async (options, token) =>
            (await load()).invokeTool(deps, name, options.input as Record<string, unknown>, token),
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
          await (await import('./openLink')).openLink(services, uri);
        } catch (error) {
          services.log.error('Opening a link failed', error);
        }
      },
    }),
  );

  return {
    commands: {
      [Commands.copyEngagementLink]: async (...args: unknown[]) =>
        (await import('./copyLink')).copyLink(services, store, args),
    },
    parts: {
      registered: () => [...registered],
      prepare: (name, input) => prepare(name as ToolName, input, new vscode.CancellationTokenSource().token),
      invokeConfirmed: async (name, input) => {
        const result = await (
          await load()
        ).invokeTool(
          deps,
          name as ToolName,
          input as Record<string, unknown>,
          new vscode.CancellationTokenSource().token,
        );
        return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
      },
      openLink: async (link) => (await import('./openLink')).openLink(services, vscode.Uri.parse(link)),
      link: async (id) => (await import('./copyLink')).linkOf(services, id),
    },
  } satisfies Feature<ChatExports>;
}
