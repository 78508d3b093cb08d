// The network the user configured, for the MCP server outside VS Code (VS Code passes its own
// settings in the same variables: src/chat/mcp.ts). Node's fetch ignores the proxy variables
// (Node 20 and 24), so the server decides once, for its one base URL, whether HTTPS_PROXY or
// HTTP_PROXY applies (NO_PROXY read as curl reads it), and which certificate authorities it
// trusts: Node's own with NODE_EXTRA_CA_CERTS (which Node reads itself, except a `~` path, read
// here), and the system's store where this Node can read it (22.15 and later). Only when a
// proxy applies, or a certificate authority must be added that Node's default cannot take, does
// the client get a fetch of its own (src/mcp/dispatcher.ts); otherwise Node's, untouched.
import fs from 'node:fs';
import tls from 'node:tls';
import { expandHome, ENV } from './cli';
import { fetchVia } from './dispatcher';

/** How the server reaches its service. */
export interface NetworkPlan {
  /** The proxy the service is reached through, and the variable that named it. */
  proxy?: { url: string; variable: string };
  /** Every certificate authority to trust, when Node's default cannot be made to hold them. */
  ca?: string[];
  /** What was decided, for stderr (no credentials). */
  notes: string[];
}

/** The part of `node:tls` used here; `getCACertificates` (Node 22.15) and `setDefaultCACertificates` (22.19) may be missing. */
export interface TlsApi {
  rootCertificates: readonly string[];
  getCACertificates?: (type?: 'default' | 'system' | 'bundled' | 'extra') => string[];
  setDefaultCACertificates?: (certificates: string[]) => void;
}

const PROXY_VARIABLES = {
  'https:': ['https_proxy', 'HTTPS_PROXY'],
  'http:': ['http_proxy', 'HTTP_PROXY'],
} as const;

/** The proxy for `url` from the environment, or none (none set, or NO_PROXY names its host). */
export function proxyFor(
  url: URL,
  env: Record<string, string | undefined>,
): { url: string; variable: string } | undefined {
  const names = PROXY_VARIABLES[url.protocol as keyof typeof PROXY_VARIABLES] ?? [];
  const variable = names.find((name) => env[name]?.trim());
  if (!variable) return undefined;
  const noProxy = env.no_proxy ?? env.NO_PROXY ?? '';
  if (bypassed(url, noProxy)) return undefined;
  const value = env[variable]!.trim();
  // `proxy.example.com:3128` as curl takes it: http:// assumed.
  return { url: /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`, variable };
}

/**
 * Whether NO_PROXY names the URL's host: `*` for every host; a name for itself and its
 * subdomains (`example.com`, `.example.com`, `*.example.com`); an IP address for itself; any
 * entry may end with `:port`, then only that port.
 */
export function bypassed(url: URL, noProxy: string): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return noProxy
    .split(/[,\s]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      const { name, port: only } = hostAndPort(entry);
      if (only && only !== port) return false;
      const suffix = name.replace(/^\*?\./, '');
      return host === suffix || host.endsWith(`.${suffix}`);
    });
}

/** `[::1]:8443`, `::1`, `example.com:443`, `example.com`: the host and the port, if any. */
function hostAndPort(entry: string): { name: string; port?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1], port: bracketed[2] };
  const colons = entry.split(':').length - 1;
  if (colons !== 1) return { name: entry };
  const [name, port] = entry.split(':');
  return { name, port };
}

/** A proxy URL as it may be shown: without its credentials. */
function shownProxy(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) {
      parsed.username = '…';
      parsed.password = '';
    }
    return parsed.href.replace(/\/$/, '');
  } catch {
    return 'the proxy';
  }
}

/** Decides how the service at `baseUrl` is reached; makes Node's default trust what it must hold where Node allows. */
export function planNetwork(baseUrl: string, env: Record<string, string | undefined>, api: TlsApi = tls): NetworkPlan {
  const notes: string[] = [];
  const url = new URL(baseUrl);
  const proxy = proxyFor(url, env);
  if (proxy) notes.push(`Reaching ${url.host} through the proxy ${shownProxy(proxy.url)} (${proxy.variable}).`);

  // Node reads NODE_EXTRA_CA_CERTS itself, but not a path starting with `~` (it warns and goes on).
  const added: string[] = [];
  const extraFile = env.NODE_EXTRA_CA_CERTS?.trim();
  if (extraFile?.startsWith('~')) {
    const file = expandHome(extraFile);
    try {
      added.push(...pemCertificates(fs.readFileSync(file, 'utf8')));
      notes.push(`NODE_EXTRA_CA_CERTS: trusting the certificates in ${file} (~ read as the home folder).`);
    } catch (error) {
      notes.push(`NODE_EXTRA_CA_CERTS: ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
    }
  }
  let system: string[] = [];
  if (env[ENV.systemCa]?.trim() !== '0' && typeof api.getCACertificates === 'function') {
    try {
      system = api.getCACertificates('system');
    } catch {
      notes.push(
        'The system’s certificate store cannot be read: set NODE_EXTRA_CA_CERTS to trust a private authority.',
      );
    }
  }
  if (!added.length && !system.length) return { proxy, notes };

  const base =
    typeof api.getCACertificates === 'function' ? api.getCACertificates('default') : [...api.rootCertificates];
  const all = [...new Set([...base, ...system, ...added])];
  if (typeof api.setDefaultCACertificates === 'function') {
    api.setDefaultCACertificates(all);
    return { proxy, notes };
  }
  return { proxy, ca: all, notes };
}

/** The certificates of a PEM file. */
function pemCertificates(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/** The fetch the client is given for `plan`: undefined (Node's own) unless a proxy or added authorities need one. */
export async function networkFetch(plan: NetworkPlan): Promise<typeof globalThis.fetch | undefined> {
  if (!plan.proxy && !plan.ca) return undefined;
  return fetchVia({ proxy: plan.proxy?.url, ca: plan.ca });
}
