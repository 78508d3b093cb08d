// The one reader of error bodies: the forms frameworks write, the field names they use, what
// was said and its text made safe to show. The contract
// defines no error format, so a service answers its failures the way its framework does; this
// reads them all into the service's words (`serverMessage`) and its per-field reasons
// (`fieldErrors`, keyed by the contract's field names), and never shows the body itself.
// What it reads:
// - this service's reference form `{error: {code, message, fields, requiredScope}}`
// - RFC 9457 / 7807 problem details: `detail` or `title`, with `errors` ([{detail, pointer}]
//   or an object of lists, as ASP.NET's validation problems) and `invalid-params` [{name, reason}]
// - JSON:API `errors[]`: `detail` or `title`, the field from `source.pointer` or `source.parameter`
// - FastAPI / pydantic `detail[]` of `{loc, msg}`, and FastAPI's plain `{detail: "…"}`
// - Google APIs `{error: {code, message, status, details[]}}`, `google.rpc.BadRequest`'s `fieldViolations`
// - Rails `{errors: {field: [..]}}`, `{errors: [..]}`, `{error: "…"}`
// - Spring Boot `{status, error, message, path}` with validation `errors[]` of `{field, defaultMessage}`
// - Django REST `{field: [..]}`, `non_field_errors`, `{detail: "…"}`
// - GraphQL-style `{errors: [{message, path, extensions}]}` behind a REST gateway
// - Fastify's schema validation `{statusCode, code: "FST_ERR_VALIDATION", error, message}`, the
//   field in its message (`body/type must be equal to one of the allowed values`)
// - zod's `ZodError` as validators of Hono (`@hono/zod-validator`) and others answer it:
//   `{success: false, error: {name: "ZodError", issues | message}}`, zod 4 writing its issues
//   `[{path, message}]` as JSON text in `message`
import { formatCount } from '../core/format';
import { l10n } from '../core/l10n';
import { INVISIBLE, foldLines } from '../core/text';
import type { Scope } from './types';
import { ENGAGEMENT_FIELDS } from './types';

/**
 * Reads whatever an error body holds: its message(s) and the fields it names. Nothing here
 * is raw JSON; each message is one line, at most `messageChars` long, and at most `messages`
 * of them are joined.
 */
export function readErrorBody(text: string, contentType: string | null): ErrorBodyInfo {
  const trimmed = text.trim();
  if (!trimmed) return {};
  const type = (contentType ?? '').toLowerCase();
  const looksJson = JSON_LIKE.test(trimmed);
  if (type.includes('json') || looksJson) {
    const json = parseJsonText(trimmed);
    if (json !== undefined) return readJson(json);
    // Broken JSON is not the service's words: say nothing rather than show it.
    if (looksJson) return {};
  }
  const markup = type.includes('html') || type.includes('xml') || /^<(!doctype|html|\?xml)/i.test(trimmed);
  const plain = oneLine(markup ? stripMarkup(trimmed) : trimmed);
  return plain ? { serverMessage: clip(plain, ERROR_BODY_LIMITS.messageChars) } : {};
}

// The forms of error bodies that frameworks write (listed in errorBodies.ts), read into `Said`:
// envelopes and their headline, lists of errors, Google's details, maps of fields.
/** Keys whose presence says the object is an envelope that carries words, not Django REST's bare `{field: [..]}`. */
const WORD_KEYS = [
  'error',
  'errors',
  'message',
  'detail',
  'title',
  'error_description',
  'fields',
  'details',
  'invalid-params',
  'invalid_params',
  'invalidParams',
  'violations',
];

function readJson(json: unknown, depth = 0): ErrorBodyInfo {
  const said = new Said(readJson);
  if (typeof json === 'string') said.headline(json, depth);
  else if (Array.isArray(json)) readList(json, said, depth);
  else if (isObject(json)) readObject(json, said, depth);
  return said.result();
}

