// The engagement endpoints of the contract (list, read, create, PATCH), what a write sends
// (its body checked as the service would check it, and a PATCH's preconditions), and what a
// 2xx write's answer means when it carries no whole engagement (reading back what it named,
// or searching for a create the answer did not name).
import { l10n } from '../core/l10n';
import { validateName, validatePageRequest, validateStatus, validateType } from '../core/validation';
import type { ApiClient } from './client';
import type { Endpoint } from './errors';
import { ApiError, isApiError } from './errors';
import type { PagedResult } from './paging';
import { pageQuery } from './pageLinks';
import { fetchAllPages } from './paging';
import type { ListedField, UnlistedRow, UnreadFields, WriteAnswer } from './readings';
import {
  isListed,
  locatedId,
  parseEngagement,
  parseListedEngagement,
  readPage,
  rowKey,
  withoutUnlisted,
} from './readings';
import type {
  AcceptedWrite,
  CallOptions,
  EngagementChanges,
  NewEngagement,
  Page,
  PageRequest,
  WriteOutcome,
  WriteResult,
  WriteSource,
} from './types';
import type { Engagement } from '../core/engagement';

const ENDPOINTS = {
  list: { method: 'GET', path: '/engagements', scope: 'engagements:read' },
  get: { method: 'GET', path: '/engagements/{id}', scope: 'engagements:read' },
  create: { method: 'POST', path: '/engagements', scope: 'engagements:write' },
  update: { method: 'PATCH', path: '/engagements/{id}', scope: 'engagements:write' },
} as const satisfies Record<string, Endpoint>;

/**
 * The page sizes a whole-set read asks for, largest first. The contract leaves the list's
 * bounds open: a service may answer pages of 1,000 (10,000 engagements in 10 requests), clamp
 * the size to its own maximum (its answer says so, and the rest is asked in that size), or
 * refuse a size it does not allow (400/422): then the next one is asked, and remembered.
 */
const LIST_ALL_PAGE_SIZES = [1_000, 100, 25] as const;

/** How far back a create counts as "just made" when looking for one whose answer was lost. */
const RECENT_CREATE_WINDOW_MS = 10 * 60_000;

/**
 * How much earlier than its answer's `Date` (the service's clock, in whole seconds) an
 * accepted create's `createdAt` may be: the service may date it when it took the request.
 */
const ANSWER_DATE_SLACK_MS = 5_000;

const MARKER = 'id';

/** A single engagement's answer (a read), its unknown fields told to `unread`. */
function readEngagement(body: unknown, unread: UnreadFields): Engagement {
  return parseEngagement(body, '', unread);
}

/**
 * A write's answer as the engagement: it must hold the name and type (and what the write
 * changed), else it is a part of the engagement (an id, a pending body, the fields changed) and
 * the engagement is read back. A status left out of a create's answer is unknown, not a reason
 * to read it back: the service made it (json-server keeps a create as it was sent).
 */
function readWritten(needs: readonly ListedField[]) {
  return (body: unknown, unread: UnreadFields): Engagement => parseEngagement(body, '', unread, needs);
}

/** A 400 or 422 from the service (not a request refused before sending): it may not take the page size asked. */
function refusesPageSize(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'invalidRequest' && (error.status === 400 || error.status === 422);
}

export interface UpdateOptions extends CallOptions {
  /** The `updatedAt` the change is meant for: sent as a precondition, so a service that checks answers 412 if it moved. */
  expectedUpdatedAt?: string;
}

export class EngagementsApi {
  /** The validators the service last gave for each engagement's version, with that version's `updatedAt`. */
  private readonly validators = new Map<string, Validators>();

  constructor(
    private readonly client: ApiClient,
    /** Per base URL: where in LIST_ALL_PAGE_SIZES whole-set reads start, past the sizes the service refused. */
    private readonly listSizes = new Map<string, number>(),
  ) {}

