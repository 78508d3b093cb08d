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

/** The text without bidirectional embedding, override and isolate characters. */
export function displayText(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

// Control characters (C0 but tab and newline, DEL, C1), bidirectional marks, embeddings,
// overrides and isolates, zero-width joiners and the BOM: none has a place in a message.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;

/**
 * Text for a notification, a dialog or a quick input's title and prompt, where VS Code would
 * otherwise act on syntax inside it: a Markdown link `[x](command:…)` becomes `[x] (command:…)`
 * (shown, never a link), and control and bidirectional characters are dropped. Every message
 * of the extension goes through this (VscodeUi), so text from a service or a workspace
 * cannot run a command or disguise itself.
 */
export function safeText(text: string): string {
  return text.replace(CONTROLS, '').replace(/\]\s*\(/g, '] (');
}

/**
 * `safeText` on one line, for quick-pick items and status-bar items, which also render
 * `$(name)` as an icon: it is escaped (`\$(name)`) so it shows as written.
 */
export function safeLabel(text: string): string {
  return escapeIcons(safeText(text).replace(/[\n\t]+/g, ' '));
}

/** `$(name)` escaped (`\$(name)`), for a label that went through `shortLabel` and is shown where VS Code renders icons. */
export function escapeIcons(text: string): string {
  return text.replace(/\\?\$\(/g, '\\$(');
}

/** The longest label the tree and quick picks show before shortening it with an ellipsis. */
export const LABEL_LIMIT = 80;

/**
 * A one-line label: bidirectional controls dropped, runs of white space (line breaks
 * included) made one space, cut at `limit` characters (whole code points, never half a
 * surrogate pair) with an ellipsis. Never empty: a name with nothing visible shows `fallback`.
 */
export function shortLabel(text: string, fallback: string, limit = LABEL_LIMIT): string {
  const line = displayText(text).replace(/\s+/gu, ' ').trim();
  // Zero-width characters alone show nothing (joiners inside emoji sequences are kept).
  if (line.replace(/[\u200B-\u200D\u2060\uFEFF]/g, '').trim() === '') return fallback;
  const chars = Array.from(line);
  if (chars.length <= limit) return line;
  return `${chars
    .slice(0, Math.max(1, limit - 1))
    .join('')
    .trimEnd()}…`;
}
