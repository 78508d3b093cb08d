// Text from the service is shown as text, and also without Unicode bidirectional controls:
// an embedding, override or isolate character could reorder what is shown (a name stored as
// "\u202Elive" displays as "evil"). Right-to-left scripts themselves display as they should.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/**
 * A character that shows nothing by itself, as a regular-expression source (use it with the
 * `u` flag): a control character (Cc, C0 and C1), a format character (Cf: the soft hyphen,
 * zero-width spaces and joiners, bidirectional marks and controls, the word joiner, the BOM,
 * tag characters…) or any other default-ignorable code point (the combining grapheme joiner,
 * Hangul fillers, variation selectors…). This is the one definition: every display path
 * deletes only characters of this set (most delete fewer), and redaction (src/api/redact.ts)
 * skips all of them where it looks for the key, so no text a display path shows can put a key
 * split by one of them back together. (An alternation, not one class: V8 scans a text that is
 * not all Latin-1 about four times faster so.)
 */
export const INVISIBLE = '(?:\\p{Cc}|\\p{Cf}|\\p{Default_Ignorable_Code_Point})';

/**
 * Every line terminator a reader may see as a line break, as the body of a regular
 * expression: CR LF (one break), LF, CR, VT, FF, NEL (U+0085), and Unicode's line and
 * paragraph separators (U+2028, U+2029).
 */
export const LINE_BREAK = '\\r\\n|[\\n\\r\\v\\f\\u0085\\u2028\\u2029]';

// A line break with the blanks around it (NEL is a control, not white space, for `\s`).
const BREAK_AND_BLANKS = new RegExp(`[\\s\\u0085]*(?:${LINE_BREAK})[\\s\\u0085]*`, 'g');

/** One line: each line break, with the blanks around it, becomes one space. */
export function foldLines(text: string): string {
  return text.replace(BREAK_AND_BLANKS, ' ');
}

/** The text without bidirectional embedding, override and isolate characters (a subset of `INVISIBLE`). */
export function displayText(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

// What a message shows nothing for: every invisible character but tab and line feed (the
// message's own layout).
const CONTROLS = new RegExp(`(?![\\t\\n])${INVISIBLE}`, 'gu');
const OTHER_BREAKS = new RegExp(`(?!\\n)(?:${LINE_BREAK})`, 'g');

/**
 * Text for a notification, a dialog or a quick input's title and prompt, where VS Code would
 * otherwise act on syntax inside it: a Markdown link `[x](command:…)` becomes `[x] (command:…)`
 * (shown, never a link); every line break is a line feed (a lone CR, NEL or Unicode separator
 * cannot break a line unseen), and every other invisible character (controls, bidirectional
 * characters, zero-width characters, the BOM, tags…) is dropped. Every message of the
 * extension goes through this (VscodeUi), so text from a service or a workspace cannot run a
 * command or disguise itself.
 */
export function safeText(text: string): string {
  return text
    .replace(OTHER_BREAKS, '\n')
    .replace(CONTROLS, '')
    .replace(/\]\s*\(/g, '] (');
}

/**
 * `safeText` on one line, for quick-pick items and status-bar items, which also render
 * `$(name)` as an icon: it is escaped (`\$(name)`) so it shows as written.
 */
export function safeLabel(text: string): string {
  return escapeIcons(safeText(foldLines(text)).replace(/\t+/g, ' '));
}

/** `$(name)` escaped (`\$(name)`), for a label that went through `shortLabel` and is shown where VS Code renders icons. */
export function escapeIcons(text: string): string {
  return text.replace(/\\?\$\(/g, '\\$(');
}

/** The longest label the tree and quick picks show before shortening it with an ellipsis. */
export const LABEL_LIMIT = 80;

const INVISIBLE_CHARS = new RegExp(INVISIBLE, 'gu');

/**
 * A one-line label: bidirectional controls dropped (the subset of `INVISIBLE` that could
 * reorder it; joiners and variation selectors stay, emoji need them), every line break and run
 * of white space made one space, cut at `limit` characters (whole code points, never half a
 * surrogate pair) with an ellipsis. Never empty: a name with nothing visible shows `fallback`.
 */
export function shortLabel(text: string, fallback: string, limit = LABEL_LIMIT): string {
  const line = foldLines(displayText(text)).replace(/\s+/gu, ' ').trim();
  // Invisible characters alone show nothing (joiners inside emoji sequences are kept).
  if (line.replace(INVISIBLE_CHARS, '').trim() === '') return fallback;
  const chars = Array.from(line);
  if (chars.length <= limit) return line;
  return `${chars
    .slice(0, Math.max(1, limit - 1))
    .join('')
    .trimEnd()}…`;
}