/** An object body: an envelope of a known form, or Django REST's bare `{field: [..]}`. */
function readObject(root: Record<string, unknown>, said: Said, depth: number): void {
  const issues = zodIssues(root);
  if (issues) return readList(issues, said, depth);
  const error = root.error;
  // `{error: {…}}`: this service's form, Google's, and others that nest the body under `error`.
  if (isObject(error) && depth < 3) readObject(error, said, depth + 1);
  // The headline: the most specific text first (RFC 9457's `detail` before its `title`,
  // Spring's `message` before its reason phrase `error`, OAuth's description before its code).
  said.headline(typeof root.detail === 'string' ? root.detail : undefined, depth);
  if (root.message !== 'No message available') said.headline(root.message, depth);
  for (const key of ['error_description', 'errorMessage', 'error', 'title']) said.headline(root[key], depth);
  if (typeof root.code === 'string') said.headline(root.code, depth);

  for (const key of ['errors', 'fields', 'invalid-params', 'invalid_params', 'invalidParams', 'violations']) {
    const value = root[key];
    if (Array.isArray(value)) readList(value, said, depth);
    else if (isObject(value)) readFieldMap(value, said, depth);
  }
  if (Array.isArray(root.detail)) readList(root.detail, said, depth);
  if (Array.isArray(root.details)) readDetails(root.details, said, depth);
  else if (isObject(root.details)) readFieldMap(root.details, said, depth);
  for (const key of ['non_field_errors', 'nonFieldErrors']) said.message(root[key], depth);
  if (root.code === 'FST_ERR_VALIDATION' && typeof root.message === 'string')
    readFastifyMessage(root.message, said, depth);

  said.scope ??= scopeOf(root.requiredScope ?? root.required_scope ?? root.scope);
  if (depth === 0 && !WORD_KEYS.some((key) => Object.hasOwn(root, key))) readFieldMap(root, said, depth, true);
}

/**
 * Fastify names the field only in its message: `body/type must be …`, `querystring/pageSize
 * must be <= 100`, or `body must have required property 'name'`. The reason is kept for that
 * field; the message itself stays the headline.
 */
function readFastifyMessage(message: string, said: Said, depth: number): void {
  const at = /^(?:body|querystring|params|headers)(\/\S+) (.+)$/s.exec(message);
  const required = /^(?:body|querystring|params|headers) (must have required property '([^']+)')/.exec(message);
  const field = fieldName(at?.[1] ?? required?.[2]);
  const reason = at?.[2] ?? required?.[1];
  if (field && reason) said.field(field, reason, depth);
}

/** The issues of a zod `ZodError`: under `issues`, or (zod 4) as JSON text in its `message`. */
function zodIssues(root: Record<string, unknown>): readonly unknown[] | undefined {
  if (root.name !== 'ZodError') return undefined;
  if (Array.isArray(root.issues)) return root.issues as unknown[];
  const parsed = typeof root.message === 'string' ? parseJsonText(root.message.trim()) : undefined;
  return Array.isArray(parsed) ? parsed : undefined;
}

/** A list of errors: strings, or entries naming a field (or not) and saying why. */
function readList(list: readonly unknown[], said: Said, depth: number): void {
  said.unread += Math.max(0, list.length - ERROR_BODY_LIMITS.entries);
  for (const entry of list.slice(0, ERROR_BODY_LIMITS.entries)) {
    if (typeof entry === 'string') {
      said.message(entry, depth);
      continue;
    }
    if (!isObject(entry)) continue;
    const message = entryMessage(entry);
    if (message === undefined) continue;
    const field = entryField(entry);
    if (field) said.field(field, message, depth);
    else said.message(message, depth);
  }
}

/** Google's `details[]`: the field violations of a `google.rpc.BadRequest`; other details are not words for the user. */
function readDetails(details: readonly unknown[], said: Said, depth: number): void {
  for (const detail of details.slice(0, ERROR_BODY_LIMITS.entries)) {
    if (!isObject(detail)) continue;
    if (Array.isArray(detail.fieldViolations)) readList(detail.fieldViolations, said, depth);
    else if (detail['@type'] === undefined) readList([detail], said, depth);
  }
}