  private get allSizeIndex(): number {
    return this.listSizes.get(this.client.baseUrl) ?? 0;
  }

  private set allSizeIndex(index: number) {
    this.listSizes.set(this.client.baseUrl, index);
  }

  /**
   * One page as the service answers it: its `page` and `pageSize` may differ from the request.
   * With `next` (what the page before named), that page: `page` is only its number here.
   */
  async list(request: PageRequest = {}, options: CallOptions = {}): Promise<Page<Engagement>> {
    return withoutUnlisted(await this.rows(request, options));
  }

  /** One page's rows, an `UnlistedRow` for each without a usable id (it counts for paging, and is never listed). */
  private async rows(
    { page = 1, pageSize = 25, next }: PageRequest,
    options: CallOptions,
  ): Promise<Page<Engagement | UnlistedRow>> {
    // The contract sets no bound on the list's page size: the service enforces its own.
    refuse(validatePageRequest(page, pageSize, Number.MAX_SAFE_INTEGER));
    return this.client.request(ENDPOINTS.list, {
      ...pageQuery({ page, pageSize }, next),
      signal: options.signal,
      parse: (body, unread, answer) =>
        readPage(body, { page, pageSize }, (item, path) => parseListedEngagement(item, path, unread), answer),
    });
  }

  /** Every engagement (or the first `limit`): the first page, then the rest concurrently (bounded), in the service's page size. */
  async listAll(
    options: CallOptions & {
      pageSize?: number;
      limit?: number;
      concurrency?: number;
      onProgress?: (loaded: number, total: number) => void;
    } = {},
  ): Promise<PagedResult<Engagement>> {
    const firstSize = options.pageSize ?? LIST_ALL_PAGE_SIZES[this.allSizeIndex];
    let refused = 0;
    const fetchPage = async (
      page: number,
      size: number,
      signal?: AbortSignal,
    ): Promise<Page<Engagement | UnlistedRow>> => {
      if (page !== 1 || options.pageSize !== undefined) return this.rows({ page, pageSize: size }, { signal });
      // The first page tells which size the service takes: a refused size is asked again smaller.
      for (;;) {
        const asked = LIST_ALL_PAGE_SIZES[this.allSizeIndex];
        try {
          return await this.rows({ page, pageSize: asked }, { signal });
        } catch (error) {
          if (!refusesPageSize(error) || this.allSizeIndex >= LIST_ALL_PAGE_SIZES.length - 1) throw error;
          this.allSizeIndex++;
          refused++;
        }
      }
    };
    const result = await fetchAllPages(fetchPage, {
      followNext: (next, page, signal) => this.rows({ page, pageSize: firstSize, next }, { signal }),
      pageSize: firstSize,
      concurrency: options.concurrency ?? this.client.concurrency,
      limit: options.limit,
      signal: options.signal,
      onProgress: options.onProgress,
      idOf: rowKey,
    });
    const items = result.items.filter(isListed);
    const skipped = result.items.length - items.length;
    return { ...result, items, requests: result.requests + refused, ...(skipped ? { skipped } : {}) };
  }

  async get(id: string, options: CallOptions = {}): Promise<Engagement> {
    const answer = await this.client.send(ENDPOINTS.get, {
      params: { id },
      signal: options.signal,
      parse: readEngagement,
      marker: MARKER,
    });
    if (!answer.resource) {
      throw new ApiError(
        'badResponse',
        `The service answered GET ${ENDPOINTS.get.path} in a form this extension does not understand; details are in the log.`,
        { endpoint: ENDPOINTS.get, detail: answer.unreadable },
      );
    }
    this.remember(answer.resource, answer);
    return answer.resource;
  }

