// fetch as a page in a browser gets it (VS Code for the Web's extension host runs in one), for
// unit tests in Node, where no browser runs; the e2e suite drives a real one. Node's own fetch
// does the sending; on top of it, what a browser adds and hides:
// - a redirect comes back opaque (`redirect: 'manual'`): no status, no Location;
// - with `origin`, the CORS checks of the Fetch standard for a page of that origin: a request
//   that is not "simple" (another method than GET, HEAD or POST, or a header outside the
//   CORS-safelisted ones) is preceded by a preflight (OPTIONS) that must allow the origin, the
//   method and every such header; an answer is readable only with Access-Control-Allow-Origin.
//   A refusal is what the page gets from a browser: a bare `TypeError('Failed to fetch')`, and
//   after a refused preflight the request itself is never sent.
// `User-Agent` is left out, as Chromium does (it does not let a page set it).

/** Request headers a page may send without a preflight (the Fetch standard's safelist, values aside). */
const SAFELISTED = new Set(['accept', 'accept-language', 'content-language', 'range']);
const SIMPLE_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
const SIMPLE_METHODS = new Set(['GET', 'HEAD', 'POST']);

/** The header names that need a preflight's permission, lower-cased and sorted as a browser lists them. */
function unsafeHeaders(headers: Headers): string[] {
  const names: string[] = [];
  headers.forEach((value, name) => {
    if (name === 'user-agent' || SAFELISTED.has(name)) return;
    if (name === 'content-type' && SIMPLE_CONTENT_TYPES.includes(value.split(';')[0].trim().toLowerCase())) return;
    names.push(name);
  });
  return names.sort();
}

function allowsOrigin(response: Response, origin: string): boolean {
  const allowed = response.headers.get('Access-Control-Allow-Origin');
  return allowed === '*' || allowed === origin;
}

/** Whether a preflight's answer lets the request through: the origin, the method, each header. */
function preflightAllows(answer: Response, origin: string, method: string, headers: string[]): boolean {
  if (!answer.ok || !allowsOrigin(answer, origin)) return false;
  const list = (name: string) =>
    (answer.headers.get(name) ?? '')
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter(Boolean);
  const methods = list('Access-Control-Allow-Methods');
  if (!SIMPLE_METHODS.has(method) && !methods.includes(method.toLowerCase()) && !methods.includes('*')) return false;
  const allowed = list('Access-Control-Allow-Headers');
  // `*` covers every header but Authorization.
  return headers.every((name) => allowed.includes(name) || (allowed.includes('*') && name !== 'authorization'));
}

const refused = () => new TypeError('Failed to fetch');

/** A fetch that behaves as a browser page's; `origin` turns on its CORS checks. */
export function browserFetch(options: { origin?: string } = {}): typeof fetch {
  const { origin } = options;
  return async (input, init) => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    headers.delete('user-agent');
    if (origin) {
      headers.set('Origin', origin);
      const unsafe = unsafeHeaders(request.headers);
      if (!SIMPLE_METHODS.has(request.method) || unsafe.length > 0) {
        const preflight = await fetch(request.url, {
          method: 'OPTIONS',
          headers: {
            Origin: origin,
            'Access-Control-Request-Method': request.method,
            ...(unsafe.length ? { 'Access-Control-Request-Headers': unsafe.join(',') } : {}),
          },
        }).catch(() => undefined);
        await preflight?.body?.cancel();
        if (!preflight || !preflightAllows(preflight, origin, request.method, unsafe)) throw refused();
      }
    }
    const response = await fetch(new Request(request, { headers }));
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const hidden = Response.error();
      Object.defineProperty(hidden, 'type', { value: 'opaqueredirect' });
      return hidden;
    }
    if (origin && !allowsOrigin(response, origin)) {
      await response.body?.cancel();
      throw refused();
    }
    return response;
  };
}
