// Redaction of the API key from every text the extension shows or logs (messages, the log,
// error causes, a redirect's target). A service may echo the key in many forms: as typed,
// JSON-escaped, percent-encoded once or more, as HTML character references, inside base64 or
// base64url, or as a host name (which a URL parser lower-cases and percent-decodes). Each is
// matched here; what matches becomes `[redacted]`.

const REDACTED = '[redacted]';

/**
 * Removes the key, and anything that looks like a bearer token, from a text, in whatever form
 * the key appears: as typed or in another case, JSON-escaped (`\/`, `\u0041`), percent-encoded
 * (`%2F`, twice `%252F`, or more), as HTML character references (`&#65;`, `&#x41;`,
 * `&period;`), any mix of these, or inside base64 and base64url. Keys of the form
 * `<keyId>.<secret>`: the secret part alone is redacted too.
 */
export function redact(text: string, key?: string): string {
  let out = text;
  if (key && key.length >= 4) {
    out = redactSecret(out, key);
    const secret = key.slice(key.indexOf('.') + 1);
    if (secret !== key && secret.length >= 8) out = redactSecret(out, secret);
  }
  return out.replace(/(Bearer(?:\s|%20|\\u0020)+)[^\s"',]+/gi, `$1${REDACTED}`);
}

function redactSecret(text: string, secret: string): string {
  let out = text.replace(keyPattern(secret), REDACTED);
  if (secret.length >= 8) for (const core of base64Cores(secret)) out = out.split(core).join(REDACTED);
  return out;
}

// Named character references a key's punctuation may be written as (HTML5).
const NAMED: Record<string, string[]> = {
  '.': ['period'],
  _: ['lowbar', 'UnderBar'],
  '-': ['dash', 'hyphen'],
  '/': ['sol'],
  '+': ['plus'],
  '=': ['equals'],
  ':': ['colon'],
  '~': ['tilde'],
  '&': ['amp'],
};

const patterns = new Map<string, RegExp>();

/**
 * A pattern matching `secret`, any case, with each character as itself, `\uXXXX`, `%XX`
 * (UTF-8, percent-encoded any number of times: `%25XX`, `%2525XX`), `&#NN;`, `&#xHH;`, a
 * named reference, or, for `/`, `\/`.
 */
function keyPattern(secret: string): RegExp {
  let pattern = patterns.get(secret);
  if (pattern) return pattern;
  const parts = Array.from(secret, (ch) => {
    const forms = [ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')];
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x10000) forms.push(`\\\\u${code.toString(16).padStart(4, '0')}`);
    forms.push(Array.from(new TextEncoder().encode(ch), (b) => `%(?:25)*${b.toString(16).padStart(2, '0')}`).join(''));
    forms.push(`&#0*${code};?`, `&#x0*${code.toString(16)};?`);
    for (const name of NAMED[ch] ?? []) forms.push(`&${name};`);
    if (ch === '/') forms.push('\\\\/');
    return `(?:${forms.join('|')})`;
  });
  // Any case: a host name is lower-cased, hex digits may be either; more is redacted, never less.
  pattern = new RegExp(parts.join(''), 'gi');
  if (patterns.size > 32) patterns.clear();
  patterns.set(secret, pattern);
  return pattern;
}

/**
 * The parts of the base64 and base64url encodings of `secret` that depend on it alone,
 * whatever bytes precede it (it may start at any of the three positions of a base64 group)
 * and follow it: a service that encodes the key inside something larger
 * (`base64(user:key)`) is caught too.
 */
function base64Cores(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const encoded = btoa(String.fromCharCode(...padded));
    const core = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(cores)];
}
