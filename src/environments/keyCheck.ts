import { isApiError } from '../api/errors';
import type { ServiceApi } from '../api/service';
import { l10n } from '../core/l10n';
import type { Capabilities } from '../session/model';

export type KeyCheck =
  | { outcome: 'accepted'; capabilities: Capabilities }
  /** A 401; `error` carries the service's reason, when it gave one. */
  | { outcome: 'rejected'; message: string; error: unknown }
  /** The service pointed elsewhere; `error` says where (the key was not sent there). */
  | { outcome: 'redirected'; error: unknown }
  /** No answer from either read; `error` is the first failure. */
  | { outcome: 'unreachable'; error: unknown };

/**
 * Asks the service what a key may do, before it is saved: one engagement (engagements:read)
 * and the usage summary (usage:read), in parallel. A 401 on either means the key is
 * rejected; a 403 tells a missing scope; no answer at all means the service is unreachable.
 * Write permission cannot be probed without writing: it stays unknown until a write answers.
 */
export async function checkKey(api: ServiceApi, signal?: AbortSignal): Promise<KeyCheck> {
  const [engagements, usage] = await Promise.allSettled([
    api.engagements.list({ page: 1, pageSize: 1 }, { signal }),
    api.usage.summary(undefined, { signal }),
  ]);
  const errors = [engagements, usage].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  const rejected = errors.find((e) => isApiError(e) && e.kind === 'unauthorized');
  if (rejected)
    return {
      outcome: 'rejected',
      message: l10n.t('The service rejected this key (401). Check it and enter it again.'),
      error: rejected,
    };
  const redirect = errors.find((e) => isApiError(e) && e.kind === 'redirected');
  if (redirect) return { outcome: 'redirected', error: redirect };
  const answered = (r: PromiseSettledResult<unknown>) =>
    r.status === 'fulfilled' ||
    (isApiError(r.reason) &&
      (r.reason.kind === 'forbidden' || r.reason.kind === 'invalidRequest' || r.reason.kind === 'notFound'));
  if (!answered(engagements) && !answered(usage)) {
    return { outcome: 'unreachable', error: errors[0] };
  }
  const learned = (r: PromiseSettledResult<unknown>): boolean | undefined =>
    r.status === 'fulfilled' ? true : isApiError(r.reason) && r.reason.kind === 'forbidden' ? false : undefined;
  return { outcome: 'accepted', capabilities: { read: learned(engagements), usage: learned(usage) } };
}
