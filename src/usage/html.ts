// The dashboard's HTML shell. No `vscode` import, so it is unit-tested: the CSP allows no
// network, scripts only with the nonce, styles only from the extension.

export interface ShellOptions {
  /** `webview.cspSource`: the origin the extension's own files are served from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce: string;
  title: string;
  lang: string;
}

export function createNonce(): string {
  const bytes = new Uint8Array(18);
  globalThis.crypto.getRandomValues(bytes);
  // Hex: always 36 characters (base64 with its + and / removed was sometimes under 20).
  return Buffer.from(bytes).toString('hex');
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
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
<link rel="stylesheet" href="${attr(options.styleUri)}">
<title>${attr(options.title)}</title>
</head>
<body>
<main id="app" aria-busy="true"></main>
<script nonce="${attr(options.nonce)}" src="${attr(options.scriptUri)}"></script>
</body>
</html>
`;
}