  /**
   * Never retried automatically: a create must not be sent twice. Any 2xx is a success; when
   * the answer carries no whole engagement it is read back: the one it names (its `Location`,
   * only on this environment's own base URL, or the id in its body) with one GET, else the
   * newest engagement with the name and type sent. A 202 whose engagement cannot be read yet
   * is accepted, not failed: the outcome says what to look for again.
   */
  async create(input: NewEngagement, options: CallOptions = {}): Promise<WriteOutcome> {
    const body = createBody(input);
    const sentAt = Date.now();
    const answer = await this.client.send(ENDPOINTS.create, {
      json: body,
      signal: options.signal,
      parse: readWritten(['name', 'type']),
      marker: MARKER,
    });
    const located = locatedId(answer.location, this.client.baseUrl, 'engagements');
    const id = located ?? answer.namedId;
    const named = located !== undefined ? 'location' : 'named';
    // Made after the service answered (by its clock, when it says the time), else lately.
    const answeredAt = Date.parse(answer.date ?? '');
    const createdFrom = Number.isFinite(answeredAt)
      ? answeredAt - ANSWER_DATE_SLACK_MS
      : sentAt - RECENT_CREATE_WINDOW_MS;
    const accepted: AcceptedWrite = { pending: 'create', input: body, sentAt, createdFrom };
    if (id !== undefined) Object.assign(accepted, { id, named });
    return this.settle(answer, accepted, async () => {
      if (id !== undefined) return { engagement: await this.get(id), source: named };
      // After a 202 the engagement may not be there yet: an older one with the same name is not it.
      const from = answer.status === 202 ? createdFrom : Number.NEGATIVE_INFINITY;
      const found = await this.searchCreated(body, from, options);
      return found ? { engagement: found, source: 'search' } : undefined;
    });
  }

  /** PATCH with only the given fields. `type` is not part of the body's type and is never sent. */
  async update(id: string, changes: EngagementChanges, options: UpdateOptions = {}): Promise<WriteOutcome> {
    const body = updateBody(changes);
    const sentAt = Date.now();
    const answer = await this.client.send(ENDPOINTS.update, {
      params: { id },
      json: body,
      signal: options.signal,
      headers: preconditions(this.validators.get(id), options.expectedUpdatedAt),
      parse: readWritten(body.status === undefined ? ['name', 'type'] : ['name', 'type', 'status']),
      marker: MARKER,
    });
    return this.settle(
      answer,
      { pending: 'update', id, changes: body, sentAt },
      async () => ({ engagement: await this.get(id), source: 'reread' }),
      (engagement) => holdsChanges(engagement, body),
    );
  }

  /**
   * One look for a write the service accepted (202) and did not show yet: the engagement named
   * (a 404 means not yet), the newest one created since with the name and type sent when
   * nothing was named, or the updated one once it holds every field sent. Undefined: not yet.
   */
  async findAccepted(write: AcceptedWrite, options: CallOptions = {}): Promise<WriteResult | undefined> {
    if (write.pending === 'update') {
      const engagement = await this.getIfThere(write.id, options);
      return engagement && holdsChanges(engagement, write.changes)
        ? { engagement, source: 'reread', accepted: true }
        : undefined;
    }
    if (write.id !== undefined) {
      const engagement = await this.getIfThere(write.id, options);
      return engagement && { engagement, source: write.named ?? 'named', accepted: true };
    }
    const found = await this.searchCreated(write.input, write.createdFrom, options);
    return found && { engagement: found, source: 'search', accepted: true };
  }

  /** The engagement, or undefined when the service answers 404 (it has not made it yet). */
  private async getIfThere(id: string, options: CallOptions): Promise<Engagement | undefined> {
    try {
      return await this.get(id, options);
    } catch (error) {
      if (isApiError(error) && error.kind === 'notFound') return undefined;
      throw error;
    }
  }

  /**
   * After a create whose outcome is unknown (or that answered with nothing): the engagement
   * with the name and type sent, newest first; with `since`, only one created after it
   * (less a margin for clocks that disagree).
   */
  async findCreated(
    input: NewEngagement,
    since: number | undefined,
    options: CallOptions = {},
  ): Promise<Engagement | undefined> {
    const from = since === undefined ? Number.NEGATIVE_INFINITY : since - RECENT_CREATE_WINDOW_MS;
    return this.searchCreated(createBody(input), from, options, input);
  }

