// Details of one engagement: the single-engagement read (GET by id), shown read-only as a
// virtual Markdown document with every field; and copying an engagement's id.
import * as vscode from 'vscode';
import type { Engagement } from '../api/types';
import { engagementMarkdown, escapeMarkdown } from '../core/engagementText';
import { describeError, showError } from '../ui/errors';
import { type EngagementDeps, environmentLabel, notice, requireApi, singleTarget, ui, withProgress } from './common';
import { words } from './tree';

export const DETAILS_SCHEME = 'engagement-usage';

export function detailsUri(engagement: Pick<Engagement, 'id' | 'name'>, environmentId: string): vscode.Uri {
  const safeName = engagement.name.replace(/[\\/:*?"<>|#%\s]+/g, ' ').trim().slice(0, 80) || engagement.id;
  return vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/${safeName}.md`, query: new URLSearchParams({ env: environmentId, id: engagement.id }).toString() });
}

/** Serves the documents; read-only because nothing can save to this scheme. */
export class DetailsProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly contents = new Map<string, string>();

  constructor(private readonly deps: () => EngagementDeps) {}

  show(uri: vscode.Uri, engagement: Engagement): void {
    this.contents.set(uri.toString(), render(engagement, environmentLabel(this.deps())));
    this.changed.fire(uri);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const known = this.contents.get(uri.toString());
    if (known !== undefined) return known;
    // A document restored after a reload: read the engagement again.
    const params = new URLSearchParams(uri.query);
    const id = params.get('id') ?? '';
    const deps = this.deps();
    const api = deps.services.connection.api;
    if (!api || params.get('env') !== deps.services.connection.environment?.id) return `*${escapeMarkdown(vscode.l10n.t('This engagement belongs to an environment that is not active.'))}*\n`;
    try {
      const text = render(await api.engagements.get(id), environmentLabel(deps));
      this.contents.set(uri.toString(), text);
      return text;
    } catch (error) {
      return `*${escapeMarkdown(vscode.l10n.t('Could not read engagement {0}: {1}', id, describeError(error, environmentLabel(deps))))}*\n`;
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function render(engagement: Engagement, environment: string | undefined): string {
  const read = new Date().toISOString().slice(0, 19).replace('T', ' ');
  const footer = vscode.l10n.t('Read from {0} at {1} UTC. This document is read-only; use the Engagements view to change the engagement.', environment ?? '', read);
  return `${engagementMarkdown(engagement, { words: words() })}\n---\n\n*${escapeMarkdown(footer)}*\n`;
}

/** Reads the engagement from the service and opens its details. */
export async function openDetails(deps: EngagementDeps, provider: DetailsProvider, args: unknown[]): Promise<vscode.Uri | undefined> {
  const target = await singleTarget(deps, args, vscode.l10n.t('Open details of…'));
  const api = target && (await requireApi(deps));
  const environmentId = deps.services.connection.environment?.id;
  if (!target || !api || !environmentId) return undefined;
  const read = async () => {
    const engagement = await withProgress(vscode.l10n.t('Reading “{0}”…', target.name), () => api.engagements.get(target.id));
    // What was read is newer than the tree's copy.
    if (deps.store.get(engagement.id)) deps.store.upsert(engagement);
    const uri = detailsUri(engagement, environmentId);
    provider.show(uri, engagement);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: true });
    return uri;
  };
  try {
    return await read();
  } catch (error) {
    deps.services.log.error(`Reading engagement ${target.id} failed`, error);
    await showError(ui(deps), error, { action: vscode.l10n.t('read “{0}”', target.name), environmentLabel: environmentLabel(deps), retry: read });
    return undefined;
  }
}

export async function copyId(deps: EngagementDeps, args: unknown[]): Promise<void> {
  const target = await singleTarget(deps, args, vscode.l10n.t('Copy the id of…'));
  if (!target) return;
  await vscode.env.clipboard.writeText(target.id);
  notice(deps, vscode.l10n.t('Copied the id of “{0}”: {1}', target.name, target.id));
}
