// Go to Engagement: a quick pick that lists what is loaded at once, reads every page in the
// background (progress in its title, a Stop button, a whole set read recently is reused),
// and matches name, id, type, status and description as the user types. The choice is
// revealed in the tree (every page is loaded by then) and its details open.
import * as vscode from 'vscode';
import type { Engagement } from '../core/engagement';
import { formatCount } from '../core/format';
import { fieldText, nameText, statusLook } from '../core/engagementText';
import { escapeIcons, safeText, shortLabel } from '../core/text';
import { Commands } from '../shared/constants';
import { describeError } from '../api/errorText';
import type { EngagementDeps } from './commandKit';
import { environmentLabel, notice, requireApi } from './commandKit';
import { stopMessage } from './view';
import { wholeSetMaxAge } from '../shared/staleness';

interface Item extends vscode.QuickPickItem {
  id: string;
  /** The items offered when the engagements could not be read: read again, or open the log. */
  action?: 'retry' | 'logs';
}

const items = new WeakMap<Engagement, Item>();

/**
 * One quick-pick item per engagement, made once per engagement object: one line, its status,
 * type, id and description after the name (all of it searched). A second line (`detail`) per
 * item cost the window 100–250 ms more to take 10,000 of them.
 */
function itemFor(engagement: Engagement): Item {
  let item = items.get(engagement);
  if (item) return item;
  const look = statusLook(engagement.status);
  const description = engagement.description ? shortLabel(engagement.description, '', 120) : '';
  const facts = `${shortLabel(look.text, '?', 40)} · ${shortLabel(fieldText(engagement.type), '?', 40)} · ${shortLabel(engagement.id, '?')}`;
  // A quick pick renders `$(name)` as an icon: the service's text shows as written.
  item = {
    id: engagement.id,
    label: escapeIcons(shortLabel(nameText(engagement), engagement.id)),
    description: escapeIcons(description ? `${facts} · ${description}` : facts),
    iconPath: new vscode.ThemeIcon(look.icon, look.colorId ? new vscode.ThemeColor(look.colorId) : undefined),
  };
  items.set(engagement, item);
  return item;
}

/** The quick pick of one Go to Engagement, with its Stop button and what it says. */
interface Pick {
  qp: vscode.QuickPick<Item>;
  stop: vscode.QuickInputButton;
  title: string;
  placeholder: string;
  /** True while this quick pick has the store read every page. */
  reading: boolean;
  /** The engagements it lists (the store's array, replaced by each change). */
  shown?: readonly Engagement[];
  /** Why its own last read of every page failed, if it did (said with Retry and Show Logs). */
  failed?: unknown;
  /** The failure its items show now. */
  failure?: unknown;
}

export async function goToEngagement(
  deps: EngagementDeps,
  open: (id: string) => Promise<unknown>,
): Promise<Engagement | undefined> {
  const { recorder } = deps.services;
  const startedAt = recorder.now();
  if (!(await requireApi(deps))) return undefined;
  const { store } = deps;
  // A read started by a sort or filter is not this quick pick's to stop.
  const readingBefore = store.snapshot().readingAll !== undefined;
  const pick = createPick(deps);
  recorder.goToOpened(pick.qp, startedAt);
  const render = () => renderPick(deps, pick);
  const subscription = store.onDidChange(render);
  render();
  pick.qp.show();
  void readEverything(deps, pick, render);
  const chosen = await choice(deps, pick, () => void readEverything(deps, pick, render));
  subscription.dispose();
  pick.qp.dispose();
  recorder.goToClosed();
  if (!chosen) {
    // Nobody waits for the rest any more.
    if (!readingBefore) store.cancelLoadAll();
    return undefined;
  }
  const engagement = store.get(chosen.id);
  if (!engagement) return undefined;
  await reveal(deps, engagement);
  await open(engagement.id);
  return engagement;
}

function createPick(deps: EngagementDeps): Pick {
  const qp = vscode.window.createQuickPick<Item>();
  const title = safeText(vscode.l10n.t('Go to Engagement in {0}', environmentLabel(deps) ?? ''));
  qp.title = title;
  const placeholder = vscode.l10n.t('Type a name, ID, type, status or description');
  qp.placeholder = placeholder;
  qp.matchOnDescription = true;
  const stop: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('debug-stop'),
    tooltip: vscode.l10n.t('Stop Reading Every Page'),
  };
  return { qp, stop, title, placeholder, reading: false };
}