  /** The newest engagement with the POST body's name, type and description, created at `from` or later. */
  private searchCreated(body: NewEngagement, from: number, options: CallOptions, search: object = body) {
    const reads = {
      all: (signal?: AbortSignal) => this.listAll({ signal }),
      first: (signal?: AbortSignal) => this.list({ page: 1, pageSize: 1 }, { signal }),
    };
    return lookForCreated(search, reads, (e) => isCreated(e, body, from), options.signal);
  }

  /** After an update whose outcome is unknown: the engagement now, and whether it holds every field sent. */
  async checkUpdate(
    id: string,
    changes: EngagementChanges,
    options: CallOptions = {},
  ): Promise<{ engagement: Engagement; applied: boolean }> {
    const body = updateBody(changes);
    const engagement = await this.get(id, options);
    return { engagement, applied: holdsChanges(engagement, body) };
  }

  /** See `settleWrite`; a whole engagement in the answer is remembered with its validator. */
  private settle(
    answer: WriteAnswer<Engagement>,
    accepted: AcceptedWrite,
    readBack: () => Promise<{ engagement: Engagement; source: WriteSource } | undefined>,
    holds?: (engagement: Engagement) => boolean,
  ): Promise<WriteOutcome> {
    if (answer.resource) this.remember(answer.resource, answer);
    return settleWrite(answer, accepted, readBack, holds);
  }

  private remember(engagement: Engagement, answer: { etag?: string; lastModified?: string }): void {
    // A validator is sent only for the version it came with, known by its `updatedAt`.
    const { etag } = answer;
    const lastModified =
      answer.lastModified && Number.isFinite(Date.parse(answer.lastModified)) ? answer.lastModified : undefined;
    if ((etag || lastModified) && engagement.updatedAt !== undefined)
      this.validators.set(engagement.id, { etag, lastModified, updatedAt: engagement.updatedAt });
    else this.validators.delete(engagement.id);
  }
}

/**
 * Whether an engagement is the one a create sent (`body`, the POST body as `createBody` made
 * it): the same name, type and description, created at `from` (ms since epoch) or later.
 */
export function isCreated(engagement: Engagement, body: NewEngagement, from: number): boolean {
  return (
    engagement.name === body.name &&
    engagement.type === body.type &&
    (body.description ?? '') === (engagement.description ?? '') &&
    // Without its creation time, an engagement counts only where any age does (not after a 202).
    (engagement.createdAt === undefined ? from === Number.NEGATIVE_INFINITY : Date.parse(engagement.createdAt) >= from)
  );
}

/** Whether an engagement holds every field of a PATCH body. */
export function holdsChanges(engagement: Engagement, body: EngagementChanges): boolean {
  return Object.entries(body).every(([field, value]) => (engagement[field] ?? '') === value);
}

// What a write sends: the POST and PATCH bodies (checked here as the service would check
// them, so a refused input is said before anything is sent) and a PATCH's preconditions.
/** Throws an `invalidRequest` with the message (for the field, when named); nothing when there is none. */
function refuse(message: string | undefined, field?: string): void {
  if (message) throw new ApiError('invalidRequest', message, { fieldErrors: field ? { [field]: message } : undefined });
}

/** The POST body: trimmed name and type, a description only when there is one. */
export function createBody(input: NewEngagement): NewEngagement {
  refuse(validateName(input.name), 'name');
  refuse(validateType(input.type), 'type');
  const body: NewEngagement = { name: input.name.trim(), type: input.type.trim() };
  if (input.description !== undefined && input.description.trim() !== '') body.description = input.description.trim();
  return body;
}

