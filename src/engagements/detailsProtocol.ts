// The messages between the engagement details panel's host and its webview, both ways, the
// checks the host applies to everything the webview sends, and the pure builder of what the
// panel shows. No `vscode`, no DOM.
import type { Engagement } from '../core/engagement';
import type { StatusLook } from '../core/engagementText';
import { evaluationCountText, extraFields, fieldText, nameText, statusLook } from '../core/engagementText';
import { absoluteTime, relativeTime } from '../core/format';
export { fillPlaceholders as fill } from '../core/l10n';

export const DETAILS_ACTIONS = ['edit', 'changeStatus', 'copyId', 'copyLink', 'refresh', 'openUsageDashboard'] as const;
export type DetailsAction = (typeof DETAILS_ACTIONS)[number];
/** Actions that change the engagement: hidden when the key is known to be read-only. */
const WRITE_ACTIONS: readonly DetailsAction[] = ['edit', 'changeStatus'];

interface DetailsField {
  label: string;
  value: string;
  /** Shown as code (ids, raw values of unknown fields). */
  code?: boolean;
  /** A second, quieter line: the relative time of a date. */
  note?: string;
}

/** What the panel shows. Every string is data inserted as text by the webview. */
export interface DetailsView {
  environment: string;
  id: string;
  name: string;
  status: { text: string; kind: StatusLook['kind'] };
  fields: DetailsField[];
  description?: string;
  /** Fields the contract does not name, as the service sent them. */
  extras: DetailsField[];
  /** When the engagement was read (`2026-11-23 14:03 UTC`). */
  readAt: string;
  actions: DetailsAction[];
  /** A read or an action is running. */
  busy: boolean;
  /** Why the last read failed (the shown data is the last good one). */
  error?: string;
  /** Why the actions are off (for example: another environment is active now). */
  notice?: string;
}

export type DetailsStringKey =
  | 'action.edit'
  | 'action.changeStatus'
  | 'action.copyId'
  | 'action.copyLink'
  | 'action.refresh'
  | 'action.openUsageDashboard'
  | 'description'
  | 'noDescription'
  | 'otherFields'
  | 'readAt'
  | 'readOnly'
  | 'busy'
  | 'fields'
  | 'actions'
  | 'wholeName'
  | 'shortName';
export type DetailsStrings = Record<DetailsStringKey, string>;

export type DetailsHostMessage = { type: 'init'; strings: DetailsStrings } | { type: 'show'; view: DetailsView };
export type DetailsWebviewMessage =
  { type: 'ready' } | { type: 'action'; action: DetailsAction } | { type: 'webviewError'; message: string };

/** Reads a message from the webview: anything that is not exactly one of the protocol gives undefined. */
export function parseDetailsMessage(value: unknown): DetailsWebviewMessage | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const raw = value as Record<string, unknown>;
  switch (raw.type) {
    case 'ready':
      return { type: 'ready' };
    case 'action':
      return typeof raw.action === 'string' && (DETAILS_ACTIONS as readonly string[]).includes(raw.action)
        ? { type: 'action', action: raw.action as DetailsAction }
        : undefined;
    case 'webviewError':
      return typeof raw.message === 'string' ? { type: 'webviewError', message: raw.message.slice(0, 500) } : undefined;
    default:
      return undefined;
  }
}

export interface DetailsWords {
  id: string;
  type: string;
  status: string;
  evaluations: string;
  created: string;
  updated: string;
}

/** Every contract field (dates absolute and relative) and every extra field the service sent. */
export function detailsView(
  engagement: Engagement,
  options: {
    environment: string;
    words: DetailsWords;
    readAt: number;
    now?: number;
    canWrite: boolean;
    busy?: boolean;
    error?: string;
    notice?: string;
  },
): DetailsView {
  const now = options.now ?? Date.now();
  const w = options.words;
  const look = statusLook(engagement.status);
  const date = (label: string, iso: string | undefined): DetailsField => ({
    label,
    value: absoluteTime(iso),
    note: iso === undefined ? undefined : relativeTime(iso, now),
  });
  const acting = options.notice === undefined;
  return {
    environment: options.environment,
    id: engagement.id,
    name: nameText(engagement),
    status: { text: look.text, kind: look.kind },
    fields: [
      { label: w.id, value: engagement.id, code: true },
      { label: w.type, value: fieldText(engagement.type) },
      { label: w.status, value: look.text },
      { label: w.evaluations, value: evaluationCountText(engagement) },
      date(w.created, engagement.createdAt),
      date(w.updated, engagement.updatedAt),
    ],
    description: engagement.description?.trim() ? engagement.description : undefined,
    extras: extraFields(engagement).map(({ key, text }) => ({ label: key, value: text, code: true })),
    readAt: absoluteTime(new Date(options.readAt).toISOString()),
    actions: DETAILS_ACTIONS.filter((a) => (acting ? options.canWrite || !WRITE_ACTIONS.includes(a) : a === 'copyId')),
    busy: options.busy ?? false,
    error: options.error,
    notice: options.notice,
  };
}
