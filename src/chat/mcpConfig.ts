// The configuration another MCP client needs to start the server of one environment, as text
// to paste: the `mcpServers` form (Claude Desktop, Cursor, Windsurf, the MCP Inspector's
// config file) and VS Code's `mcp.json` (`servers`). The key is never in it: the `mcpServers`
// form holds a placeholder the user replaces with their key, and VS Code's form asks for it
// once through an input (`${input:…}`, a password prompt VS Code keeps in its secret storage).
// No `vscode` import: test/unit/mcp-config.test.ts starts the server from what it writes.
import { l10n } from '../core/l10n';

/** The environment variables the server reads (src/mcp/cli.ts `ENV`). */
const VARIABLES = {
  baseUrl: 'EUS_BASE_URL',
  key: 'EUS_API_KEY',
  label: 'EUS_ENVIRONMENT',
  production: 'EUS_PRODUCTION',
} as const;

export type ClientForm = 'mcpServers' | 'vscode';

export interface ServerToConfigure {
  /** The server's script at its stable path (what survives the extension's updates). */
  script: string;
  label: string;
  baseUrl: string;
  production: boolean;
}

/** `engagements-staging`: the name the server has in the client's list. */
export function serverName(label: string): string {
  const slug = label
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 40);
  return `engagements${slug ? `-${slug}` : ''}`;
}

/** The placeholder of the `mcpServers` form: what the user replaces with their key. */
export function keyPlaceholder(label: string): string {
  return l10n.t('<paste the API key of {0} here>', label);
}

/** The configuration as JSON text to paste into the client's configuration file. */
export function clientConfiguration(form: ClientForm, server: ServerToConfigure): string {
  const name = serverName(server.label);
  const env = {
    [VARIABLES.baseUrl]: server.baseUrl,
    [VARIABLES.label]: server.label,
    ...(server.production ? { [VARIABLES.production]: '1' } : {}),
  };
  if (form === 'mcpServers') {
    const entry = {
      command: 'node',
      args: [server.script],
      env: { ...env, [VARIABLES.key]: keyPlaceholder(server.label) },
    };
    return JSON.stringify({ mcpServers: { [name]: entry } }, null, 2);
  }
  const input = `${name}-api-key`;
  return JSON.stringify(
    {
      inputs: [
        {
          type: 'promptString',
          id: input,
          description: l10n.t('API key of {0} (Engagement & Usage)', server.label),
          password: true,
        },
      ],
      servers: {
        [name]: {
          type: 'stdio',
          command: 'node',
          args: [server.script],
          env: { ...env, [VARIABLES.key]: `\${input:${input}}` },
        },
      },
    },
    null,
    2,
  );
}
