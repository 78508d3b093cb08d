// Types of code-server.mjs, for the TypeScript end-to-end helpers that import it.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ChildProcess } from 'node:child_process';

export const USER_SETTINGS: Record<string, unknown>;

export interface CodeServer {
  dirs: { root: string; 'user-data': string; extensions: string; workspace: string; config: string };
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly exited: { code: number | null; signal: NodeJS.Signals | null } | null;
  logTail(n?: number): string;
  onLine(listener: (line: string) => void): () => void;
  url: string;
  port: number;
  stop(): Promise<void>;
}

export function startCodeServer(options: {
  codeServer: string;
  /** The Node binary that runs code-server (and its extension host); default: `node` on PATH. */
  node?: string;
  env?: Record<string, string>;
  vsix?: string;
  /** More .vsix files installed next to `vsix` (e.g. the e2e probe extension). */
  extraVsix?: string[];
  settings?: Record<string, unknown>;
  /** Keep VS Code's workspace trust on: the test folder opens in Restricted Mode. */
  workspaceTrust?: boolean;
  /** Written to the test folder's .vscode/settings.json before start. */
  workspaceSettings?: Record<string, unknown>;
  startTimeoutMs?: number;
  /** Tests: run code-server in a private mount namespace whose DNS answers only on loopback. */
  isolate?: boolean;
  /** A CA certificate (PEM file) added to the system's trusted certificates as code-server sees them (implies `isolate`). */
  systemCa?: string;
}): Promise<CodeServer>;
export function workbenchUrl(
  server: CodeServer,
  options: { folder?: string; extensionDevelopmentPath?: string; extensionTestsPath?: string },
): string;
/** Lets the workbench of `page` honour the payload's extension development and test paths (VS Code 1.139). */
export function allowExtensionTestsPayload(page: Page): Promise<void>;
export function extensionTestsPayloadAllowed(page: Page): Promise<boolean>;
export function launchBrowser(
  executablePath: string,
  options?: { viewport?: { width: number; height: number } },
): Promise<{ browser: Browser; context: BrowserContext }>;
export function stopAll(running: { browser?: Browser; server?: CodeServer }): Promise<void>;
