// The open dashboards, one per environment: opened by the command (a second open reveals the
// first), restored by VS Code after a window reload (the serializer), closed with the window.
import * as vscode from 'vscode';
import { Commands, WebviewTypes } from '../shared/constants';
import { currentPeriod } from '../core/period';
import { DEFAULT_DETAILS_PAGE_SIZE, DEFAULT_KEY_SORT } from '../core/recordDefaults';
import { safeText } from '../core/text';
import type { Services } from '../shared/services';
import { markPanel } from '../testing/record/usage';
import type { DashboardAssets } from './assets';
import { DashboardPanel, type PanelHooks } from './panel';
import { parseViewState, type ViewState } from './protocol';

/** What every dashboard is made with: where its last data is kept, the status bar to tell of summaries read. */
export type DashboardsHooks = Omit<PanelHooks, 'disposed'>;

export class Dashboards implements vscode.Disposable {
  private readonly panels = new Map<string, DashboardPanel>();
  /** Dashboards being made (their page may still be loading): a second open reveals the first. */
  private readonly opened = new Map<string, Promise<DashboardPanel>>();

  constructor(
    private readonly services: Services,
    private readonly hooks: DashboardsHooks,
    private readonly assets: () => Promise<DashboardAssets>,
  ) {}

  /** The open dashboard of an environment. */
  get(environmentId: string): DashboardPanel | undefined {
    return this.panels.get(environmentId);
  }

  all(): DashboardPanel[] {
    return [...this.panels.values()];
  }

  /** The serializer: VS Code gives back the panels of the last session after a window reload. */
  registerSerializer(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(WebviewTypes.usageDashboard, {
      deserializeWebviewPanel: async (webviewPanel: vscode.WebviewPanel, saved: unknown) => {
        await this.restore(webviewPanel, saved);
      },
    });
  }

  /** The command: the dashboard of the environment given (an id, or an item with one), else of the active one. */
  async open(arg?: unknown): Promise<void> {
    const { environments: store } = this.services;
    const id = environmentIdOf(arg);
    const env = (id ? store.get(id) : undefined) ?? store.active();
    if (!env) return this.askForEnvironment();
    const existing = this.panels.get(env.id) ?? (await this.opened.get(env.id));
    if (existing) {
      existing.reveal();
      return;
    }
    const panelAt = TEST_SEAMS ? performance.now() : 0;
    const webviewPanel = vscode.window.createWebviewPanel(
      WebviewTypes.usageDashboard,
      safeText(vscode.l10n.t('Usage: {0}', env.label)),
      vscode.ViewColumn.Active,
      { enableScripts: true, enableFindWidget: true },
    );
    if (TEST_SEAMS) markPanel(webviewPanel, 'panelAt', panelAt);
    const panel = this.createIn(webviewPanel, freshView(env.id));
    this.opened.set(env.id, panel);
    await panel.finally(() => this.opened.delete(env.id));
  }

  /** What the serializer does after a window reload: the saved view state, checked, in the panel VS Code kept. */
  async restore(webviewPanel: vscode.WebviewPanel, saved: unknown): Promise<DashboardPanel | undefined> {
    if (TEST_SEAMS) markPanel(webviewPanel, 'panelAt');
    const active = this.services.environments.active();
    const view = parseViewState(saved, currentPeriod()) ?? (active ? freshView(active.id) : undefined);
    const duplicate = view
      ? (this.panels.get(view.environmentId) ?? (await this.opened.get(view.environmentId)))
      : undefined;
    if (!view || duplicate) {
      // Nothing to restore, or this environment's dashboard is open already.
      webviewPanel.dispose();
      duplicate?.reveal();
      return undefined;
    }
    return this.createIn(webviewPanel, view);
  }

  /** Makes a webview panel (a new one, or one VS Code restored) the dashboard of `view`'s environment. */
  private async createIn(webviewPanel: vscode.WebviewPanel, view: ViewState): Promise<DashboardPanel> {
    let shell: DashboardAssets;
    try {
      shell = await this.assets();
    } catch (error) {
      webviewPanel.dispose();
      throw error;
    }
    const panel = new DashboardPanel(
      this.services,
      webviewPanel,
      view,
      {
        ...this.hooks,
        disposed: (closed) => {
          if (this.panels.get(closed.environmentId) === closed) this.panels.delete(closed.environmentId);
        },
      },
      shell,
    );
    this.panels.set(view.environmentId, panel);
    return panel;
  }

  private async askForEnvironment(): Promise<void> {
    const add = vscode.l10n.t('Add Environment');
    const choice = await this.services.ui.current.message(
      'info',
      vscode.l10n.t("Add an environment first: the usage dashboard shows the usage of an environment's API key."),
      {},
      add,
    );
    if (choice === add) await vscode.commands.executeCommand(Commands.addEnvironment);
  }

  dispose(): void {
    for (const panel of this.all()) panel.dispose();
  }
}

/** The environment id a command was given: an id, or an item (a tree item, a link) with one. */
function environmentIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  return typeof arg === 'object' && arg !== null && typeof (arg as { id?: unknown }).id === 'string'
    ? (arg as { id: string }).id
    : undefined;
}

/** A dashboard opened afresh: the current period, the first page, the default sort and page size. */
function freshView(environmentId: string): ViewState {
  return {
    environmentId,
    period: currentPeriod(),
    sort: { ...DEFAULT_KEY_SORT },
    page: 1,
    pageSize: DEFAULT_DETAILS_PAGE_SIZE,
  };
}
