import assert from 'node:assert/strict';
import { contentSecurityPolicy, createNonce, dashboardHtml } from '../../src/shared/webviewShell';
import { fill, parseViewState, parseWebviewMessage, UI_STRING_KEYS } from '../../src/usage/protocol';

describe('usage: webview protocol', () => {
  it('accepts each message of the protocol and keeps only its known fields', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready', extra: '<script>' }), { type: 'ready' });
    assert.deepEqual(parseWebviewMessage({ type: 'refresh' }), { type: 'refresh' });
    assert.deepEqual(parseWebviewMessage({ type: 'setPeriod', period: '2026-10' }), {
      type: 'setPeriod',
      period: '2026-10',
    });
    assert.deepEqual(parseWebviewMessage({ type: 'setPage', page: 3 }), { type: 'setPage', page: 3 });
    assert.deepEqual(parseWebviewMessage({ type: 'setPageSize', pageSize: 100 }), {
      type: 'setPageSize',
      pageSize: 100,
    });
    assert.deepEqual(parseWebviewMessage({ type: 'sort', column: 'lastUsedAt', direction: 'asc' }), {
      type: 'sort',
      column: 'lastUsedAt',
      direction: 'asc',
    });
    assert.deepEqual(parseWebviewMessage({ type: 'export', format: 'json' }), { type: 'export', format: 'json' });
    assert.deepEqual(parseWebviewMessage({ type: 'cancelExport' }), { type: 'cancelExport' });
    assert.deepEqual(parseWebviewMessage({ type: 'dismissNotice' }), { type: 'dismissNotice' });
    assert.deepEqual(parseWebviewMessage({ type: 'command', command: 'replaceKey' }), {
      type: 'command',
      command: 'replaceKey',
    });
    assert.deepEqual(parseWebviewMessage({ type: 'webviewError', message: 'x'.repeat(600) }), {
      type: 'webviewError',
      message: 'x'.repeat(500),
    });
  });

  it('refuses anything else', () => {
    const bad: unknown[] = [
      undefined,
      null,
      'ready',
      42,
      [],
      {},
      { type: 42 },
      { type: 'unknown' },
      { type: '__proto__' },
      { type: 'setPeriod', period: '2026-13' },
      { type: 'setPeriod', period: '2026-1' },
      { type: 'setPeriod' },
      { type: 'setPeriod', period: 202611 },
      { type: 'setPage', page: 0 },
      { type: 'setPage', page: 1.5 },
      { type: 'setPage', page: '2' },
      { type: 'setPage', page: Number.POSITIVE_INFINITY },
      { type: 'setPageSize', pageSize: 101 },
      { type: 'setPageSize', pageSize: 0 },
      { type: 'sort', column: 'secret', direction: 'asc' },
      { type: 'sort', column: 'calls', direction: 'up' },
      { type: 'export', format: 'xlsx' },
      { type: 'export' },
      { type: 'command', command: 'workbench.action.terminal.new' },
      { type: 'command', command: 'signOutAll' },
      { type: 'webviewError', message: { toString: 1 } },
    ];
    for (const message of bad) assert.equal(parseWebviewMessage(message), undefined, JSON.stringify(message));
  });

  it('restores a saved view state, falling back field by field', () => {
    assert.deepEqual(
      parseViewState(
        { environmentId: 'e-1', period: '2026-09', sort: { column: 'name', direction: 'asc' }, page: 3, pageSize: 50 },
        '2026-11',
      ),
      {
        environmentId: 'e-1',
        period: '2026-09',
        sort: { column: 'name', direction: 'asc' },
        page: 3,
        pageSize: 50,
      },
    );
    assert.deepEqual(
      parseViewState({ environmentId: 'e-1', period: 'soon', sort: 'x', page: -1, pageSize: 1000 }, '2026-11'),
      {
        environmentId: 'e-1',
        period: '2026-11',
        sort: { column: 'calls', direction: 'desc' },
        page: 1,
        pageSize: 25,
      },
    );
    assert.equal(parseViewState(undefined, '2026-11'), undefined);
    assert.equal(parseViewState({ period: '2026-09' }, '2026-11'), undefined);
    assert.equal(parseViewState({ environmentId: '' }, '2026-11'), undefined);
  });

  it('fills placeholders as text', () => {
    assert.equal(fill('Records {0}–{1} of {2}', 1, 25, '118'), 'Records 1–25 of 118');
    assert.equal(fill('{0} and {3}', 'a'), 'a and {3}');
    assert.equal(fill('{0}', '$& <b>'), '$& <b>');
  });

  it('names every UI string once', () => {
    assert.equal(new Set(UI_STRING_KEYS).size, UI_STRING_KEYS.length);
  });
});