/** The PATCH body: only the fields given, name and status trimmed. */
export function updateBody(changes: EngagementChanges): EngagementChanges {
  const body: EngagementChanges = {};
  if (changes.name !== undefined) {
    refuse(validateName(changes.name), 'name');
    body.name = changes.name.trim();
  }
  if (changes.description !== undefined) body.description = changes.description;
  if (changes.status !== undefined) {
    refuse(validateStatus(changes.status), 'status');
    body.status = changes.status.trim();
  }
  if (Object.keys(body).length === 0)
    throw new ApiError('invalidRequest', l10n.t('Nothing to change: give a name, description or status.'));
  return body;
}

/** What the service sent to tell one version of an engagement: its `ETag`, its `Last-Modified`, or both. */
interface Validators {
  etag?: string;
  lastModified?: string;
  /** The version they came with. */
  updatedAt: string;
}

/**
 * A PATCH's precondition, only in the form the service showed it understands, and only for
 * the version the change is meant for: `If-Match` with the ETag it sent, else
 * `If-Unmodified-Since` with the Last-Modified it sent, as it sent it (its own clock and
 * precision, for its own comparison; an `updatedAt` it may not date its versions by could
 * refuse a current one or pass a changed one). None when it sent neither: a header it never
 * asked for is one more a browser's CORS preflight must allow, and it would be ignored. The
 * flows read the engagement right before a PATCH and compare `updatedAt` in any case.
 */
function preconditions(
  known: Validators | undefined,
  expectedUpdatedAt: string | undefined,
): Record<string, string> | undefined {
  if (expectedUpdatedAt === undefined || known?.updatedAt !== expectedUpdatedAt) return undefined;
  // A service honours If-Match first and ignores If-Unmodified-Since beside it (RFC 9110, 13.2.2).
  if (known.etag) return { 'If-Match': known.etag };
  if (known.lastModified) return { 'If-Unmodified-Since': known.lastModified };
  return undefined;
}

// What a 2xx write's answer means when it carries no whole engagement: reading back what it
// named (or searching for a create), and telling a write made, accepted for later (202) or
// not made after all.
/**
 * The result of a 2xx write: what it answered, or what reading back found. After a 202
 * (accepted for processing) a read-back that finds nothing, or finds the change not made yet,
 * or fails (a 404: it is not there yet) is `accepted`: to be looked for again. Otherwise a
 * read-back that shows the change was not made (nothing matching a create; a PATCH's fields
 * not there) is a failure with nothing applied.
 */
async function settleWrite(
  answer: WriteAnswer<Engagement>,
  accepted: AcceptedWrite,
  readBack: () => Promise<{ engagement: Engagement; source: WriteSource } | undefined>,
  holds: (engagement: Engagement) => boolean = () => true,
): Promise<WriteOutcome> {
  if (answer.resource) return { engagement: answer.resource, source: 'answer', accepted: answer.status === 202 };
  if (answer.status === 202) {
    const found = await readBack().catch((error: unknown) => {
      if (isApiError(error) && error.kind === 'cancelled') throw error;
      return undefined;
    });
    return found && holds(found.engagement) ? { ...found, accepted: true } : accepted;
  }
  let found: { engagement: Engagement; source: WriteSource } | undefined;
  try {
    found = await readBack();
  } catch (error) {
    throw new ApiError(
      'badResponse',
      'The service answered that the change was made, but reading the result back failed.',
      {
        endpoint: error instanceof ApiError ? error.endpoint : undefined,
        detail: `${answer.unreadable ?? 'no body'}; reading back: ${error instanceof Error ? error.message : String(error)}`,
        writeOutcome: 'applied',
        cause: error,
      },
    );
  }
  if (!found || !holds(found.engagement)) {
    throw new ApiError(
      'badResponse',
      'The service answered that the change was made, but reading it back shows it was not.',
      {
        status: answer.status,
        detail: `HTTP ${answer.status} with ${answer.unreadable ?? 'no body'}; ${found ? 'the engagement read back does not hold the change' : 'no engagement with the name and type sent was found'}`,
      },
    );
  }
  return { ...found, accepted: false };
}

