// The MCP server in VS Code, with nothing to set up: from VS Code 1.101 the extension offers
// one server definition per environment whose key is on this machine (the MCP server of
// src/mcp/server.ts, shipped as dist/mcp-server.mjs, run by VS Code's own Node), so agents
// that speak MCP in VS Code get the same tools as its chat. None in Restricted Mode; none for
// an environment without a usable key, which for a workspace's environment means until the
// user entered their own key for it. The key is handed over only when VS Code starts that
// server (`resolveMcpServerDefinition`), in its environment, never in a listed definition.
// Writes follow the user's setting `engagementUsage.mcp.allowWrites` (off by default), read
// again when VS Code starts a server. VS Code starts it with the extension host's environment
// (NODE_EXTRA_CA_CERTS, the proxy variables) and this definition's: at the start, VS Code's own
// network settings (`http.proxy`, `http.noProxy`, `http.systemCertificates`,
// `http.proxyStrictSSL`) in the variables the server reads (src/mcp/network.ts), so the agent's
// server reaches the service by the same road as the extension.
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

/**
 * VS Code's network settings as the server's variables; `null` removes one the extension host
 * has (VS Code starts the server with the host's environment), so VS Code's setting decides.
 */
function networkEnv(): Record<string, string | null> {
  const http = vscode.workspace.getConfiguration('http');
  const env: Record<string, string | null> = {};
  if (http.get<string>('proxySupport') !== 'off') {
    const proxy = http.get<string>('proxy')?.trim();
    if (proxy) Object.assign(env, { HTTPS_PROXY: proxy, HTTP_PROXY: proxy, https_proxy: null, http_proxy: null });
    const noProxy = http.get<string[]>('noProxy') ?? [];
    if (noProxy.length) Object.assign(env, { NO_PROXY: noProxy.join(','), no_proxy: null });
  }
  if (http.get<boolean>('systemCertificates') === false) env.EUS_SYSTEM_CA = '0';
  // The user told VS Code not to check certificates: the server does as VS Code does.
  if (http.get<boolean>('proxyStrictSSL') === false) env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  return env;
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
    // Writes as the setting says now: turned off since the definition was listed, the server starts read-only.
    const writes = allowWrites();
    definition.args = definition.args.filter((arg) => arg !== '--allow-writes' || writes);
    log.info(`Starting the MCP server of "${env.label}" for VS Code${writes ? ' (writes allowed)' : ''}.`);
    definition.env = { ...definition.env, ...networkEnv(), EUS_API_KEY: key };
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