/** `{field: "…" | ["…", …]}`, as Rails, ASP.NET, Django REST and this service's `fields` write them. */
function readFieldMap(map: Record<string, unknown>, said: Said, depth: number, listsOnly = false): void {
  const entries = Object.entries(map);
  said.unread += Math.max(0, entries.length - ERROR_BODY_LIMITS.entries);
  for (const [key, value] of entries.slice(0, ERROR_BODY_LIMITS.entries)) {
    if (listsOnly && !Array.isArray(value)) continue;
    if (key === 'non_field_errors' || key === 'nonFieldErrors') continue;
    const texts = isObject(value) ? entryMessage(value) : value;
    const field = fieldName(key);
    if (field) said.field(field, texts, depth);
    else said.message(texts, depth);
  }
}

function entryMessage(entry: Record<string, unknown>): unknown {
  for (const key of ['detail', 'message', 'msg', 'defaultMessage', 'description', 'reason', 'title', 'error'])
    if (typeof entry[key] === 'string' && entry[key].trim()) return entry[key];
  return Array.isArray(entry.messages) ? entry.messages : undefined;
}

// Field names in error bodies as the contract names them: whichever key an entry names its
// field by, and whichever way a framework writes it (a pointer, a path, snake case), matched
// to the contract's field and parameter names; and the scope a refusal names.
const SCOPES: readonly string[] = ['engagements:read', 'engagements:write', 'usage:read'];

/** The contract's field and parameter names: a field named any other way is matched to these. */
const CONTRACT_FIELDS = [...ENGAGEMENT_FIELDS, 'page', 'pageSize', 'billingPeriod'];
const BY_LOOSE_NAME = new Map(CONTRACT_FIELDS.map((f) => [loose(f), f]));

/** Path segments that hold fields rather than name one: `/data/attributes`, `["body", …]`, `$.…`. */
const CONTAINERS = new Set([
  '',
  '#',
  '$',
  'body',
  'query',
  'path',
  'header',
  'headers',
  'cookie',
  'form',
  'data',
  'attributes',
  'relationships',
  'input',
  'request',
  'params',
  'payload',
  'json',
]);

/** The field an entry names, by whichever key its format uses. */
function entryField(entry: Record<string, unknown>): string | undefined {
  const source = isObject(entry.source) ? entry.source : {};
  const extensions = isObject(entry.extensions) ? entry.extensions : {};
  const candidates = [
    entry.field,
    entry.name,
    entry.param,
    entry.parameter,
    entry.property,
    entry.propertyPath,
    entry.attribute,
    extensions.field,
    extensions.argumentName,
    source.pointer,
    source.parameter,
    entry.pointer,
    entry.loc,
    entry.path,
  ];
  for (const candidate of candidates) {
    const field = fieldName(candidate);
    if (field) return field;
  }
  return undefined;
}

/**
 * A field named any way (`/data/attributes/name`, `#/name`, `["body", "name"]`, `body.name`,
 * `$.Name`, `Name`, `page_size`) as the contract names it (`name`, `pageSize`): the last
 * segment of its path, matched case-insensitively. Undefined when it names no field.
 */
export function fieldName(raw: unknown): string | undefined {
  let segments: string[];
  if (typeof raw === 'string') segments = raw.slice(0, 500).split(/[/.[\]]+/);
  else if (Array.isArray(raw)) segments = raw.slice(0, 20).filter((s): s is string => typeof s === 'string');
  else return undefined;
  const last = segments
    .map((s) => s.trim())
    .filter((s) => s && !/^\d+$/.test(s))
    .at(-1);
  if (!last || CONTAINERS.has(last.toLowerCase()) || last === '__proto__') return undefined;
  return BY_LOOSE_NAME.get(loose(last)) ?? clip(oneLine(last), ERROR_BODY_LIMITS.fieldChars);
}