/** The loaded engagements in the quick pick, and its title says how many of how many. */
function renderPick(deps: EngagementDeps, pick: Pick): void {
  const { qp, stop, title, placeholder } = pick;
  const snapshot = deps.store.snapshot();
  // Its own read that failed is said above the list, with what to do next; what was loaded stays listed.
  const failure = pick.reading ? undefined : pick.failed;
  if (snapshot.items !== pick.shown || failure !== pick.failure) {
    pick.shown = snapshot.items;
    pick.failure = failure;
    // Keeps what the user typed and (VS Code does) the filtering of it.
    const listed = snapshot.items.map(itemFor);
    qp.items = failure === undefined ? listed : [...failureItems(failure, environmentLabel(deps)), ...listed];
    deps.services.recorder.goToListed(snapshot.items.length, snapshot.complete);
  }
  const progress = snapshot.readingAll;
  qp.busy = pick.reading || snapshot.refreshing;
  qp.buttons = progress ? [stop] : [];
  // Engagements the service announced but will not send are said, never silently missing.
  const short = !progress && !snapshot.complete && snapshot.stop !== undefined;
  qp.placeholder = failure
    ? vscode.l10n.t('Could not read the engagements: Retry, or type to search the {0} loaded', snapshot.items.length)
    : short
      ? stopMessage(snapshot)
      : placeholder;
  qp.title = progress
    ? vscode.l10n.t('{0} (reading {1} of {2}…)', title, formatCount(progress.loaded), formatCount(progress.total))
    : snapshot.complete || (!snapshot.hasMore && !short)
      ? title
      : vscode.l10n.t(
          '{0} ({1} of {2} loaded)',
          title,
          formatCount(snapshot.items.length),
          formatCount(snapshot.totalCount),
        );
}

/** Retry and Show Logs, the reason the read failed under Retry; always listed, whatever is typed. */
function failureItems(error: unknown, environment: string | undefined): Item[] {
  return [
    {
      id: '',
      action: 'retry',
      label: `$(refresh) ${vscode.l10n.t('Retry')}`,
      description: vscode.l10n.t('Could not read the engagements'),
      detail: escapeIcons(safeText(describeError(error, environment))),
      alwaysShow: true,
    },
    { id: '', action: 'logs', label: `$(output) ${vscode.l10n.t('Show Logs')}`, alwaysShow: true },
    { id: '', label: '', kind: vscode.QuickPickItemKind.Separator },
  ];
}

/** Every page, unless a whole set read lately can be reused. */
async function readEverything(deps: EngagementDeps, pick: Pick, render: () => void): Promise<void> {
  pick.reading = true;
  pick.failed = undefined;
  render();
  const before = deps.store.snapshot().error;
  try {
    await deps.store.ensureLoaded();
    const whole = await deps.store.loadAll(wholeSetMaxAge());
    // Failed, not stopped: the store holds a new error (a Stop or a cancel leaves none).
    const after = deps.store.snapshot().error;
    if (!whole && after !== undefined && after !== before) pick.failed = after;
  } finally {
    pick.reading = false;
    render();
  }
}

/**
 * The engagement chosen; undefined when the quick pick was closed (Escape, or hidden by the
 * workbench) or Show Logs was chosen. Retry reads again with the quick pick open.
 */
async function choice(deps: EngagementDeps, pick: Pick, retry: () => void): Promise<Item | undefined> {
  const { qp, stop } = pick;
  const disposables: vscode.Disposable[] = [];
  const chosen = await new Promise<Item | undefined>((resolve) => {
    disposables.push(
      qp.onDidTriggerButton((button) => {
        if (button === stop) deps.store.cancelLoadAll();
      }),
      qp.onDidAccept(() => {
        const item = qp.selectedItems[0] ?? qp.activeItems[0];
        if (item?.action === 'retry') retry();
        else if (item?.action === 'logs') {
          void vscode.commands.executeCommand(Commands.showLogs);
          resolve(undefined);
        } else if (item) resolve(item);
      }),
      qp.onDidHide(() => resolve(undefined)),
    );
  });
  for (const d of disposables) d.dispose();
  return chosen;
}

/** Shows the engagement in the tree; one hidden by the filter is said so, with Clear Filter. */
async function reveal(deps: EngagementDeps, engagement: Engagement): Promise<void> {
  if (await deps.view.reveal(engagement.id)) return;
  if (!deps.query.filtered) return;
  notice(
    deps,
    vscode.l10n.t(
      '“{0}” is hidden by the filter of the Engagements view.',
      shortLabel(nameText(engagement), engagement.id),
    ),
  );
  const clear = vscode.l10n.t('Clear Filter');
  void deps.services.ui.current
    .message(
      'info',
      vscode.l10n.t(
        '“{0}” is hidden by the filter of the Engagements view.',
        shortLabel(nameText(engagement), engagement.id),
      ),
      {},
      clear,
    )
    .then(async (choice) => {
      if (choice !== clear) return;
      await deps.query.update({ filter: {} });
      await deps.view.reveal(engagement.id);
    });
}
