// An engagement's details: opening them (the single-engagement read, GET by id), the one
// details panel that shows them (a webview, its messages checked), and copying an id.
import * as vscode from 'vscode';
import type { Engagement } from '../core/engagement';
import { engagementWords, nameText } from '../core/engagementText';
import { shortLabel } from '../core/text';
import { WebviewErrorReports } from '../core/webviewErrors';
import { Commands, WebviewTypes } from '../shared/constants';
import { createNonce, dashboardHtml } from '../shared/webviewShell';
import { describeError } from '../api/errorText';
import { showError } from '../ui/errorMessages';
import { tabIcon } from '../ui/ui';
import type { DetailsAction, DetailsHostMessage, DetailsStrings } from './detailsProtocol';
import { detailsView, parseDetailsMessage } from './detailsProtocol';
import type { EngagementDeps } from './commandKit';
import { environmentLabel, notice, requireApi, singleTarget, ui } from './commandKit';

/**
 * Shows the engagement at once (what the tree holds), reads it from the service, and shows
 * what the service answered. A failed read is said, with Retry; the panel keeps what it had.
 */
export async function openDetails(
  deps: EngagementDeps,
  panel: DetailsPanel,
  args: unknown[],
): Promise<Engagement | undefined> {
  const target = await singleTarget(deps, args, vscode.l10n.t('Open details of…'));
  const api = target && (await requireApi(deps));
  const environmentId = deps.services.connection.environment?.id;
  if (!target || !api || !environmentId) return undefined;
  panel.show(target, environmentId, { busy: true });
  const read = async () => {
    const engagement = await api.engagements.get(target.id);
    // What was read is newer than the tree's copy.
    if (deps.store.get(engagement.id)) deps.store.upsert(engagement);
    panel.settle(target.id, { engagement });
    return engagement;
  };
  try {
    return await read();
  } catch (error) {
    deps.services.log.error(`Reading engagement ${target.id} failed`, error);
    panel.settle(target.id, { error });
    await showError(ui(deps), error, {
      action: vscode.l10n.t('read “{0}”', nameText(target)),
      environmentLabel: environmentLabel(deps),
      retry: async () => {
        panel.show(target, environmentId, { busy: true });
        try {
          await read();
        } catch (again) {
          panel.settle(target.id, { error: again });
          throw again;
        }
      },
    });
    return undefined;
  }
}

export async function copyId(deps: EngagementDeps, args: unknown[]): Promise<void> {
  const target = await singleTarget(deps, args, vscode.l10n.t('Copy the id of…'));
  if (!target) return;
  await vscode.env.clipboard.writeText(target.id);
  notice(deps, vscode.l10n.t('Copied the id of “{0}”: {1}', nameText(target), target.id));
}

// The engagement details: one reusable webview panel (a preview tab) showing every field of
// the engagement last opened, with Edit, Change Status, Copy ID, Copy Link, Refresh and Open
// Usage Dashboard. It follows the store, so an edit made from the tree shows here too. Same rules
// as the dashboard: a strict CSP with a nonce, no network in the webview, a `ready`
// handshake, and every message from the webview checked before anything is done with it.
function strings(): DetailsStrings {
  return {
    'action.edit': vscode.l10n.t('Edit…'),
    'action.changeStatus': vscode.l10n.t('Change Status…'),
    'action.copyId': vscode.l10n.t('Copy ID'),
    'action.copyLink': vscode.l10n.t('Copy Link'),
    'action.refresh': vscode.l10n.t('Refresh'),
    'action.openUsageDashboard': vscode.l10n.t('Open Usage Dashboard'),
    description: vscode.l10n.t('Description'),
    noDescription: vscode.l10n.t('No description.'),
    otherFields: vscode.l10n.t('Other fields the service sent'),
    readAt: vscode.l10n.t('Read {0}.'),
    readOnly: vscode.l10n.t('The API key of this environment is read-only: it cannot change engagements.'),
    busy: vscode.l10n.t('Reading…'),
    fields: vscode.l10n.t('Fields'),
    actions: vscode.l10n.t('Actions'),
    wholeName: vscode.l10n.t('Show the whole name ({0} characters)'),
    shortName: vscode.l10n.t('Show less of the name'),
  };
}

interface Shown {
  engagement: Engagement;
  environmentId: string;
  environment: string;
  readAt: number;
  busy: boolean;
  error?: string;
}