function loose(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

function scopeOf(value: unknown): Scope | undefined {
  return typeof value === 'string' && SCOPES.includes(value.trim()) ? (value.trim() as Scope) : undefined;
}

// What an error body said, gathered from wherever its format puts it, and made the result:
// the service's words (at most `messages` of them, each clipped) and its per-field reasons.
export interface ErrorBodyInfo {
  serverMessage?: string;
  fieldErrors?: Record<string, string>;
  scope?: Scope;
}

/** What a body said, gathered from wherever its format puts it. */
class Said {
  /** The body's own headline (`message`, `detail`, `title`…), best first. */
  readonly headlines: string[] = [];
  /** Messages that name no field. */
  readonly messages: string[] = [];
  readonly fields = new Map<string, string[]>();
  /** Entries not looked at (past `entries`). */
  unread = 0;
  scope?: Scope;

  /** `readInner` reads a body found inside a string (a gateway's message holding the service's JSON). */
  constructor(private readonly readInner: (json: unknown, depth: number) => ErrorBodyInfo) {}

  /** A string only: a list in a headline's place (NestJS's `message: [..]`) is messages. */
  headline(value: unknown, depth: number): void {
    if (Array.isArray(value)) this.message(value, depth);
    else for (const text of this.strings(value, depth)) this.headlines.push(text);
  }

  message(value: unknown, depth: number): void {
    for (const text of this.strings(value, depth)) this.messages.push(text);
  }

  field(name: string, value: unknown, depth: number): void {
    const texts = this.strings(value, depth);
    if (!texts.length) return;
    const list = this.fields.get(name) ?? [];
    this.fields.set(name, [...list, ...texts]);
  }

  /** Strings of a value: a string (JSON inside one is read, not shown), or the strings of a short list. */
  private strings(value: unknown, depth: number): string[] {
    if (Array.isArray(value)) {
      return value
        .slice(0, ERROR_BODY_LIMITS.entries)
        .flatMap((v) => (typeof v === 'string' ? this.strings(v, depth) : []));
    }
    if (typeof value !== 'string') return [];
    const text = value.trim();
    if (JSON_LIKE.test(text)) {
      // A body encoded twice (a gateway's message holding the service's JSON): read it once more.
      const inner = depth < 3 ? parseJsonText(text) : undefined;
      if (inner !== undefined) {
        const info = this.readInner(inner, depth + 1);
        for (const [field, message] of Object.entries(info.fieldErrors ?? {})) this.field(field, message, depth + 1);
        return info.serverMessage ? [info.serverMessage] : [];
      }
      return [];
    }
    const line = oneLine(text);
    return line ? [clip(line, ERROR_BODY_LIMITS.messageChars)] : [];
  }

  result(): ErrorBodyInfo {
    const fieldErrors: Record<string, string> = {};
    const fieldNames = [...this.fields.keys()];
    for (const name of fieldNames.slice(0, ERROR_BODY_LIMITS.fields)) {
      const messages = unique(this.fields.get(name) ?? []);
      fieldErrors[name] = clip(
        messages.slice(0, ERROR_BODY_LIMITS.perField).join('; '),
        ERROR_BODY_LIMITS.messageChars,
      );
    }
    const headline = this.headlines[0];
    const messages = unique([...(headline ? [headline] : []), ...this.messages]);
    const more =
      Math.max(0, messages.length - ERROR_BODY_LIMITS.messages) +
      Math.max(0, fieldNames.length - ERROR_BODY_LIMITS.fields) +
      this.unread;
    let serverMessage = messages.slice(0, ERROR_BODY_LIMITS.messages).join('; ') || undefined;
    if (serverMessage && more > 0) serverMessage = l10n.t('{0} (and {1} more)', serverMessage, formatCount(more));
    else if (!serverMessage && more > 0)
      serverMessage = l10n.t(
        'the service gave {0} reasons',
        formatCount(Math.min(fieldNames.length, ERROR_BODY_LIMITS.fields) + more),
      );
    const info: ErrorBodyInfo = {};
    if (serverMessage) info.serverMessage = serverMessage;
    if (fieldNames.length) info.fieldErrors = fieldErrors;
    if (this.scope) info.scope = this.scope;
    return info;
  }
}

// The text of an error body made safe to show: bounds on what is read and kept, one line per
// message, markup stripped, long text clipped. Shared by the readers of error bodies.
/** Bounds of what is read and shown: a hostile body can be long, deep or huge. */
const ERROR_BODY_LIMITS = {
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
const JSON_LIKE = /^(\{|\[\s*(["{[\]\d-]|true|false|null))/;

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unique(texts: string[]): string[] {
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

function stripMarkup(html: string): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1];
  const body = html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ');
  return title && !body.includes(title) ? `${title} ${body}` : body;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
