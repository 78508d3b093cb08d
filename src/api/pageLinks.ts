// Where a service says its next page is, when it pages its own way: a `next` link in the body
// (at the top, or under `links`, `meta`, `pagination` or HAL's `_links`), a cursor token to send
// back (`next_cursor`, `next_page_token`, or a `next` that is no URL), `has_more` with the last
// item's id (sent back as `starting_after`), or a `Link: <…>; rel="next"` header; and its total
// in a header (`X-Total-Count`, `Total`) when the body says none. A next link that is the
// list's own `page + 1` is no news: page numbers work, and are asked as before (concurrently).

import type { NextPage } from './types';

type Obj = Record<string, unknown>;

/** What a page's answer says besides its body: its headers and the URL that answered. */
export interface PageAnswer {
  headers?: { get(name: string): string | null };
  /** The absolute URL that answered; relative links are resolved against it. */
  url?: string;
}

/** What an answer says of the page after it. */
export interface NextSaid {
  next?: NextPage;
  /** Whether a page follows, when the service said so either way. */
  more?: boolean;
}

/** Fields that hold the next page as a URL, a page number or a token. */
const NEXT_FIELDS = ['next', 'next_page_url', 'nextPageUrl', 'next_url', 'nextUrl', 'next_page', 'nextPage'] as const;
/** Fields that hold a cursor token, with the query parameter each is sent back as. */
const CURSOR_FIELDS = [
  ['next_cursor', 'cursor'],
  ['nextCursor', 'cursor'],
  ['next_page_token', 'page_token'],
  ['nextPageToken', 'pageToken'],
] as const;
const HAS_MORE_FIELDS = ['has_more', 'hasMore'] as const;
/** Headers that count the whole list, as pagination libraries send them. */
const TOTAL_HEADERS = ['X-Total-Count', 'X-Total', 'Total'] as const;

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The links of a `Link` header by their `rel` (each rel of a link counts): `<url>; rel="next"`. */
function linkHeader(value: string | null | undefined): Map<string, string> {
  const links = new Map<string, string>();
  if (!value) return links;
  for (const match of value.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2]);
    for (const name of (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/))
      if (name && !links.has(name)) links.set(name, match[1]);
  }
  return links;
}

/** The list's total from a header, when one says a whole number. */
export function headerTotal(answer: PageAnswer | undefined): number | undefined {
  for (const name of TOTAL_HEADERS) {
    const value = answer?.headers?.get(name)?.trim();
    if (value && /^\d+$/.test(value)) return Number(value);
  }
  return undefined;
}

/**
 * What the answer for page `page` says of the next one: from the envelope (undefined for a bare
 * array) and its `Link` header. `items` are the page's items as sent (for `has_more`).
 */
export function nextOf(
  envelope: Obj | undefined,
  items: readonly unknown[],
  page: number,
  answer: PageAnswer | undefined,
): NextSaid {
  const fromBody = envelope ? bodyNext(envelope, items, answer?.url) : {};
  if (fromBody.next || fromBody.more !== undefined) return ownPageNumber(fromBody, page, answer?.url);
  const header = answer?.headers?.get('Link');
  if (!header) return {};
  const links = linkHeader(header);
  const next = links.get('next');
  if (next === undefined) return links.size > 0 ? { more: false } : {};
  const url = resolve(next, answer?.url);
  return url ? ownPageNumber({ next: { url }, more: true }, page, answer?.url) : {};
}

/** The next page as the envelope names it: the first of the places services put it. */
function bodyNext(envelope: Obj, items: readonly unknown[], url: string | undefined): NextSaid {
  const places = [envelope, envelope.links, envelope.meta, envelope.pagination, envelope._links].filter(isObject);
  for (const place of places) {
    for (const field of NEXT_FIELDS) {
      if (!(field in place)) continue;
      const said = nextValue(place[field], url);
      if (said) return said;
    }
    for (const [field, param] of CURSOR_FIELDS) {
      if (!(field in place)) continue;
      const token = place[field];
      if (token === null || token === '') return { more: false };
      if (typeof token === 'string') return { next: { query: { [param]: token } }, more: true };
    }
  }
  for (const place of places)
    for (const field of HAS_MORE_FIELDS) {
      const more = place[field];
      if (more === false) return { more: false };
      if (more !== true) continue;
      // Stripe's way: the next page starts after the last item read.
      const last = items.at(-1);
      const id = isObject(last) ? last.id : undefined;
      return typeof id === 'string' || typeof id === 'number'
        ? { next: { query: { starting_after: String(id) } }, more: true }
        : { more: true };
    }
  return {};
}

/** A `next` field's value: a link (`{href}` too), a page number, a token, or none (null). */
function nextValue(value: unknown, url: string | undefined): NextSaid | undefined {
  if (value === null || value === '' || value === false) return { more: false };
  if (isObject(value)) return typeof value.href === 'string' ? nextValue(value.href, url) : undefined;
  if (typeof value === 'number') return Number.isInteger(value) && value > 0 ? { more: true } : undefined;
  if (typeof value !== 'string') return undefined;
  if (/^\d+$/.test(value)) return { more: true };
  if (/^(https?:\/\/|\/|\?)/i.test(value)) {
    const link = resolve(value, url);
    return link ? { next: { url: link }, more: true } : undefined;
  }
  return { next: { query: { cursor: value } }, more: true };
}

/** An absolute URL from a link as sent, resolved against the URL that answered. */
function resolve(link: string, base: string | undefined): string | undefined {
  try {
    return new URL(link, base).href;
  } catch {
    return undefined;
  }
}

/**
 * A next link to the same path with only `page` one higher is the list's own page numbering:
 * no link to follow (the pages are asked by number, as before), only that more follow.
 */
function ownPageNumber(said: NextSaid, page: number, answered: string | undefined): NextSaid {
  const next = said.next;
  if (!next || !('url' in next) || !answered) return said;
  const to = new URL(next.url);
  const from = new URL(answered);
  const path = (p: string) => p.replace(/\/+$/, '');
  if (to.origin !== from.origin || path(to.pathname) !== path(from.pathname)) return said;
  return to.searchParams.get('page') === String(page + 1) && !to.searchParams.has('cursor') ? { more: true } : said;
}

/**
 * Where a page is asked: by its number and size, or where the page before named it (a link as
 * it is, or a cursor sent back with the size asked and the request's other `query`).
 */
export function pageQuery(
  { page, pageSize }: { page: number; pageSize: number },
  next: NextPage | undefined,
  query: Record<string, string | number | undefined> = {},
): { query: Record<string, string | number | undefined>; link?: string } {
  if (!next) return { query: { ...query, page, pageSize } };
  if ('url' in next) return { query: {}, link: next.url };
  return { query: { ...query, pageSize, ...next.query } };
}

/**
 * The links to the pages after the first of a list paged by offset (`limit`/`offset`, `start`,
 * `skip`), when the first page's next link is the first page moved on by its own size: the
 * same link with the offset at each later page, up to `wanted` items. Such pages can be asked
 * together, as page numbers can. Undefined when the link is not of that kind.
 */
export function offsetLinks(next: NextPage | undefined, size: number, wanted: number): NextPage[] | undefined {
  if (!next || !('url' in next) || size < 1) return undefined;
  const url = new URL(next.url);
  const param = ['offset', 'start', 'skip'].find((name) => url.searchParams.get(name) === String(size));
  if (!param) return undefined;
  const links: NextPage[] = [];
  for (let offset = size; offset < wanted; offset += size) {
    url.searchParams.set(param, String(offset));
    links.push({ url: url.href });
  }
  return links;
}
