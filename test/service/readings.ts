// The contract leaves parts of the service open ("not shown"): the list's query parameters,
// the bodies and status codes of POST and PATCH, the shape of a single read, error bodies.
// A reading is one contract-valid way a real service may fill them in. The reference service
// speaks any of them, so the client's tests can run against each, not only against ours.
import { type FrameworkErrors, type RenderedError, renderError } from './errorFormats';
import type { Reply } from './replies';

export type WriteAnswer =
  /** 201 + the engagement + Location on create, 200 + the engagement on update (the default). */
  | 'body'
  /** 201 + Location and no body on create, 204 on update. */
  | 'location'
  /** 202 + Location and no body on create, 202 and no body on update. */
  | 'accepted'
  /** 201 with neither body nor Location on create, 200 with an empty body on update. */
  | 'silent';

/**
 * How the service's failures are written: its own JSON (`json`), plain text, an HTML page, or
 * the way a framework writes them (see errorFormats.ts): RFC 9457 problem details, JSON:API,
 * FastAPI, Google APIs, Rails, ASP.NET, Spring Boot, Django REST, GraphQL behind a gateway.
 */
export type ErrorBodies = 'json' | 'text' | 'html' | FrameworkErrors;

export interface Reading {
  /**
   * The largest `pageSize` the list of engagements takes; a larger one is refused with 400.
   * Default 100, or no bound when the reading caps, ignores the size or does not page.
   */
  pageSizeMax?: number;
  /** Answers at most this many items per page, whatever `pageSize` asked for. */
  pageSizeCap?: number;
  /** Ignores `pageSize`: every page has its own fixed size (25). */
  ignorePageSize?: boolean;
  /** Ignores `page`: every request gets the first page. */
  ignorePage?: boolean;
  /** No paging at all: every item in one page. */
  noPaging?: boolean;
  /** Single reads, write answers, the usage summary and by-key inside `{"data": …}`. */
  wrapSingle?: boolean;
  writes?: WriteAnswer;
  errorBodies?: ErrorBodies;
}

/** The named readings the suites run against (and `npm run service -- --reading NAME`). */
export const READINGS = {
  reference: {},
  largePages: { pageSizeMax: 1_000 },
  capped50: { pageSizeCap: 50 },
  ignoresPageSize: { ignorePageSize: true },
  ignoresPage: { ignorePage: true },
  onePage: { noPaging: true },
  wrapped: { wrapSingle: true },
  locationWrites: { writes: 'location' },
  acceptedWrites: { writes: 'accepted' },
  silentWrites: { writes: 'silent' },
  wrappedLocation: { wrapSingle: true, writes: 'location', pageSizeCap: 50 },
  textErrors: { errorBodies: 'text' },
  htmlErrors: { errorBodies: 'html' },
  // Error bodies the way the frameworks services are built with write them.
  problemErrors: { errorBodies: 'problem' },
  jsonApiErrors: { errorBodies: 'jsonapi' },
  fastApiErrors: { errorBodies: 'fastapi' },
  googleErrors: { errorBodies: 'google' },
  railsErrors: { errorBodies: 'rails' },
  aspNetErrors: { errorBodies: 'aspnet' },
  springErrors: { errorBodies: 'spring' },
  djangoErrors: { errorBodies: 'django' },
  graphqlErrors: { errorBodies: 'graphql' },
} as const satisfies Record<string, Reading>;

export type ReadingName = keyof typeof READINGS;
export const READING_NAMES = Object.keys(READINGS) as ReadingName[];

export const FIXED_PAGE_SIZE = 25;

/** The largest `pageSize` the list of engagements accepts under `reading` (the usage records keep the contract's 100). */
export function listPageSizeMax(reading: Reading): number {
  if (reading.pageSizeMax !== undefined) return reading.pageSizeMax;
  // A service that clamps the size, or pays it no attention, does not refuse it either.
  if (reading.pageSizeCap !== undefined || reading.ignorePageSize || reading.noPaging) return Number.MAX_SAFE_INTEGER;
  return 100;
}

/** The page the service really answers with, for a request of `page` × `pageSize` over `total` items. */
export function pagingOf(
  reading: Reading,
  requested: { page: number; pageSize: number },
  total: number,
): { page: number; pageSize: number } {
  if (reading.noPaging) return { page: 1, pageSize: Math.max(1, total) };
  let pageSize = reading.ignorePageSize ? FIXED_PAGE_SIZE : requested.pageSize;
  if (reading.pageSizeCap !== undefined) pageSize = Math.min(pageSize, reading.pageSizeCap);
  return { page: reading.ignorePage ? 1 : requested.page, pageSize };
}

/** Wraps a single resource (engagement, summary, by-key) when the reading says so. */
export function single(reading: Reading, body: unknown): unknown {
  return reading.wrapSingle ? { data: body } : body;
}

/** The answer to a create that made `created`. */
export function createAnswer(reading: Reading, created: unknown, location: string): Reply {
  switch (reading.writes ?? 'body') {
    case 'body':
      return { status: 201, body: single(reading, created), headers: { Location: location } };
    case 'location':
      return { status: 201, headers: { Location: location } };
    case 'accepted':
      return { status: 202, headers: { Location: location } };
    case 'silent':
      return { status: 201 };
  }
}

/** The answer to an update that produced `updated`. */
export function updateAnswer(reading: Reading, updated: unknown): Reply {
  switch (reading.writes ?? 'body') {
    case 'body':
      return { status: 200, body: single(reading, updated) };
    case 'location':
      return { status: 204 };
    case 'accepted':
      return { status: 202 };
    case 'silent':
      return { status: 200 };
  }
}

/**
 * An error reply (the service's `{error: {code, message, fields, requiredScope}}`) written the
 * way the reading says: as plain text, an HTML page, or a framework's body, content type and
 * status code. Undefined for the service's own JSON.
 */
export function errorBodyText(
  reading: Reading,
  reply: Reply,
  request: { method: string; path: string },
): RenderedError | undefined {
  const format = reading.errorBodies ?? 'json';
  if (format === 'json') return undefined;
  const error = (reply.body as { error?: Record<string, unknown> } | undefined)?.error ?? {};
  const message = typeof error.message === 'string' ? error.message : 'Request failed';
  if (format === 'text') return { status: reply.status, contentType: 'text/plain; charset=utf-8', text: message };
  if (format === 'html') {
    const escaped = message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    return {
      status: reply.status,
      contentType: 'text/html; charset=utf-8',
      text: `<!doctype html><html><head><title>Error</title></head><body><h1>Error</h1><p>${escaped}</p></body></html>`,
    };
  }
  return renderError(format, {
    status: reply.status,
    code: typeof error.code === 'string' ? error.code : 'error',
    message,
    fields: (error.fields as Record<string, string> | undefined) ?? undefined,
    requiredScope: typeof error.requiredScope === 'string' ? error.requiredScope : undefined,
    method: request.method,
    path: request.path,
  });
}

/** Parses the CLI's and the suites' way of naming a reading: a name, or flags on top of one. */
export function readingByName(name: string): Reading {
  if (!Object.hasOwn(READINGS, name)) throw new Error(`Unknown reading "${name}"; known: ${READING_NAMES.join(', ')}`);
  return READINGS[name as ReadingName];
}
