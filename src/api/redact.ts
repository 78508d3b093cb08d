// Redaction of the API key from every text the extension shows or logs (messages, the log,
// error causes, a redirect's target) and from every answer of the service before it is read.
// A service may echo the key in many forms: as typed, JSON-escaped, percent-encoded once or
// more, as HTML character references, inside base64 or base64url, or as a host name (which a
// URL parser lower-cases and percent-decodes), and split by characters that show nothing
// (src/core/text.ts `INVISIBLE`: a display path that drops one would put the key back
// together). Each is matched here; what matches becomes `[redacted]`.
import { INVISIBLE } from '../core/text';

const REDACTED = '[redacted]';

/**
 * Removes the key, and anything that looks like a bearer token, from a text, in whatever form
 * the key appears (see `redactKey`).
 */
export function redact(text: string, key?: string): string {
  // A token ends before a quote, a comma or white space, and takes whole escapes (`\"`), so a
  // JSON text stays JSON.
  return redactKey(text, key).replace(/(Bearer(?:\s|%20|\\u0020)+)(?:[^\s"',\\]|\\\S)+/gi, `$1${REDACTED}`);
}

/**
 * Removes the key from a text, in whatever form it appears: as typed or in another case,
 * JSON-escaped (`\/`, `\u0041`), percent-encoded (`%2F`, twice `%252F`, or more), as HTML
 * character references (`&#65;`, `&#x41;`, `&period;`), any mix of these, or inside base64 and
 * base64url; with any number of invisible characters, raw or JSON-escaped (`\u2060`,
 * `\udb40\udc41`, `\r`), between any two of its characters. Keys of the form
 * `<keyId>.<secret>`: the secret part alone is redacted too. Other text, bearer tokens that
 * are not the key among it, is kept: this is what the service's answers go through.
 *
 * A JSON text stays JSON, with `[redacted]` inside the string that held the key: a match holds
 * the key's characters and what is skipped between them (invisible characters, whole
 * escapes), none of which is a quote or a backslash of the JSON around it; a match that
 * would begin or end inside an escape (`\n` before a key starting with `n`) takes the whole
 * escape. (A key holding `"` could in principle be spelt across a string's end: such a text
 * is the service's own doing.)
 */
export function redactKey(text: string, key: string | undefined): string {
  const pattern = key ? keyPattern(key) : undefined;
  if (!pattern) return text;
  const shown = visible(text);
  const ranges: Array<[number, number]> = [];
  for (const match of shown.text.matchAll(pattern)) {
    // Back to the text's own places: the first character's, and the last character's end.
    const end = match.index + match[0].length;
    ranges.push([escapeStart(text, shown.at(match.index)), escapeEnd(text, shown.at(end - 1) + 1)]);
  }
  let out = '';
  let done = 0;
  for (const [start, end] of ranges) {
    if (end <= done) continue;
    out += start >= done ? `${text.slice(done, start)}${REDACTED}` : '';
    done = end;
  }
  return done ? out + text.slice(done) : text;
}

const INVISIBLE_RUN = new RegExp(`${INVISIBLE}+`, 'gu');
const INVISIBLE_ONLY = new RegExp(`^${INVISIBLE}+$`, 'u');

// One character percent-encoded as UTF-8, any number of times (`%E2%80%8B`, `%25E2%2580%258B`),
// as a URL parser writes a character a URL may not hold raw (a redirect's `Location`).
const PCT = (first: string) => `%(?:25)*${first}[0-9a-fA-F]`;
const CONTINUATION = `(?:${PCT('[89abAB]')})`;
// Longest first: `%25E2…` is one character encoded twice, not a `%` and then `E2…`.
const PERCENT_CHAR = [
  `${PCT('[fF]')}${CONTINUATION}{3}`,
  `${PCT('[eE]')}${CONTINUATION}{2}`,
  `${PCT('[cdCD]')}${CONTINUATION}`,
  PCT('[0-7]'),
].join('|');

// A JSON escape (a surrogate pair's two, one `\uXXXX`, a short one such as `\r`, or any other
// such as `\\`, which is read whole so a backslash after it starts nothing), a run of
// invisible characters, one percent-encoded character (group 5) or an HTML numeric character
// reference (decimal: group 6; hex: group 7): each skipped when it is an invisible character.
const ESCAPE_OR_INVISIBLE = new RegExp(
  `\\\\(?:u([dD][89abAB][0-9a-fA-F]{2})\\\\u([dD][c-fC-F][0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|([bfnrt])|[^])|${INVISIBLE}+|(${PERCENT_CHAR})|&#0*(\\d{1,7});?|&#[xX]0*([0-9a-fA-F]{1,6});?`,
  'gu',
);

// Printable ASCII but the backslash, `%` and `&` holds no invisible character and no escape.
const MAYBE_HIDDEN = /[^\x20-\x24\x27-\x5b\x5d-\x7e]/;

/** What a percent-encoded character stands for (undefined when its bytes are no UTF-8). */
function percentDecoded(encoded: string): string | undefined {
  const bytes = Uint8Array.from(encoded.match(/[0-9a-fA-F]{2}(?=%|$)/g) ?? [], (hex) => parseInt(hex, 16));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The character a numeric reference names (undefined past Unicode's last). */
function referenced(code: number): string | undefined {
  return code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

interface Visible {
  /** The text without invisible characters, raw or JSON-escaped. */
  text: string;
  /** Where the character at an index of `text` is in the whole text. */
  at(index: number): number;
}

/** The text as a reader sees it once invisible characters are dropped, and where each character kept was. */
function visible(text: string): Visible {
  // Printable ASCII but the backslash holds no invisible character and no escape.
  if (!MAYBE_HIDDEN.test(text)) return { text, at: (index) => index };
  // Runs kept: start in the text, start in what is kept.
  const from: number[] = [];
  const to: number[] = [];
  let kept = '';
  let done = 0;
  for (const match of text.matchAll(ESCAPE_OR_INVISIBLE)) {
    const [all, high, low, unit, short, percent, decimal, hex] = match;
    const decoded = high
      ? String.fromCharCode(parseInt(high, 16), parseInt(low, 16))
      : unit
        ? String.fromCharCode(parseInt(unit, 16))
        : short
          ? '\b' // each short escape is a control character
          : percent
            ? percentDecoded(percent)
            : decimal
              ? referenced(Number(decimal))
              : hex
                ? referenced(parseInt(hex, 16))
                : all.startsWith('\\')
                  ? ''
                  : all;
    if (!decoded || !INVISIBLE_ONLY.test(decoded)) continue;
    if (match.index > done) {
      from.push(done);
      to.push(kept.length);
      kept += text.slice(done, match.index);
    }
    done = match.index + all.length;
  }
  if (!from.length && done === 0) return { text, at: (index) => index };
  from.push(done);
  to.push(kept.length);
  kept += text.slice(done);
  return {
    text: kept,
    at(index) {
      // The last run starting at or before `index`.
      let lo = 0;
      let hi = to.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (to[mid] <= index) lo = mid;
        else hi = mid - 1;
      }
      return from[lo] + (index - to[lo]);
    },
  };
}

/**
 * Where a match starting at `index` must start so that it does not begin inside a JSON escape:
 * after an odd run of backslashes (the escape's letter), or among the hex digits of `\uXXXX`,
 * the escape's backslash.
 */
function escapeStart(text: string, index: number): number {
  for (let back = 1; back <= 5 && back <= index; back++) {
    const start = index - back;
    if (text[start] !== '\\') continue;
    const escape = text.slice(start, index);
    if (back > 1 && !/^\\u[0-9a-f]{0,4}$/i.test(escape)) continue;
    let run = 0;
    while (start - run - 1 >= 0 && text[start - run - 1] === '\\') run++;
    if (run % 2 === 0) return start;
  }
  return index;
}

/** Where a match ending at `end` must end so that it does not end inside a JSON escape (a key's own backslash). */
function escapeEnd(text: string, end: number): number {
  let run = 0;
  while (end - run - 1 >= 0 && text[end - run - 1] === '\\') run++;
  if (run % 2 === 0) return end;
  return Math.min(text.length, end + (text[end] === 'u' ? 5 : 1));
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

const patterns = new Map<string, RegExp | undefined>();

/**
 * One pattern for everything of `key` to redact, matched on the text without its invisible
 * characters (`visible`): the key without its own invisible characters, spelt in any of the
 * forms `spelt` knows; for `<keyId>.<secret>` keys the secret part alone too; and (for 8
 * characters or more) the base64 cores of what was sent. Undefined for a key under 4
 * characters (nothing is redacted).
 */
function keyPattern(key: string): RegExp | undefined {
  if (patterns.has(key)) return patterns.get(key);
  const whole = key.replace(INVISIBLE_RUN, '');
  const dot = whole.indexOf('.');
  const secret = whole.slice(dot + 1);
  const forms: string[] = [];
  if (whole.length >= 4) forms.push(spelt(whole));
  if (whole.length >= 8) forms.push(...base64Cores(key));
  if (dot >= 0 && secret.length >= 8) forms.push(spelt(secret), ...base64Cores(key.slice(key.indexOf('.') + 1)));
  // Any case: a host name is lower-cased, hex digits may be either; more is redacted, never
  // less (a base64 core of 10 characters or more matched in another case is no one's text).
  const pattern = forms.length ? new RegExp(forms.join('|'), 'gi') : undefined;
  if (patterns.size > 32) patterns.clear();
  patterns.set(key, pattern);
  return pattern;
}

/**
 * `secret` with each character as itself, `\uXXXX`, `%XX` (UTF-8, percent-encoded any number
 * of times: `%25XX`, `%2525XX`), `&#NN;`, `&#xHH;`, a named reference, or, for `/`, `"` and
 * `\`, its short JSON escape.
 */
function spelt(secret: string): string {
  return Array.from(secret, (ch) => {
    const forms = [escapeRegExp(ch)];
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x10000) forms.push(`\\\\u${code.toString(16).padStart(4, '0')}`);
    forms.push(Array.from(new TextEncoder().encode(ch), (b) => `%(?:25)*${b.toString(16).padStart(2, '0')}`).join(''));
    forms.push(`&#0*${code};?`, `&#x0*${code.toString(16)};?`);
    for (const name of NAMED[ch] ?? []) forms.push(`&${name};`);
    if (ch === '/' || ch === '"' || ch === '\\') forms.push(`\\\\\\${ch}`);
    return `(?:${forms.join('|')})`;
  }).join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
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
  return [...new Set(cores)].map(escapeRegExp);
}
