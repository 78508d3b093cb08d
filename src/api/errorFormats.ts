// The forms of error bodies that frameworks write (listed in errorBodies.ts), read into `Said`:
// envelopes and their headline, lists of errors, Google's details, maps of fields.
import { entryField, fieldName, scopeOf } from './errorFields';
import { type ErrorBodyInfo, Said } from './errorSaid';
import { ERROR_BODY_LIMITS, isObject } from './errorText';

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

export function readJson(json: unknown, depth = 0): ErrorBodyInfo {
  const said = new Said(readJson);
  if (typeof json === 'string') said.headline(json, depth);
  else if (Array.isArray(json)) readList(json, said, depth);
  else if (isObject(json)) readObject(json, said, depth);
  return said.result();
}

/** An object body: an envelope of a known form, or Django REST's bare `{field: [..]}`. */
function readObject(root: Record<string, unknown>, said: Said, depth: number): void {
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

  said.scope ??= scopeOf(root.requiredScope ?? root.required_scope ?? root.scope);
  if (depth === 0 && !WORD_KEYS.some((key) => Object.hasOwn(root, key))) readFieldMap(root, said, depth, true);
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
