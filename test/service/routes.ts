// Path + method → handler and required scope. Paths are matched on the raw (still encoded)
// path after `/v1`, so an id containing an encoded "/" stays one segment.
import type { Handler } from './handlers';
import type { Scope } from './types';
import {
  createEngagement,
  getEngagement,
  listEngagements,
  updateEngagement,
  usageByKey,
  usageDetails,
  usageSummary,
} from './handlers';

export interface Endpoint {
  scope: Scope;
  handler: Handler;
}

interface Route {
  template: string;
  pattern: RegExp;
  methods: Record<string, Endpoint>;
}

const ROUTES: readonly Route[] = [
  {
    template: '/engagements',
    pattern: /^\/engagements$/,
    methods: {
      GET: { scope: 'engagements:read', handler: listEngagements },
      POST: { scope: 'engagements:write', handler: createEngagement },
    },
  },
  {
    template: '/engagements/{id}',
    pattern: /^\/engagements\/([^/]+)$/,
    methods: {
      GET: { scope: 'engagements:read', handler: getEngagement },
      PATCH: { scope: 'engagements:write', handler: updateEngagement },
    },
  },
  {
    template: '/usage/summary',
    pattern: /^\/usage\/summary$/,
    methods: { GET: { scope: 'usage:read', handler: usageSummary } },
  },
  {
    template: '/usage/details',
    pattern: /^\/usage\/details$/,
    methods: { GET: { scope: 'usage:read', handler: usageDetails } },
  },
  {
    template: '/usage/by-key',
    pattern: /^\/usage\/by-key$/,
    methods: { GET: { scope: 'usage:read', handler: usageByKey } },
  },
];

export type Resolution =
  | { kind: 'found'; endpoint: Endpoint; id?: string }
  | { kind: 'notFound' }
  | { kind: 'methodNotAllowed'; allow: string[] };

/** `path` is the raw path after `/v1` (e.g. "/engagements/eng_1"), or undefined outside /v1. */
export function resolve(method: string, path: string | undefined): Resolution {
  if (path === undefined) return { kind: 'notFound' };
  for (const route of ROUTES) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    const endpoint = Object.hasOwn(route.methods, method) ? route.methods[method] : undefined;
    if (!endpoint) return { kind: 'methodNotAllowed', allow: Object.keys(route.methods) };
    if (match[1] === undefined) return { kind: 'found', endpoint };
    try {
      return { kind: 'found', endpoint, id: decodeURIComponent(match[1]) };
    } catch {
      return { kind: 'notFound' };
    }
  }
  return { kind: 'notFound' };
}

/** Every endpoint with its scope, e.g. { method: 'GET', path: '/usage/summary', scope: 'usage:read' }. */
export function endpointScopes(): { method: string; path: string; scope: Scope }[] {
  return ROUTES.flatMap((route) =>
    Object.entries(route.methods).map(([method, endpoint]) => ({
      method,
      path: route.template,
      scope: endpoint.scope,
    })),
  );
}
