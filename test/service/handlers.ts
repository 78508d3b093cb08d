// The seven endpoints. Each handler gets the parsed request and the store and returns a Reply;
// authentication and scopes are checked before a handler runs (see routes.ts).
import type { EngagementChangesInput } from './store';
import type { ServiceStore } from './store';
import type { RequestInput } from './params';
import type { Reply } from './replies';
import { errorReply, fieldErrors, json, notFound } from './replies';
import { parseBillingPeriod, parseJsonObject, parsePaging, slicePage } from './params';
import { ENGAGEMENT_STATUSES, NAME_MAX_LENGTH } from './types';
import type { Engagement } from './types';
import type { Reading } from './readings';
import { acceptedDelay, createAnswer, listPageSizeMax, pageBody, pagingOf, single, updateAnswer } from './readings';

export interface HandlerInput extends RequestInput {
  store: ServiceStore;
  /** How this service fills in what the contract leaves open. */
  reading: Reading;
  /** Conditional request headers of a PATCH. */
  ifMatch?: string;
  ifUnmodifiedSince?: string;
  /** Path parameter (already URL-decoded), for /engagements/{id}. */
  id?: string;
}

export type Handler = (input: HandlerInput) => Reply;

const READ_ONLY = new Set(['id', 'evaluationCount', 'createdAt', 'updatedAt']);

function unknownFieldMessage(field: string, context: 'create' | 'update'): string {
  if (field === 'type' && context === 'update') return 'type cannot be changed after creation';
  if (field === 'status' && context === 'create') return 'status is set by the service on create';
  if (READ_ONLY.has(field)) return `${field} is read-only`;
  return `${field} is not a known field`;
}

/** Checks a string field; adds a message to `errors` and returns undefined when it is wrong. */
function stringField(
  body: Record<string, unknown>,
  field: string,
  errors: Record<string, string>,
  rules: { required?: boolean; nonEmpty?: boolean; maxLength?: number },
): string | undefined {
  const value = body[field];
  if (value === undefined) {
    if (rules.required) errors[field] = `${field} is required`;
    return undefined;
  }
  if (typeof value !== 'string') {
    errors[field] = `${field} must be a string`;
    return undefined;
  }
  if (rules.nonEmpty && value.trim() === '') {
    errors[field] = `${field} must not be empty`;
    return undefined;
  }
  if (rules.maxLength !== undefined && [...value].length > rules.maxLength) {
    errors[field] = `${field} must have at most ${rules.maxLength} characters`;
    return undefined;
  }
  return value;
}

/** A strong validator of an engagement's current version. */
export function etagOf(engagement: Engagement): string {
  return `"${Buffer.from(`${engagement.id}@${engagement.updatedAt}`).toString('base64url')}"`;
}

/**
 * The validators of an engagement's version, sent with every answer that carries one: its
 * ETag (for If-Match) and its Last-Modified (for If-Unmodified-Since), both of which a PATCH
 * may send back and `preconditionFailed` honours.
 */
function validators(engagement: Engagement): Record<string, string> {
  return { ETag: etagOf(engagement), 'Last-Modified': new Date(engagement.updatedAt).toUTCString() };
}

export const listEngagements: Handler = ({ query, store, reading }) => {
  const paging = parsePaging(query, listPageSizeMax(reading));
  if (!paging.ok) return paging.reply;
  const all = store.engagements;
  const used = pagingOf(reading, paging.value, all.length);
  return json(200, pageBody(reading, { items: slicePage(all, used), ...used, total: all.length }, '/v1/engagements'));
};

export const getEngagement: Handler = ({ store, reading, id = '' }) => {
  const engagement = store.getEngagement(id);
  return engagement
    ? json(200, single(reading, engagement), validators(engagement))
    : notFound(`No engagement with id ${JSON.stringify(id)}`);
};

/** 412 when a PATCH's If-Match or If-Unmodified-Since no longer holds (someone changed it meanwhile). */
function preconditionFailed(input: HandlerInput, current: Engagement): Reply | undefined {
  const { ifMatch, ifUnmodifiedSince } = input;
  const stale = () =>
    errorReply(
      412,
      'precondition_failed',
      'The engagement was changed since you read it',
      undefined,
      validators(current),
    );
  if (ifMatch !== undefined) {
    const tags = ifMatch.split(',').map((t) => t.trim());
    if (!tags.includes('*') && !tags.includes(etagOf(current))) return stale();
  } else if (ifUnmodifiedSince !== undefined) {
    const since = Date.parse(ifUnmodifiedSince);
    // HTTP dates have whole seconds: compare at that precision.
    if (Number.isFinite(since) && Math.floor(Date.parse(current.updatedAt) / 1000) > Math.floor(since / 1000))
      return stale();
  }
  return undefined;
}

