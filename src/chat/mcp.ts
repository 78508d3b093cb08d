// The MCP server in VS Code, with nothing to set up: from VS Code 1.101 the extension offers
// one server definition per environment whose key is on this machine (the MCP server of
// src/mcp/server.ts, shipped as dist/mcp-server.mjs, run by VS Code's own Node), so agents
// that speak MCP in VS Code get the same tools as its chat. None in Restricted Mode; none for
// an environment without a usable key, which for a workspace's environment means until the
// user entered their own key for it. The key is handed over only when VS Code starts that
// server (`resolveMcpServerDefinition`), in its environment, never in a listed definition.
// Writes follow the user's setting `engagementUsage.mcp.allowWrites` (off by default).
import * as vscode from 'vscode';
import type { Environment } from '../session/model';
import { Settings } from '../shared/constants';
import type { Services } from '../services';

/** `contributes.mcpServerDefinitionProviders[0].id` in package.json. */
const MCP_PROVIDER_ID = 'engagementUsage.mcpServers';

// The API as VS Code 1.101 declares it (`@types/vscode` stays at the oldest VS Code the
// manifest accepts, 1.100, which has none of it: it is feature-detected).
interface StdioDefinition {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  version?: string;
}
interface McpApi {
  registerMcpServerDefinitionProvider(
    id: string,
    provider: {
      onDidChangeMcpServerDefinitions: vscode.Event<void>;
      provideMcpServerDefinitions(): Promise<StdioDefinition[]>;
      resolveMcpServerDefinition(definition: StdioDefinition): Promise<StdioDefinition | undefined>;
    },
  ): vscode.Disposable;
}
type StdioDefinitionClass = new (
  label: string,
  command: string,
  args?: string[],
  env?: Record<string, string | number | null>,
  version?: string,
) => StdioDefinition;

/** What the provider offers: the definitions, and the key handed to one at its start. */
export interface McpServers {
  /** Whether this VS Code has the API (1.101+) and the provider is registered. */
  registered: boolean;
  definitions(): Promise<StdioDefinition[]>;
  resolve(definition: StdioDefinition): Promise<StdioDefinition | undefined>;
}

/** The definition of the server of `env`: the script run by VS Code's own executable as Node, without the key. */
function definitionOf(
  Definition: StdioDefinitionClass,
  env: Environment,
  server: { script: string; version: string; writes: boolean },
): StdioDefinition {
  return new Definition(
    vscode.l10n.t('Engagements: {0}', env.label),
    process.execPath,
    [server.script, ...(server.writes ? ['--allow-writes'] : [])],
    {
      ELECTRON_RUN_AS_NODE: '1',
      EUS_BASE_URL: env.baseUrl,
      EUS_ENVIRONMENT: env.label,
      EUS_PRODUCTION: env.production ? '1' : '0',
    },
    // A new version when what the server may do changes: VS Code reads its tools again.
    `${server.version}${server.writes ? '+writes' : ''}`,
  );
}

/** Where VS Code has no (stable) MCP provider API, and in the browser, which has no process to start. */
export const NO_MCP_SERVERS: McpServers = {
  registered: false,
  definitions: () => Promise.resolve([]),
  resolve: () => Promise.resolve(undefined),
};

export function registerMcpServers(services: Services): McpServers {
  const { context, environments, vault, log } = services;
  const lm = vscode.lm as unknown as Partial<McpApi> | undefined;
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: StdioDefinitionClass })
    .McpStdioServerDefinition;
  const script = context.asAbsolutePath('dist/mcp-server.mjs');
  const version = (context.extension.packageJSON as { version?: string }).version ?? '0';
  const allowWrites = () =>
    vscode.workspace.getConfiguration(Settings.section).get<boolean>(Settings.mcpAllowWrites, false) === true;

  const definitions = async (): Promise<StdioDefinition[]> => {
    if (!vscode.workspace.isTrusted) return [];
    const usable = await Promise.all(
      environments.list().map(async (env) => ((await vault.usable(env)) ? env : undefined)),
    );
    const server = { script, version, writes: allowWrites() };
    return usable.flatMap((env) => (env && Definition ? [definitionOf(Definition, env, server)] : []));
  };

  const resolve = async (definition: StdioDefinition): Promise<StdioDefinition | undefined> => {
    // Checked again at the start: the environment (by its label and address) and its key as they are now.
    const env = environments
      .list()
      .find((e) => e.label === definition.env.EUS_ENVIRONMENT && e.baseUrl === definition.env.EUS_BASE_URL);
    if (!env || !vscode.workspace.isTrusted) return undefined;
    const key = await vault.keyFor(env);
    if (key === undefined) return undefined;
    log.info(`Starting the MCP server of "${env.label}" for VS Code.`);
    definition.env = { ...definition.env, EUS_API_KEY: key };
    return definition;
  };

  // 1.100 has a proposed form of the API under another contribution point, which refuses ours: 1.101 or later only.
  const [major, minor] = vscode.version.split('.').map(Number);
  const stable = major > 1 || (major === 1 && minor >= 101);
  if (!stable || typeof lm?.registerMcpServerDefinitionProvider !== 'function' || !Definition) return NO_MCP_SERVERS;

  const changed = new vscode.EventEmitter<void>();
  let registration: vscode.Disposable;
  try {
    registration = lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: definitions,
      resolveMcpServerDefinition: resolve,
    });
  } catch (error) {
    // Never a reason not to activate: agents in VS Code simply get no server.
    log.error('The MCP servers could not be offered to VS Code', error);
    changed.dispose();
    return NO_MCP_SERVERS;
  }
  context.subscriptions.push(
    changed,
    registration,
    // An environment added, removed or renamed, a key entered or replaced, trust granted, the setting changed.
    environments.onDidChange(() => changed.fire()),
    vault.onDidChange(() => changed.fire()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${Settings.section}.${Settings.mcpAllowWrites}`)) changed.fire();
    }),
  );
  return { registered: true, definitions, resolve };
}
