import * as vscode from 'vscode';
import { Commands } from '../shared/constants';
import type { KeyVault } from '../session/keyVault';
import { displayText, safeLabel } from '../core/text';
import { describeCapabilities, destination, shownLabel, sourceNote } from '../session/model';
import type { EnvironmentStore } from '../session/environments';

/** The status bar's red: the active environment is production (creates and edits are live). */
const PRODUCTION_BACKGROUND = 'statusBarItem.errorBackground';

/** Shows the active environment; production ones stand out. A click switches. */
export class EnvironmentStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'engagementUsage.environment',
    vscode.StatusBarAlignment.Left,
    50,
  );
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly store: EnvironmentStore,
    private readonly vault: KeyVault,
  ) {
    this.item.name = vscode.l10n.t('Engagements Environment');
    this.item.command = Commands.switchEnvironment;
    this.subscriptions = [
      store.onDidChange(() => void this.update()),
      store.onDidChangeCapabilities(() => void this.update()),
      vault.onDidChange(() => void this.update()),
    ];
    void this.update();
  }

  /** Counts updates: one that finds a newer one started when its key lookup ends shows nothing. */
  private updates = 0;

  async update(): Promise<void> {
    const update = ++this.updates;
    const env = this.store.active();
    if (!env) {
      this.item.text = `$(server-environment) ${vscode.l10n.t('No environment')}`;
      this.item.tooltip = vscode.l10n.t('Engagement & Usage: add an environment to connect to the service.');
      this.item.command = Commands.addEnvironment;
      this.item.backgroundColor = undefined;
      this.item.accessibilityInformation = {
        label: vscode.l10n.t('Engagements environment: none. Add an environment to connect to the service.'),
      };
      this.item.show();
      return;
    }
    const hasKey = await this.vault.usable(env);
    // Removing the last environment deletes its key too: the update for the key's deletion may
    // end after the one for the removal, and must not put the removed environment back.
    if (update !== this.updates) return;
    const label = shownLabel(env, this.store.list());
    this.item.command = Commands.switchEnvironment;
    // The label may come from a workspace: `$(…)` in it shows as written (safeLabel).
    const icon = env.production ? '$(warning)' : env.source === 'workspace' ? '$(folder)' : '$(server-environment)';
    this.item.text = `${icon} ${safeLabel(label)}${hasKey ? '' : ` $(key)`}`;
    // One meaning per colour: red is "production"; yellow belongs to the usage warning.
    this.item.backgroundColor = env.production ? new vscode.ThemeColor(PRODUCTION_BACKGROUND) : undefined;
    const tooltip = new vscode.MarkdownString(undefined, false);
    const note = sourceNote(env);
    tooltip.appendText(
      `${displayText(env.label)}${env.production ? ` (${vscode.l10n.t('production')})` : ''}${note ? ` — ${note}` : ''}\n\n${destination(env)}\n\n`,
    );
    tooltip.appendText(
      hasKey ? describeCapabilities(this.store.capabilities(env.id)) : vscode.l10n.t('Key not on this machine'),
    );
    tooltip.appendText(`\n\n${vscode.l10n.t('Click to switch environment')}`);
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = {
      label: vscode.l10n.t(
        'Engagements environment: {0}{1}',
        displayText(label),
        (env.production ? `, ${vscode.l10n.t('production')}` : '') +
          (hasKey ? '' : `, ${vscode.l10n.t('Key not on this machine')}`),
      ),
    };
    this.item.show();
  }

  get text(): string {
    return this.item.text;
  }

  /** What a screen reader says for the item (tests). */
  get accessibilityLabel(): string | undefined {
    return this.item.accessibilityInformation?.label;
  }

  /** The theme colour of the item's background, when it has one (tests). */
  get background(): string | undefined {
    return this.item.backgroundColor?.id;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.item.dispose();
  }
}
