// The seven endpoints. Each handler gets the parsed request and the store and returns a Reply;
// authentication and scopes are checked before a handler runs (see routes.ts).
import type { EngagementChangesInput } from './store';
import type { ServiceStore } from './store';
import type { RequestInput } from './params';
import type { Reply } from './replies';
import { fieldErrors, json, notFound } from './replies';
import { parseBillingPeriod, parseJsonObject, parsePaging, slicePage } from './params';
import { ENGAGEMENT_STATUSES } from './types';

export interface HandlerInput extends RequestInput {
  store: ServiceStore;
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
  rules: { required?: boolean; nonEmpty?: boolean },
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
  return value;
}

export const listEngagements: Handler = ({ query, store }) => {
  const paging = parsePaging(query);
  if (!paging.ok) return paging.reply;
  const all = store.engagements;
  return json(200, { data: slicePage(all, paging.value), ...paging.value, totalCount: all.length });
};

export const getEngagement: Handler = ({ store, id = '' }) => {
  const engagement = store.getEngagement(id);
  return engagement ? json(200, engagement) : notFound(`No engagement with id ${JSON.stringify(id)}`);
};

export const createEngagement: Handler = (input) => {
  const parsed = parseJsonObject(input);
  if (!parsed.ok) return parsed.reply;
  const body = parsed.value;
  const errors: Record<string, string> = {};
  for (const field of Object.keys(body)) {
    if (!['name', 'type', 'description'].includes(field)) errors[field] = unknownFieldMessage(field, 'create');
  }
  const name = stringField(body, 'name', errors, { required: true, nonEmpty: true });
  const type = stringField(body, 'type', errors, { required: true, nonEmpty: true });
  const description = stringField(body, 'description', errors, {});
  if (Object.keys(errors).length > 0 || name === undefined || type === undefined) {
    return fieldErrors(422, 'validation_failed', errors);
  }
  const created = input.store.createEngagement(description === undefined ? { name, type } : { name, type, description });
  return json(201, created, { Location: `/v1/engagements/${encodeURIComponent(created.id)}` });
};

export const updateEngagement: Handler = (input) => {
  const parsed = parseJsonObject(input);
  if (!parsed.ok) return parsed.reply;
  const id = input.id ?? '';
  if (!input.store.getEngagement(id)) return notFound(`No engagement with id ${JSON.stringify(id)}`);
  const body = parsed.value;
  const errors: Record<string, string> = {};
  for (const field of Object.keys(body)) {
    if (!['name', 'description', 'status'].includes(field)) errors[field] = unknownFieldMessage(field, 'update');
  }
  const changes: EngagementChangesInput = {};
  const name = stringField(body, 'name', errors, { nonEmpty: true });
  const description = stringField(body, 'description', errors, {});
  const status = stringField(body, 'status', errors, { nonEmpty: true });
  if (status !== undefined && !ENGAGEMENT_STATUSES.includes(status)) {
    errors.status = `status must be one of ${ENGAGEMENT_STATUSES.join(', ')}`;
  }
  if (Object.keys(errors).length > 0) return fieldErrors(422, 'validation_failed', errors);
  if (name !== undefined) changes.name = name;
  if (description !== undefined) changes.description = description;
  if (status !== undefined) changes.status = status;
  const updated = input.store.updateEngagement(id, changes);
  return updated ? json(200, updated) : notFound(`No engagement with id ${JSON.stringify(id)}`);
};

export const usageSummary: Handler = (input) => {
  const period = parseBillingPeriod(input);
  if (!period.ok) return period.reply;
  return json(200, input.store.summary(period.value));
};

export const usageDetails: Handler = (input) => {
  const period = parseBillingPeriod(input);
  if (!period.ok) return period.reply;
  const paging = parsePaging(input.query);
  if (!paging.ok) return paging.reply;
  const records = input.store.details(period.value);
  return json(200, { billingPeriod: period.value, data: slicePage(records, paging.value), ...paging.value, totalCount: records.length });
};

export const usageByKey: Handler = (input) => {
  const period = parseBillingPeriod(input);
  if (!period.ok) return period.reply;
  return json(200, { billingPeriod: period.value, keys: input.store.byKey(period.value) });
};
