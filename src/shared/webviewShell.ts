// The dashboard's HTML shell. No `vscode` import, so it is unit-tested: the CSP allows no
// network, scripts only with the nonce, styles from the extension or with the nonce.
//
// The dashboard's script and style sheet are written into the page rather than linked: a linked file
// is loaded through VS Code's webview service worker, which in code-server 4.100 (VS Code
// 1.100) took 1.0–1.6 s for every dashboard after the first of a window (see docs/performance.md,
// "Performance"). Written in, nothing is loaded before the script runs and says `ready`.
import { bytesToHex } from '@noble/hashes/utils.js';

/** The webview's script and style sheet: written in as text (the dashboard), or linked. */
type ShellAssets = { script: string; style: string } | { scriptUri: string; styleUri: string };

export type ShellOptions = ShellAssets & {
  /** `webview.cspSource`: the origin the extension's own files are served from. */
  cspSource: string;
  nonce: string;
  title: string;
  lang: string;
};

export function createNonce(): string {
  const bytes = new Uint8Array(18);
  globalThis.crypto.getRandomValues(bytes);
  // Hex: always 36 characters (base64 with its + and / removed was sometimes under 20).
  return bytesToHex(bytes);
}

/** Text that cannot end the element it is written in (`</script`, `</style`, `<!--`). */
function rawText(value: string): string {
  return value.replace(/<\/(script|style)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${cspSource}`,
    `font-src ${cspSource}`,
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The page the webview starts from: an empty `main` the script fills (every service string as text). */
export function dashboardHtml(options: ShellOptions): string {
  return `<!DOCTYPE html>
<html lang="${attr(options.lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(options.cspSource, options.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${
  'style' in options
    ? `<style nonce="${attr(options.nonce)}">${rawText(options.style)}</style>`
    : `<link rel="stylesheet" href="${attr(options.styleUri)}">`
}
<title>${attr(options.title)}</title>
</head>
<body>
<main id="app" aria-busy="true"></main>
${
  'script' in options
    ? `<script nonce="${attr(options.nonce)}">${rawText(options.script)}</script>`
    : `<script nonce="${attr(options.nonce)}" src="${attr(options.scriptUri)}"></script>`
}
</body>
</html>
`;
}
