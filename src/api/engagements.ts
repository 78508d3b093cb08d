import type { ApiClient } from './client';
import { ApiError, type Endpoint } from './errors';
import { fetchAllPages } from './paging';
import type { CallOptions, Engagement, EngagementChanges, NewEngagement, Page, PageRequest } from './types';
import { parseEngagement, parseEngagementPage } from './validate';
import { validateDescription, validateName, validatePageRequest, validateStatus, validateType } from '../core/validation';

export const ENDPOINTS = {
  list: { method: 'GET', path: '/engagements', scope: 'engagements:read' },
  get: { method: 'GET', path: '/engagements/{id}', scope: 'engagements:read' },
  create: { method: 'POST', path: '/engagements', scope: 'engagements:write' },
  update: { method: 'PATCH', path: '/engagements/{id}', scope: 'engagements:write' },
} as const satisfies Record<string, Endpoint>;

/** The contract leaves the engagement list's page bounds open; 100 matches the usage list. */
export const MAX_ENGAGEMENT_PAGE_SIZE = 100;

function refuse(message: string | undefined, field?: string): void {
  if (message) throw new ApiError('invalidRequest', message, { fieldErrors: field ? { [field]: message } : undefined });
}

export class EngagementsApi {
  constructor(private readonly client: ApiClient) {}

  async list({ page = 1, pageSize = 25 }: PageRequest = {}, options: CallOptions = {}): Promise<Page<Engagement>> {
    refuse(validatePageRequest(page, pageSize, MAX_ENGAGEMENT_PAGE_SIZE));
    return this.client.request(ENDPOINTS.list, { query: { page, pageSize }, signal: options.signal, parse: parseEngagementPage });
  }

  /** Every engagement: the first page, then the rest concurrently (bounded). */
  async listAll(options: CallOptions & { pageSize?: number; onProgress?: (loaded: number, total: number) => void } = {}): Promise<{ items: Engagement[]; totalCount: number; requests: number }> {
    const pageSize = options.pageSize ?? MAX_ENGAGEMENT_PAGE_SIZE;
    return fetchAllPages((page, size, signal) => this.list({ page, pageSize: size }, { signal }), {
      pageSize,
      concurrency: this.client.concurrency,
      signal: options.signal,
      onProgress: options.onProgress,
      idOf: (engagement) => engagement.id,
    });
  }

  async get(id: string, options: CallOptions = {}): Promise<Engagement> {
    return this.client.request(ENDPOINTS.get, { params: { id }, signal: options.signal, parse: (body) => parseEngagement(body) });
  }

  /** Never retried automatically: a create must not be sent twice. */
  async create(input: NewEngagement, options: CallOptions = {}): Promise<Engagement> {
    refuse(validateName(input.name), 'name');
    refuse(validateType(input.type), 'type');
    const body: NewEngagement = { name: input.name.trim(), type: input.type.trim() };
    if (input.description !== undefined && input.description.trim() !== '') {
      refuse(validateDescription(input.description), 'description');
      body.description = input.description.trim();
    }
    return this.client.request(ENDPOINTS.create, { json: body, signal: options.signal, parse: (value) => parseEngagement(value) });
  }

  /** PATCH with only the given fields. `type` is not part of the body's type and is never sent. */
  async update(id: string, changes: EngagementChanges, options: CallOptions = {}): Promise<Engagement> {
    const body: EngagementChanges = {};
    if (changes.name !== undefined) {
      refuse(validateName(changes.name), 'name');
      body.name = changes.name.trim();
    }
    if (changes.description !== undefined) {
      refuse(validateDescription(changes.description), 'description');
      body.description = changes.description;
    }
    if (changes.status !== undefined) {
      refuse(validateStatus(changes.status), 'status');
      body.status = changes.status.trim();
    }
    if (Object.keys(body).length === 0) throw new ApiError('invalidRequest', 'Nothing to change: give a name, description or status.');
    return this.client.request(ENDPOINTS.update, { params: { id }, json: body, signal: options.signal, parse: (value) => parseEngagement(value) });
  }
}