export class DetailsPanel implements vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  private ready = false;
  private shown?: Shown;
  /** Bounds what this panel's webview writes to the log (made anew with each panel). */
  private errorReports = new WebviewErrorReports();
  private readonly subscriptions: vscode.Disposable[] = [];
  private panelSubscriptions: vscode.Disposable[] = [];

  constructor(private readonly deps: () => EngagementDeps) {
    const { store, services } = deps();
    const follow = store.onDidChange(() => {
      // An edit from the tree, a refresh or a whole-set read: the newer copy shows here.
      const shown = this.shown;
      const latest =
        shown && services.connection.environment?.id === shown.environmentId
          ? store.get(shown.engagement.id)
          : undefined;
      if (
        shown &&
        latest &&
        latest !== shown.engagement &&
        // The newer copy, or any copy when a version's time is unknown.
        !(Date.parse(latest.updatedAt ?? '') < Date.parse(shown.engagement.updatedAt ?? ''))
      ) {
        shown.engagement = latest;
        this.post();
      }
    });
    this.subscriptions.push(
      { dispose: () => follow.dispose() },
      services.connection.onDidChange(() => this.post()),
      services.environments.onDidChangeCapabilities(() => this.post()),
    );
  }

  /** The engagement shown now, whether its webview said it is ready, and whether its tab is visible. */
  get showing(): { id: string; ready: boolean; visible: boolean } | undefined {
    if (!this.panel || !this.shown) return undefined;
    return { id: this.shown.engagement.id, ready: this.ready, visible: this.panel.visible };
  }

  /** Shows an engagement in the one details tab (made on first use, reused after). */
  show(engagement: Engagement, environmentId: string, options: { busy?: boolean; preserveFocus?: boolean } = {}): void {
    const environment = this.deps().services.connection.environment?.label ?? '';
    this.shown = { engagement, environmentId, environment, readAt: Date.now(), busy: options.busy ?? false };
    if (!this.panel) this.create(options.preserveFocus ?? true);
    else this.panel.reveal(undefined, options.preserveFocus ?? true);
    this.post();
  }

  /** What a read by id answered (or why it failed), for the engagement shown. */
  settle(id: string, result: { engagement?: Engagement; error?: unknown }): void {
    const shown = this.shown;
    if (!shown || shown.engagement.id !== id) return;
    shown.busy = false;
    if (result.engagement) {
      shown.engagement = result.engagement;
      shown.readAt = Date.now();
      shown.error = undefined;
    } else if (result.error !== undefined) {
      shown.error = describeError(result.error, shown.environment);
    }
    this.post();
  }

  private create(preserveFocus: boolean): void {
    const { services } = this.deps();
    const extensionUri = services.context.extensionUri;
    const panel = vscode.window.createWebviewPanel(
      WebviewTypes.engagementDetails,
      this.title(),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus },
      {
        enableScripts: true,
        enableFindWidget: true,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
      },
    );
    this.panel = panel;
    this.ready = false;
    // What an earlier panel was sent is not what this one shows.
    this.deps().services.recorder.detailsOpened();
    this.errorReports = new WebviewErrorReports();
    panel.iconPath = tabIcon(extensionUri);
    this.panelSubscriptions = [
      panel.webview.onDidReceiveMessage((message: unknown) => void this.receive(message)),
      panel.onDidDispose(() => {
        for (const s of this.panelSubscriptions.splice(0)) s.dispose();
        this.panel = undefined;
        this.shown = undefined;
        this.ready = false;
      }),
    ];
    services.shown.mark();
    panel.webview.html = dashboardHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'details.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'details.css')).toString(),
      nonce: createNonce(),
      title: this.title(),
      lang: vscode.env.language,
    });
  }

  private title(): string {
    const e = this.shown?.engagement;
    return e ? shortLabel(nameText(e), e.id, 40) : vscode.l10n.t('Engagement');
  }

  /** Handles one message exactly as it came from the webview. Tests call this too. */
  async receive(raw: unknown): Promise<void> {
    const message = parseDetailsMessage(raw);
    if (!message) {
      this.deps().services.log.warn('Engagement details: ignored a message that is not part of the protocol.');
      return;
    }
    if (message.type === 'ready') {
      this.ready = true;
      this.send({ type: 'init', strings: strings() });
      this.post();
    } else if (message.type === 'webviewError') {
      const line = this.errorReports.line(message.message);
      if (line === undefined) return;
      this.deps().services.recorder.detailsWebviewError(line);
      this.deps().services.log.error(`Engagement details webview: ${line}`);
    } else {
      await this.act(message.action);
    }
  }

  private async act(action: DetailsAction): Promise<void> {
    const shown = this.shown;
    if (!shown) return;
    const id = shown.engagement.id;
    // Only while the engagement's environment is active: the commands act on the active one.
    if (this.notice() !== undefined && action !== 'copyId') return;
    const command = {
      edit: Commands.editEngagement,
      changeStatus: Commands.changeEngagementStatus,
      copyId: Commands.copyEngagementId,
      copyLink: Commands.copyEngagementLink,
      refresh: Commands.openEngagement,
      openUsageDashboard: Commands.openUsageDashboard,
    }[action];
    await vscode.commands.executeCommand(command, ...(action === 'openUsageDashboard' ? [] : [id]));
    return;
  }

  private notice(): string | undefined {
    const shown = this.shown;
    const active = this.deps().services.connection.environment;
    if (shown && active?.id !== shown.environmentId)
      return vscode.l10n.t(
        'This engagement belongs to {0}, which is not the active environment. Switch back to act on it.',
        shown.environment,
      );
    return undefined;
  }

  private post(): void {
    const shown = this.shown;
    if (!this.panel || !shown) return;
    this.panel.title = this.title();
    if (!this.ready) return;
    const canWrite = this.deps().services.connection.capabilities().write !== false;
    this.send({
      type: 'show',
      view: detailsView(shown.engagement, {
        environment: shown.environment,
        words: engagementWords().fields,
        readAt: shown.readAt,
        canWrite,
        busy: shown.busy,
        error: shown.error,
        notice: this.notice(),
      }),
    });
  }

  private send(message: DetailsHostMessage): void {
    this.deps().services.recorder.detailsPosted(message);
    void this.panel?.webview.postMessage(message);
  }

  close(): void {
    this.panel?.dispose();
  }

  dispose(): void {
    this.close();
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
