// Paging a tool's list: the cursor an answer gives, an opaque string holding where the list
// stopped, the inputs it lists for, and when the set it lists from was read. Given back, it
// lists what follows, the inputs taken from it; an input given beside it must be the same.
// Free of `vscode` and of Node (the tools run in the web worker too).
import { l10n } from '../core/l10n';
import { ToolRefusal } from './host';

interface Position {
  /** Items listed before. */
  offset: number;
  /** The inputs the list is for. */
  query: Record<string, unknown>;
  /** When the set it lists from was read (ms since the epoch). */
  readAt: number;
  /** How many a page lists: the next page lists as many unless its input says otherwise. */
  limit: number;
}

function toBase64Url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

function makeCursor(position: Position): string {
  return toBase64Url(JSON.stringify({ o: position.offset, q: position.query, t: position.readAt, l: position.limit }));
}

function readCursor(cursor: string): Position {
  try {
    const parsed = JSON.parse(fromBase64Url(cursor.trim())) as { o?: unknown; q?: unknown; t?: unknown; l?: unknown };
    if (
      Number.isInteger(parsed.o) &&
      Number.isInteger(parsed.l) &&
      (parsed.o as number) >= 0 &&
      typeof parsed.q === 'object' &&
      parsed.q !== null &&
      typeof parsed.t === 'number'
    )
      return {
        offset: parsed.o as number,
        query: parsed.q as Record<string, unknown>,
        readAt: parsed.t,
        limit: parsed.l as number,
      };
  } catch {
    // said below
  }
  throw new ToolRefusal(
    l10n.t('“cursor” is not one this tool gave: give the nextCursor of the previous answer as it is, or leave it out.'),
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The inputs to list for and where to start: the input's own (from 0), or the cursor's, where
 * the input gives a cursor. `keys` are the inputs a list depends on (its filters and order).
 */
export function resume<I extends { cursor?: string; limit?: number }>(
  input: I,
  keys: ReadonlyArray<keyof I & string>,
): { input: I; offset: number; readAt?: number } {
  if (input.cursor === undefined) return { input, offset: 0 };
  const position = readCursor(input.cursor);
  const differs = keys.filter((k) => input[k] !== undefined && !same(input[k], position.query[k]));
  if (differs.length)
    throw new ToolRefusal(
      l10n.t(
        'The cursor lists for other inputs ({0} differs): give it with the inputs of the answer it came from, or without them; to list for new inputs, leave out the cursor.',
        differs.map((k) => `“${k}”`).join(', '),
      ),
    );
  return {
    input: { ...input, ...position.query, limit: input.limit ?? position.limit },
    offset: position.offset,
    readAt: position.readAt,
  };
}

/** The inputs a cursor lists for: those of `keys` the input gave. */
export function queryOf<I>(input: I, keys: ReadonlyArray<keyof I & string>): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]));
}

/** One page of a list: the items from `offset`, how many follow, and the cursor that lists them. */
export interface ListPage<T> {
  items: T[];
  offset: number;
  matched: number;
  remaining: number;
  nextCursor?: string;
  /** When the set listed from was read, and when the set the previous page came from was. */
  readAt: number;
  listedFrom?: number;
}

export function pageOf<T>(
  found: readonly T[],
  at: { offset: number; limit: number; query: Record<string, unknown>; readAt: number; listedFrom?: number },
): ListPage<T> {
  const items = found.slice(at.offset, at.offset + at.limit);
  const remaining = Math.max(0, found.length - at.offset - items.length);
  const nextCursor =
    remaining > 0
      ? makeCursor({ offset: at.offset + items.length, query: at.query, readAt: at.readAt, limit: at.limit })
      : undefined;
  return {
    items,
    offset: at.offset,
    matched: found.length,
    remaining,
    nextCursor,
    readAt: at.readAt,
    listedFrom: at.listedFrom,
  };
}

/** A page as data: how many matched, are listed and remain, and the cursor of the next. */
export function pageData(page: ListPage<unknown>) {
  return {
    matched: page.matched,
    listed: page.items.length,
    remaining: page.remaining,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    readSecondsAgo: Math.max(0, Math.round((Date.now() - page.readAt) / 1000)),
  };
}

/** A page in words: how to list what follows (or that it is the last), how old the set is, whether it moved. */
export function pageWords(page: ListPage<unknown>): string[] {
  const { readSecondsAgo } = pageData(page);
  return [
    page.nextCursor
      ? l10n.t('{0} more: to list them, call again with “cursor”: “{1}”.', page.remaining, page.nextCursor)
      : page.matched > 0
        ? l10n.t('That is the last of them.')
        : '',
    readSecondsAgo < 1
      ? ''
      : l10n.t('Answered from what was read {0} s ago (read again once it is no longer fresh).', readSecondsAgo),
    page.listedFrom !== undefined && page.listedFrom !== page.readAt
      ? l10n.t('The list was read again since the previous page: some items may have moved between pages.')
      : '',
  ];
}
