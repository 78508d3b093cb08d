// What several suites make alike: a client that keeps every request's log entry, and the words
// the details view is given in English.
import type { RequestLog } from '../../../src/api/client';
import { ServiceApi } from '../../../src/api/service';

/** A client of `baseUrl` with `key` and a 5 s timeout; `logged` holds every request's log entry, as the extension's log receives it. */
export function loggingClient(baseUrl: string, key: string): { api: ServiceApi; logged: RequestLog[] } {
  const logged: RequestLog[] = [];
  const api = new ServiceApi({ baseUrl, getKey: () => key, timeoutMs: 5000, onRequest: (entry) => logged.push(entry) });
  return { api, logged };
}

/** The details view's labels, as the extension hands them over in English. */
export const DETAILS_WORDS = {
  id: 'ID',
  type: 'Type',
  status: 'Status',
  evaluations: 'Evaluations',
  created: 'Created',
  updated: 'Updated',
};
