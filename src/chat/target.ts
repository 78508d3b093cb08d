// Which environment a tool works on: the active one, or another of the user's own named by
// its label. Never a URL: a tool never adds an environment or sends a key anywhere new. A
// write goes where its confirmation said, with the key it was confirmed with, or nowhere:
// switching the active environment while the person reads the confirmation does not move it.
//
// VS Code's side of the agent tools (src/tools/host.ts): the user's environments, the tree's
// store for the active one (a whole set read for the tree or for a tool is read once while
// fresh), the dashboard's trend history, links that open an engagement, and the log.
import * as vscode from 'vscode';
import { describeError } from '../api/errorText';
import type { Environment } from '../session/model';
import { wholeSetMaxAge } from '../shared/staleness';
import { type Target, type ToolHost, ToolRefusal } from '../tools/host';
import type { ChatDeps, Confirmation } from './deps';
import { engagementLink } from './links';

const URL_LIKE = /^[a-z][a-z0-9+.-]*:|\/\/|^www\./i;

/** The environment a tool input names (or the active one), without reading anything. */
export function findEnvironment(deps: ChatDeps, named: unknown): Environment {
  const { environments, connection } = deps.services;
  if (named === undefined || named === null || (typeof named === 'string' && named.trim() === '')) {
    const active = connection.environment;
    if (!active)
      throw new ToolRefusal(
        vscode.l10n.t(
          'No environment is set up. Ask the user to add one with the command “Engagements: Add Environment…” (a label, the service URL and an API key).',
        ),
      );
    return active;
  }
  if (typeof named !== 'string' || named.length > 200)
    throw new ToolRefusal(vscode.l10n.t('Name an environment by its label.'));
  const label = named.trim();
  if (URL_LIKE.test(label))
    throw new ToolRefusal(
      vscode.l10n.t(
        'Environments are named by their label, never by a URL: a tool does not add environments or send a key anywhere new. Known environments: {0}.',
        labels(environments.list()),
      ),
    );
  const found =
    environments.list().find((e) => e.label === label) ??
    environments.list().find((e) => e.label.toLowerCase() === label.toLowerCase());
  if (!found)
    throw new ToolRefusal(
      vscode.l10n.t('There is no environment “{0}”. Known environments: {1}.', label, labels(environments.list())),
    );
  return found;
}

function labels(list: readonly Environment[]): string {
  return list.length ? list.map((e) => `“${e.label}”`).join(', ') : vscode.l10n.t('none');
}

function keyMissing(label: string): ToolRefusal {
  return new ToolRefusal(
    vscode.l10n.t(
      'The API key of “{0}” is not on this machine (keys never sync). Ask the user to run “Engagements: Replace API Key…”.',
      label,
    ),
  );
}

/** The environment and a client for it; refuses when its key is not on this machine. */
export async function resolveTarget(deps: ChatDeps, named: unknown): Promise<Target> {
  const env = findEnvironment(deps, named);
  const { connection, vault } = deps.services;
  const active = connection.environment?.id === env.id;
  if (!(await vault.usable(env))) throw keyMissing(env.label);
  const api = active ? connection.api : undefined;
  return { env, api: api ?? connection.createApi(env), active };
}

/** What a confirmation binds a write to: `env`, its address and the key it has now. */
export async function confirmationFor(
  deps: ChatDeps,
  env: Environment,
  versions: ReadonlyMap<string, string> = new Map(),
): Promise<Confirmation> {
  const key = await deps.services.vault.fingerprint(env);
  return { environmentId: env.id, label: env.label, baseUrl: env.baseUrl, key, versions };
}

/**
 * Where a confirmed write is sent: the environment its confirmation named, with the key it
 * had then, whatever is active now. Refused in words, with nothing sent, when there was no
 * confirmation, or the environment was removed, its address changed or its key replaced since.
 */
export async function confirmedTarget(deps: ChatDeps, confirmed: Confirmation | undefined): Promise<Target> {
  if (!confirmed)
    throw new ToolRefusal(
      vscode.l10n.t('This change was not confirmed by the user, so nothing was sent. Ask for it again.'),
    );
  const { environments, connection } = deps.services;
  const env = environments.get(confirmed.environmentId);
  if (!env)
    throw new ToolRefusal(
      vscode.l10n.t(
        'The environment “{0}” the user confirmed this change in was removed since, so nothing was sent.',
        confirmed.label,
      ),
    );
  if (env.baseUrl !== confirmed.baseUrl)
    throw new ToolRefusal(
      vscode.l10n.t(
        'The address of “{0}” changed after the user confirmed this change ({1} → {2}), so nothing was sent. Ask for it again to confirm it at the new address.',
        env.label,
        confirmed.baseUrl,
        env.baseUrl,
      ),
    );
  if (confirmed.key === undefined) throw keyMissing(env.label);
  const api = await connection.apiWithKey(env, confirmed.key);
  if (!api)
    throw new ToolRefusal(
      vscode.l10n.t(
        'The API key of “{0}” was replaced or removed after the user confirmed this change, so nothing was sent. Ask for it again to confirm it with the key it has now.',
        env.label,
      ),
    );
  return { env, api, active: connection.environment?.id === env.id };
}

/** Production marked as such wherever an environment is named to the person. */
export function environmentName(env: Environment): string {
  return env.production ? vscode.l10n.t('“{0}” (PRODUCTION)', env.label) : `“${env.label}”`;
}

/** The tools' host in VS Code. */
export function chatHost(deps: ChatDeps): ToolHost {
  const { store, wholeSets, services } = deps;
  return {
    place: 'vscode',
    replaceKey: vscode.l10n.t('(“Engagements: Replace API Key…”)'),
    resolve: (named) => resolveTarget(deps, named),
    labelOf(named) {
      try {
        return findEnvironment(deps, named).label;
      } catch {
        return undefined;
      }
    },
    async wholeSet(target, context) {
      if (!target.active) return wholeSets.read(target, context);
      // The tree's store: read once for the tree and the tools, while fresh.
      const loaded = await store.loadAll(wholeSetMaxAge());
      const shown = store.snapshot();
      if (!loaded)
        throw shown.error instanceof Error ? shown.error : new Error('Reading the engagements was cancelled.');
      return { items: shown.items, readAt: Date.now() - store.age(), skipped: shown.skipped };
    },
    records: (target, period, context) => wholeSets.records(target, period, context),
    known: (target, id) => (target.active ? store.get(id) : wholeSets.get(target, id)),
    written(target, engagement, created = false) {
      if (target.active) store.upsert(engagement, created);
      else wholeSets.written(target, engagement, created);
    },
    accepted(target, write) {
      if (target.active) void store.track(write);
    },
    readTrend: (target, current, signal) =>
      deps.readTrend(
        (p) => target.api.usage.summary(p, { signal }),
        target.env,
        current,
        (e) => describeError(e, target.env.label),
      ),
    link: (target, id) => engagementLink(target.env.label, id),
    logFailure: (tool, error) => services.log.error(`The chat tool ${tool} failed`, error),
  };
}
