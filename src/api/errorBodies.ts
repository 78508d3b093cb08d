// The one reader of error bodies (this entry point, the forms in errorFormats.ts, field names
// in errorFields.ts, what was said in errorSaid.ts, its text in errorText.ts). The contract
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
import { readJson } from './errorFormats';
import type { ErrorBodyInfo } from './errorSaid';
import { clip, ERROR_BODY_LIMITS, JSON_LIKE, oneLine, parseJsonText, stripMarkup } from './errorText';

export type { ErrorBodyInfo } from './errorSaid';
export { ERROR_BODY_LIMITS } from './errorText';
export { fieldName } from './errorFields';

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