export const createEngagement: Handler = (input) => {
  const parsed = parseJsonObject(input);
  if (!parsed.ok) return parsed.reply;
  const body = parsed.value;
  const errors: Record<string, string> = {};
  for (const field of Object.keys(body)) {
    if (!['name', 'type', 'description'].includes(field)) errors[field] = unknownFieldMessage(field, 'create');
  }
  const name = stringField(body, 'name', errors, { required: true, nonEmpty: true, maxLength: NAME_MAX_LENGTH });
  const type = stringField(body, 'type', errors, { required: true, nonEmpty: true });
  const description = stringField(body, 'description', errors, {});
  if (Object.keys(errors).length > 0 || name === undefined || type === undefined) {
    return fieldErrors(422, 'validation_failed', errors);
  }
  // An accepted write with a delay: the engagement is made (and listed) only later.
  const delay = acceptedDelay(input.reading);
  const created = input.store.createEngagement(
    description === undefined ? { name, type } : { name, type, description },
    delay,
  );
  const answer = createAnswer(input.reading, created, `/v1/engagements/${encodeURIComponent(created.id)}`);
  return delay ? answer : { ...answer, headers: { ...answer.headers, ...validators(created) } };
};

export const updateEngagement: Handler = (input) => {
  const parsed = parseJsonObject(input);
  if (!parsed.ok) return parsed.reply;
  const id = input.id ?? '';
  const current = input.store.getEngagement(id);
  if (!current) return notFound(`No engagement with id ${JSON.stringify(id)}`);
  const precondition = preconditionFailed(input, current);
  if (precondition) return precondition;
  const body = parsed.value;
  const errors: Record<string, string> = {};
  for (const field of Object.keys(body)) {
    if (!['name', 'description', 'status'].includes(field)) errors[field] = unknownFieldMessage(field, 'update');
  }
  const changes: EngagementChangesInput = {};
  const name = stringField(body, 'name', errors, { nonEmpty: true, maxLength: NAME_MAX_LENGTH });
  const description = stringField(body, 'description', errors, {});
  const status = stringField(body, 'status', errors, { nonEmpty: true });
  if (status !== undefined && !ENGAGEMENT_STATUSES.includes(status)) {
    errors.status = `status must be one of ${ENGAGEMENT_STATUSES.join(', ')}`;
  }
  if (Object.keys(errors).length > 0) return fieldErrors(422, 'validation_failed', errors);
  if (name !== undefined) changes.name = name;
  if (description !== undefined) changes.description = description;
  if (status !== undefined) changes.status = status;
  const delay = acceptedDelay(input.reading);
  if (delay) {
    // Accepted: the fields change only later; until then reads show the engagement as it was.
    input.store.defer(delay, () => input.store.updateEngagement(id, changes));
    return updateAnswer(input.reading, current);
  }
  const updated = input.store.updateEngagement(id, changes);
  if (!updated) return notFound(`No engagement with id ${JSON.stringify(id)}`);
  const answer = updateAnswer(input.reading, updated);
  return { ...answer, headers: { ...answer.headers, ...validators(updated) } };
};

export const usageSummary: Handler = (input) => {
  const period = parseBillingPeriod(input);
  if (!period.ok) return period.reply;
  if (!input.store.knowsPeriod(period.value))
    return notFound(`No usage for ${period.value}: the account did not exist yet`);
  return json(200, single(input.reading, input.store.summary(period.value)));
};

export const usageDetails: Handler = (input) => {
  const period = parseBillingPeriod(input);
  if (!period.ok) return period.reply;
  const paging = parsePaging(input.query);
  if (!paging.ok) return paging.reply;
  const records = input.store.details(period.value);
  const used = pagingOf(input.reading, paging.value, records.length);
  return json(
    200,
    pageBody(input.reading, { items: slicePage(records, used), ...used, total: records.length }, '/v1/usage/details', {
      billingPeriod: period.value,
    }),
  );
};

export const usageByKey: Handler = (input) => {
  const period = parseBillingPeriod(input);
  if (!period.ok) return period.reply;
  return json(200, single(input.reading, { billingPeriod: period.value, keys: input.store.byKey(period.value) }));
};
