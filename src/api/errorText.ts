// The text of an error body made safe to show: bounds on what is read and kept, one line per
// message, markup stripped, long text clipped. Shared by the readers of error bodies.
import { foldLines, INVISIBLE } from '../core/text';

/** Bounds of what is read and shown: a hostile body can be long, deep or huge. */
export const ERROR_BODY_LIMITS = {
  /** Characters of one message (a longer one ends in "…"). */
  messageChars: 300,
  /** Messages joined into `serverMessage`; the rest are counted ("(and 4 more)"). */
  messages: 3,
  /** Fields kept in `fieldErrors`; the rest are counted in the message. */
  fields: 8,
  /** Messages joined for one field. */
  perField: 3,
  /** Entries of one list or object looked at. */
  entries: 50,
  /** Characters of a field name. */
  fieldChars: 60,
} as const;

/** Text that is JSON, or meant to be: an object, or a list of values. */
export const JSON_LIKE = /^(\{|\[\s*(["{[\]\d-]|true|false|null))/;

export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function unique(texts: string[]): string[] {
  return [...new Set(texts)];
}

// Format and other default-ignorable characters (bidirectional overrides, zero-width
// characters, tags…) could make a message read as something else: they go. Controls (Cc) are
// not among them: each is a space, as line breaks are.
const FORMAT = new RegExp(`(?!\\p{Cc})${INVISIBLE}`, 'gu');
const BLANKS = /[\p{Cc}\s]+/gu;

/** One line: line breaks, control characters and runs of white space become one space; invisible characters go. */
export function oneLine(text: string): string {
  return foldLines(text).replace(FORMAT, '').replace(BLANKS, ' ').trim();
}

export function stripMarkup(html: string): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1];
  const body = html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ');
  return title && !body.includes(title) ? `${title} ${body}` : body;
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
