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
  | 'silent'
  /** 201 / 200 with only the id, `{"id": "…"}`, and no Location. */
  | 'idOnly'
  /** 201 / 200 with some of the engagement's fields (`id`, `name`, `status`), and no Location. */
  | 'partial'
  /** 202 with a pending body, `{"status": "pending", "id": "…"}`, and no Location. */
  | 'acceptedBody'
  /** 202 with neither body nor Location: nothing names the engagement. */
  | 'acceptedSilent';

/** The answers that accept a write for processing (202): with `acceptedDelayMs` it is applied later. */
export const ACCEPTED_WRITES: readonly WriteAnswer[] = ['accepted', 'acceptedBody', 'acceptedSilent'];

/**
 * How the service's failures are written: its own JSON (`json`), plain text, an HTML page, or
 * the way a framework writes them (see errorFormats.ts): RFC 9457 problem details, JSON:API,
 * FastAPI, Google APIs, Rails, ASP.NET, Spring Boot, Django REST, GraphQL behind a gateway.
 */
export type ErrorBodies = 'json' | 'text' | 'html' | FrameworkErrors;

/**
 * How a page of engagements or usage records is put: the contract's envelope `{data, page,
 * pageSize, totalCount}` (the default), `{items, total}`, Django REST's `{count, next,
 * previous, results}`, or Laravel's `{data, links, meta: {current_page, per_page, total, …}}`.
 */
export type PageForm = 'envelope' | 'items' | 'results' | 'meta';

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
  /**
   * With an accepted (202) write: the service applies it this many milliseconds later (by its
   * clock): a create appears in reads only then, an update's fields change only then.
   * Without it, an accepted write is applied at once.
   */
  acceptedDelayMs?: number;
  /** How pages of the list and of the usage records are put (default the contract's envelope). */
  pageForm?: PageForm;
  errorBodies?: ErrorBodies;
  /**
   * Answers no browser's CORS: no `Access-Control-Allow-*` header on any answer or preflight,
   * as a service built without a browser in mind (VS Code for the Web cannot read it).
   */
  noCors?: boolean;
}

/** The delay of the readings whose accepted writes are applied later: a look or two after the answer. */
export const ACCEPTED_DELAY_MS = 1_200;

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
  idOnlyWrites: { writes: 'idOnly' },
  partialWrapped: { writes: 'partial', wrapSingle: true },
  delayedAccepted: { writes: 'accepted', acceptedDelayMs: ACCEPTED_DELAY_MS },
  acceptedPending: { writes: 'acceptedBody', acceptedDelayMs: ACCEPTED_DELAY_MS },
  acceptedSilent: { writes: 'acceptedSilent', acceptedDelayMs: ACCEPTED_DELAY_MS },
  itemsEnvelope: { pageForm: 'items' },
  resultsEnvelope: { pageForm: 'results' },
  metaEnvelope: { pageForm: 'meta' },
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
  noCors: { noCors: true },
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

/** How long after answering the service applies a write under `reading` (0: at once). */
export function acceptedDelay(reading: Reading): number {
  return ACCEPTED_WRITES.includes(reading.writes ?? 'body') ? Math.max(0, reading.acceptedDelayMs ?? 0) : 0;
}

/** Some of an engagement's fields, as a service that answers a write with a summary puts them. */
function partial(engagement: { id: string; name: string; status: string }): unknown {
  return { id: engagement.id, name: engagement.name, status: engagement.status };
}

/** The answer to a create that made (or, accepted, will make) `created`. */
export function createAnswer(
  reading: Reading,
  created: { id: string; name: string; status: string },
  location: string,
): Reply {
  return writeAnswer(reading, created, location);
}

/** The answer to an update that produced (or, accepted, will produce) `updated`. */
export function updateAnswer(reading: Reading, updated: { id: string; name: string; status: string }): Reply {
  return writeAnswer(reading, updated);
}

/**
 * The answer to a write of `written`: a create (its `location` given) answers 201 where an
 * update answers 200, and names its engagement's address where it answers with one.
 */
function writeAnswer(
  reading: Reading,
  written: { id: string; name: string; status: string },
  location?: string,
): Reply {
  const done = location === undefined ? 200 : 201;
  const located = location === undefined ? {} : { headers: { Location: location } };
  switch (reading.writes ?? 'body') {
    case 'body':
      return { status: done, body: single(reading, written), ...located };
    case 'location':
      return location === undefined ? { status: 204 } : { status: 201, ...located };
    case 'accepted':
      return { status: 202, ...located };
    case 'acceptedSilent':
      return { status: 202 };
    case 'silent':
      return { status: done };
    case 'idOnly':
      return { status: done, body: single(reading, { id: written.id }) };
    case 'partial':
      return { status: done, body: single(reading, partial(written)) };
    case 'acceptedBody':
      return { status: 202, body: single(reading, { status: 'pending', id: written.id }) };
  }
}

/**
 * A page of `items` in the reading's form. `path` is the endpoint's (for the links some
 * forms carry); `extra` are fields the envelope has beside its paging (the records' period).
 */
export function pageBody(
  reading: Reading,
  page: { items: unknown[]; page: number; pageSize: number; total: number },
  path: string,
  extra: Record<string, unknown> = {},
): unknown {
  const { items, total } = page;
  const last = Math.max(1, Math.ceil(total / page.pageSize));
  const link = (n: number) => (n >= 1 && n <= last ? `${path}?page=${n}&pageSize=${page.pageSize}` : null);
  switch (reading.pageForm ?? 'envelope') {
    case 'envelope':
      return { ...extra, data: items, page: page.page, pageSize: page.pageSize, totalCount: total };
    case 'items':
      return { items, total };
    case 'results':
      return { count: total, next: link(page.page + 1), previous: link(page.page - 1), results: items };
    case 'meta': {
      const from = items.length ? (page.page - 1) * page.pageSize + 1 : null;
      return {
        data: items,
        links: { first: link(1), last: link(last), prev: link(page.page - 1), next: link(page.page + 1) },
        meta: {
          current_page: page.page,
          from,
          last_page: last,
          path,
          per_page: page.pageSize,
          to: from === null ? null : from + items.length - 1,
          total,
        },
      };
    }
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