// Looking again and again for an engagement a create made when its answer did not name it (a
// 202 with no id or `Location`, or a create whose outcome is unknown). Only the whole list can
// show it, and a look comes every few seconds for up to a minute; 10,000 engagements are 10 to
// 100 pages a look. The contract has no delete, so a list whose total has not grown since the
// last whole read holds nothing new: a later look reads one item of the first page for its
// total, and reads every page again only when the total changed.
interface CreatedSearchReads {
  /** Every engagement. */
  all(signal?: AbortSignal): Promise<PagedResult<Engagement>>;
  /** The first page, for its total. */
  first(signal?: AbortSignal): Promise<Page<Engagement>>;
}

/**
 * The total of each search's last whole read, by the search (the create's body), kept only when
 * the service's total proved true: it counted exactly the engagements that read found.
 */
const lastTotals = new WeakMap<object, number>();

/**
 * One look of the search `search` (the same object on every look of it): the newest engagement
 * of the whole list that `matches`, or undefined when there is none (without reading the whole
 * list when its total says nothing was added since the last look).
 */
async function lookForCreated(
  search: object,
  reads: CreatedSearchReads,
  matches: (engagement: Engagement) => boolean,
  signal?: AbortSignal,
): Promise<Engagement | undefined> {
  const known = lastTotals.get(search);
  if (known !== undefined && (await totalNow(reads, signal)) === known) return undefined;
  const all = await reads.all(signal);
  if (!all.stop && all.totalCount === all.items.length) lastTotals.set(search, all.totalCount);
  else lastTotals.delete(search);
  return newest(all.items.filter(matches));
}

/** The one created last; of those created at the same time, the first in the service's order. */
function newest(engagements: readonly Engagement[]): Engagement | undefined {
  const at = (e: Engagement) => Date.parse(e.createdAt ?? '');
  return engagements.reduce<Engagement | undefined>((a, b) => (a && !(at(b) > at(a)) ? a : b), undefined);
}

/** The list's total as the service states it; undefined when it states none or the read failed. */
async function totalNow(reads: CreatedSearchReads, signal: AbortSignal | undefined): Promise<number | undefined> {
  try {
    const page = await reads.first(signal);
    return page.totalEstimated ? undefined : page.totalCount;
  } catch (error) {
    // Cancelled: the look ends. Anything else: the whole read decides, and says what failed.
    if (signal?.aborted || (isApiError(error) && error.kind === 'cancelled')) throw error;
    return undefined;
  }
}

// What an update really changes: only fields whose value differs from what is shown go into
// the PATCH. `type` is not a field of EngagementChanges, so it can never be sent.
export function changedFields(
  current: Pick<Engagement, 'name' | 'description' | 'status'>,
  wanted: EngagementChanges,
): EngagementChanges {
  const changes: EngagementChanges = {};
  if (wanted.name !== undefined && wanted.name.trim() !== current.name?.trim()) changes.name = wanted.name.trim();
  if (wanted.description !== undefined && wanted.description.trim() !== (current.description ?? '').trim())
    changes.description = wanted.description.trim();
  // An unknown status (the service sent none readably) is changed by any status given.
  if (wanted.status !== undefined && wanted.status.trim() !== current.status?.trim())
    changes.status = wanted.status.trim();
  return changes;
}

export function hasChanges(changes: EngagementChanges): boolean {
  return changes.name !== undefined || changes.description !== undefined || changes.status !== undefined;
}

/** Fields whose values differ between two versions of an engagement (for "changed meanwhile"). */
export function differingFields(a: Engagement, b: Engagement): string[] {
  const fields = ['name', 'description', 'status', 'type', 'evaluationCount'] as const;
  return fields.filter((f) => (a[f] ?? '') !== (b[f] ?? ''));
}