describe('usage: dashboard HTML shell', () => {
  const script = 'const a = "</script><script>alert(1)</script>"; /* <!-- */ send({ type: "ready" });';
  const style = 'body { color: red; } /* </style><script>alert(2)</script> */';
  const html = dashboardHtml({
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    script,
    style,
    nonce: 'abc123',
    title: 'Usage: "Prod" <eu>',
    lang: 'en',
  });

  it('has a CSP that allows no network, scripts and inline styles only by nonce', () => {
    const csp = contentSecurityPolicy('https://x.vscode-cdn.net', 'n0nce');
    assert.match(csp, /^default-src 'none';/);
    assert.match(csp, /script-src 'nonce-n0nce'(;|$)/);
    assert.match(csp, /style-src https:\/\/x\.vscode-cdn\.net 'nonce-n0nce'(;|$)/);
    assert.match(csp, /connect-src 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    assert.ok(
      html.includes(
        `content="${contentSecurityPolicy('https://file+.vscode-resource.vscode-cdn.net', 'abc123').replace(/'/g, "'")}"`,
      ),
    );
  });

  it('writes the script and the style sheet in with the nonce (nothing to load before ready), and escapes the title', () => {
    // One script element and one style element: the text given cannot close them early.
    assert.equal(html.match(/<script nonce/g)?.length, 1);
    assert.equal(html.match(/<\/script>/g)?.length, 1);
    assert.equal(html.match(/<style nonce/g)?.length, 1);
    assert.equal(html.match(/<\/style>/g)?.length, 1);
    assert.doesNotMatch(html, /<!--/);
    assert.match(html, /<script nonce="abc123">const a = "<\\\/script><script>alert\(1\)<\\\/script>";/);
    assert.match(html, /<style nonce="abc123">body \{ color: red; \}/);
    assert.doesNotMatch(html, /<link|src=|style=/);
    assert.match(html, /<title>Usage: &quot;Prod&quot; &lt;eu&gt;<\/title>/);
  });

  it('keeps what the script says: `<\\/` is `</` in a JavaScript string', () => {
    const written = /<script nonce="abc123">([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    const literal = written.slice(written.indexOf('"'), written.indexOf('";') + 1);
    assert.equal(JSON.parse(literal), '</script><script>alert(1)</script>');
  });

  it('links the script and the style sheet when given their addresses (the details panel)', () => {
    const linked = dashboardHtml({
      cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
      scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/details.js',
      styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/details.css',
      nonce: 'abc123',
      title: 'x',
      lang: 'en',
    });
    assert.match(linked, /<script nonce="abc123" src="https:\/\/[^"]+\/ext\/dist\/details\.js"><\/script>/);
    assert.match(linked, /<link rel="stylesheet" href="[^"]+\/media\/details\.css">/);
    assert.doesNotMatch(linked, /<style|style=/);
  });

  it('makes a fresh, unguessable nonce each time', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => createNonce()));
    assert.equal(nonces.size, 50);
    for (const nonce of nonces) assert.match(nonce, /^[A-Za-z0-9]{20,}$/);
  });
});
