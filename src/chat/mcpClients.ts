// What MCP clients outside VS Code (Claude Desktop, Cursor, the MCP Inspector, VS Code's own
// mcp.json) need from the extension: the server at a path that survives updates, and its
// configuration for one environment, copied to the clipboard. The extension's folder holds its
// version (…/eus-tools.engagement-usage-0.1.0/), so a path into it breaks at the next update;
// the server is kept instead in the extension's global storage, copied there again whenever
// the extension's copy changes (its version, size or time), each file written beside and then
// renamed over the old one, so a client starting it meanwhile reads one whole version. The key
// is never written: the copied configuration leaves it to the user (src/chat/mcpConfig.ts).
import * as vscode from 'vscode';
import type { Environment } from '../session/model';
import type { Services } from '../services';
import { type ClientForm, clientConfiguration, keyPlaceholder } from './mcpConfig';

/** The server's files in dist/ (one bundle). */
const SERVER_FILES = ['mcp-server.mjs'];

/**
 * Copies the server into `<global storage>/mcp/` unless the copy there is of the extension's
 * files as they are; resolves to the script's path there.
 */
export async function keepServerCopy(context: vscode.ExtensionContext): Promise<string> {
  const { fs } = vscode.workspace;
  const dir = vscode.Uri.joinPath(context.globalStorageUri, 'mcp');
  const source = (file: string) => vscode.Uri.joinPath(context.extensionUri, 'dist', file);
  const version = (context.extension.packageJSON as { version?: string }).version ?? '0';
  const stats = await Promise.all(SERVER_FILES.map((file) => fs.stat(source(file))));
  const stamp = [version, ...stats.map((s) => `${s.size}:${s.mtime}`)].join(' ');
  const marker = vscode.Uri.joinPath(dir, 'copied-from');
  const script = vscode.Uri.joinPath(dir, SERVER_FILES[0]).fsPath;
  const held = await fs.readFile(marker).then(
    (bytes) => new TextDecoder().decode(bytes),
    () => '',
  );
  if (held === stamp) return script;
  await fs.createDirectory(dir);
  for (const file of SERVER_FILES) {
    // Its own name: another window may be copying the same file now.
    const partial = vscode.Uri.joinPath(dir, `${file}.${Math.random().toString(36).slice(2)}.partial`);
    await fs.copy(source(file), partial, { overwrite: true });
    await fs.rename(partial, vscode.Uri.joinPath(dir, file), { overwrite: true });
  }
  await fs.writeFile(marker, new TextEncoder().encode(stamp));
  return script;
}

/** Engagements: Copy MCP Server Configuration: one environment, one client's form, to the clipboard. */
export async function copyMcpConfiguration(services: Services, serverCopy: () => Promise<string>): Promise<void> {
  const { ui, log } = services;
  const env = await pickEnvironment(services);
  if (!env) return;
  const form = await pickForm(services, env);
  if (!form) return;
  let script: string;
  try {
    script = await serverCopy();
  } catch (error) {
    log.error('The MCP server could not be copied to its stable place', error);
    await ui.current.message(
      'error',
      vscode.l10n.t('The MCP server could not be copied to a place that survives updates: {0}', String(error)),
      {},
    );
    return;
  }
  await vscode.env.clipboard.writeText(
    clientConfiguration(form, { script, label: env.label, baseUrl: env.baseUrl, production: env.production === true }),
  );
  const where =
    form === 'vscode'
      ? vscode.l10n.t(
          'Paste it into .vscode/mcp.json or your user mcp.json (MCP: Open User Configuration); VS Code asks for the API key of {0} when it starts the server.',
          env.label,
        )
      : vscode.l10n.t(
          'Paste it into the client’s configuration (Claude Desktop: claude_desktop_config.json; Cursor: ~/.cursor/mcp.json) and replace {0} with your API key: the extension never writes your key to a file.',
          keyPlaceholder(env.label),
        );
  await ui.current.message(
    'info',
    vscode.l10n.t(
      'Copied the MCP server configuration of “{0}”. {1} It runs {2} with Node 20 or later (“node” on the PATH); that copy is updated with the extension.',
      env.label,
      where,
      script,
    ),
    {},
  );
}

/** Which client's form: the `mcpServers` one (Claude Desktop, Cursor…) or VS Code's `mcp.json`. */
async function pickForm(services: Services, env: Environment): Promise<ClientForm | undefined> {
  const form = await services.ui.current.pick<ClientForm>({
    title: vscode.l10n.t('Copy MCP Server Configuration of {0}: for which client?', env.label),
    items: [
      {
        label: vscode.l10n.t('Claude Desktop, Cursor and other clients'),
        description: 'mcpServers',
        detail: vscode.l10n.t('You paste your API key in place of the placeholder.'),
        value: 'mcpServers',
      },
      {
        label: vscode.l10n.t('VS Code (mcp.json)'),
        description: 'servers',
        detail: vscode.l10n.t('VS Code asks for the API key when it first starts the server, and keeps it.'),
        value: 'vscode',
      },
    ],
  });
  return form === 'mcpServers' || form === 'vscode' ? form : undefined;
}

/** The environment to configure: the only one, or the one the user picks (the active one first). */
async function pickEnvironment(services: Services): Promise<Environment | undefined> {
  const envs = services.environments.list();
  if (envs.length <= 1) {
    if (!envs.length)
      await services.ui.current.message(
        'info',
        vscode.l10n.t('Add an environment first: the configuration names its base URL.'),
        {},
      );
    return envs[0];
  }
  const id = await services.ui.current.pick({
    title: vscode.l10n.t('Copy MCP Server Configuration: which environment?'),
    items: envs.map((e) => ({ label: e.label, description: e.baseUrl, value: e.id })),
    activeValue: services.connection.environment?.id,
  });
  return envs.find((e) => e.id === id);
}
