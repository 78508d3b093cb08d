// What the engagement commands share: their dependencies, the client of the active
// environment, progress in the view, short notices, and finding the engagement(s) a command is
// about (the tree's row or selection, an id, or a pick).
import * as vscode from 'vscode';
import type { ServiceApi } from '../api/service';
import type { Engagement } from '../core/engagement';
import { fieldText, nameText, statusLook } from '../core/engagementText';
import { safeText, shortLabel } from '../core/text';
import type { Services } from '../services';
import { Commands, Views } from '../shared/constants';
import type { Ui } from '../ui/ui';
import { statusNotice } from '../ui/ui';
import type { EngagementStore } from './store';
import type { QueryState } from './tree';
import { isEngagementNode } from './tree';
import type { EngagementsView } from './view';

export interface EngagementDeps {
  services: Services;
  store: EngagementStore;
  query: QueryState;
  view: EngagementsView;
}

export function ui(deps: EngagementDeps): Ui {
  return deps.services.ui.current;
}

export function environmentLabel(deps: EngagementDeps): string | undefined {
  return deps.services.connection.environment?.label;
}

/** The client of the active environment; without one, says so and offers to add one. */
export async function requireApi(deps: EngagementDeps): Promise<ServiceApi | undefined> {
  const api = deps.services.connection.api;
  if (api) return api;
  const add = vscode.l10n.t('Add Environment');
  const choice = await ui(deps).message(
    'info',
    vscode.l10n.t('No environment is set up yet. Add one to work with engagements.'),
    {},
    add,
  );
  if (choice === add) await vscode.commands.executeCommand(Commands.addEnvironment);
  return undefined;
}

/**
 * Runs a request with progress in the Engagements view (its progress bar, and a badge on the
 * activity bar while the view is hidden), where the work was started: not a notification.
 * The title goes to the log. Writes are not cancellable: they may land anyway.
 */
export function withProgress<T>(title: string, task: () => Promise<T>, log?: { info(text: string): void }): Promise<T> {
  log?.info(safeText(title));
  return Promise.resolve(vscode.window.withProgress({ location: { viewId: Views.engagements } }, task));
}

/** A short confirmation in the status bar, plus the log. */
export function notice(deps: EngagementDeps, text: string): void {
  deps.services.log.info(text);
  const shown = statusNotice(text);
  deps.services.recorder.notice(shown);
}

/**
 * The engagements a command was invoked on: the tree passes the clicked node and, with
 * multi-select, every selected node; other callers may pass an engagement id. Undefined when
 * the command came from the palette (the caller then asks).
 */
export function targetsFromArgs(deps: EngagementDeps, args: unknown[]): Engagement[] | string | undefined {
  const [first, second] = args;
  if (
    Array.isArray(second) &&
    second.length > 1 &&
    second.every(isEngagementNode) &&
    (!isEngagementNode(first) || second.includes(first))
  ) {
    return second.map((node) => node.engagement);
  }
  if (isEngagementNode(first)) return [first.engagement];
  if (typeof first === 'string' && first.trim() !== '')
    return deps.store.get(first) ? [deps.store.get(first) as Engagement] : first;
  if (Array.isArray(first) && first.length && first.every((id) => typeof id === 'string')) {
    const found = first.map((id: string) => deps.store.get(id)).filter((e): e is Engagement => e !== undefined);
    return found.length ? found : undefined;
  }
  return undefined;
}

/** Asks which loaded engagement a palette command is about. */
export async function pickEngagement(deps: EngagementDeps, title: string): Promise<Engagement | undefined> {
  if (!(await requireApi(deps))) return undefined;
  await deps.store.ensureLoaded();
  const items = deps.store.snapshot().items;
  if (items.length === 0) {
    await ui(deps).message(
      'info',
      vscode.l10n.t('There are no engagements to choose from in {0}.', environmentLabel(deps) ?? ''),
      {},
    );
    return undefined;
  }
  const id = await ui(deps).pick<string>({
    title,
    placeholder: vscode.l10n.t('Type to search the loaded engagements by name'),
    items: items.map((e) => ({
      label: shortLabel(nameText(e), e.id),
      description: `${statusLook(e.status).text} · ${fieldText(e.type)}`,
      detail: e.id,
      value: e.id,
      iconId: statusLook(e.status).icon,
    })),
  });
  return typeof id === 'string' ? deps.store.get(id) : undefined;
}

/** The single engagement a command is about: from the tree, an id (read from the service), or a pick. */
export async function singleTarget(
  deps: EngagementDeps,
  args: unknown[],
  title: string,
): Promise<Engagement | undefined> {
  // With several selected, a single-item command acts on the item it was invoked on.
  if (isEngagementNode(args[0])) return args[0].engagement;
  const targets = targetsFromArgs(deps, args);
  if (Array.isArray(targets)) return targets[0];
  if (typeof targets === 'string') {
    const api = await requireApi(deps);
    return api
      ? withProgress(vscode.l10n.t('Reading engagement {0}…', targets), () => api.engagements.get(targets))
      : undefined;
  }
  return pickEngagement(deps, title);
}
