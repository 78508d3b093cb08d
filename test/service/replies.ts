// What a handler answers, and the error bodies the service uses everywhere:
// `{ error: { code, message, ...extra } }`.

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status, body, headers } : { status, body };
}

export function errorReply(
  status: number,
  code: string,
  message: string,
  extra?: Record<string, unknown>,
  headers?: Record<string, string>,
): Reply {
  return json(status, { error: { code, message, ...extra } }, headers);
}

/** 400 (or 422) naming the offending fields: `fields: { name: 'name is required' }`. */
export function fieldErrors(status: 400 | 422, code: string, fields: Record<string, string>): Reply {
  return errorReply(status, code, Object.values(fields).join('; '), { fields });
}

export function notFound(message: string): Reply {
  return errorReply(404, 'not_found', message);
}

/** A parsed value, or the reply explaining why it could not be parsed. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reply: Reply };

export function ok<T>(value: T): Parsed<T> {
  return { ok: true, value };
}

export function fail<T>(reply: Reply): Parsed<T> {
  return { ok: false, reply };
}
