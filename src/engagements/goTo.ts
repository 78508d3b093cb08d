// Go to Engagement: a quick pick that lists what is loaded at once, reads every page in the
// background (progress in its title, a Stop button, a whole set read recently is reused),
// and matches name, id, type, status and description as the user types. The choice is
// revealed in the tree (every page is loaded by then) and its details open.
import * as vscode from 'vscode';
import type { Engagement } from '../api/types';
import { formatCount } from '../core/format';
import { statusLook } from '../core/status';
import { escapeIcons, safeText, shortLabel } from '../core/text';
import { type EngagementDeps, environmentLabel, notice, requireApi } from './common';
import { stopMessage } from './view';
import { wholeSetMaxAge } from './wholeSet';

interface Item extends vscode.QuickPickItem {
  id: string;
}

/** What the last Go to Engagement showed and when (performance.now()), for tests and `npm run bench`. */
export interface GoToTimeline {
  startedAt: number;
  /** The loaded engagements were in the quick pick. */
  firstItemsAt?: number;
  firstItems?: number;
  /** Every engagement was in the quick pick. */
  allItemsAt?: number;
  allItems?: number;
  /** The quick pick, while it is open. */
  quickPick?: vscode.QuickPick<vscode.QuickPickItem>;
  /** The quick pick was closed (chosen, Escape, or hidden by the workbench). */
  closedAt?: number;
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
  const facts = `${shortLabel(look.text, '?', 40)} · ${shortLabel(engagement.type, '?', 40)} · ${shortLabel(engagement.id, '?')}`;
  // A quick pick renders `$(name)` as an icon: the service's text shows as written.
  item = {
    id: engagement.id,
    label: escapeIcons(shortLabel(engagement.name, engagement.id)),
    description: escapeIcons(description ? `${facts} · ${description}` : facts),
    iconPath: new vscode.ThemeIcon(look.icon, look.colorId ? new vscode.ThemeColor(look.colorId) : undefined),
  };
  items.set(engagement, item);
  return item;
}

export async function goToEngagement(
  deps: EngagementDeps,
  open: (id: string) => Promise<unknown>,
  timeline: (t: GoToTimeline) => void,
): Promise<Engagement | undefined> {
  const started: GoToTimeline = { startedAt: performance.now() };
  timeline(started);
  if (!(await requireApi(deps))) return undefined;
  const { store } = deps;
  // A read started by a sort or filter is not this quick pick's to stop.
  const readingBefore = store.snapshot().readingAll !== undefined;
  const qp = vscode.window.createQuickPick<Item>();
  started.quickPick = qp;
  const title = safeText(vscode.l10n.t('Go to Engagement in {0}', environmentLabel(deps) ?? ''));
  qp.title = title;
  const placeholder = vscode.l10n.t('Type a name, ID, type, status or description');
  qp.placeholder = placeholder;
  qp.matchOnDescription = true;
  const stop: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('debug-stop'),
    tooltip: vscode.l10n.t('Stop Reading Every Page'),
  };
  let shown: readonly Engagement[] | undefined;
  let reading = false;
  const render = () => {
    const snapshot = store.snapshot();
    if (snapshot.items !== shown) {
      shown = snapshot.items;
      // Keeps what the user typed and (VS Code does) the filtering of it.
      qp.items = snapshot.items.map(itemFor);
      if (snapshot.items.length > 0 && started.firstItemsAt === undefined) {
        started.firstItemsAt = performance.now();
        started.firstItems = snapshot.items.length;
      }
      if (snapshot.complete && started.allItemsAt === undefined) {
        started.allItemsAt = performance.now();
        started.allItems = snapshot.items.length;
      }
    }
    const progress = snapshot.readingAll;
    qp.busy = reading || snapshot.refreshing;
    qp.buttons = progress ? [stop] : [];
    // Engagements the service announced but will not send are said, never silently missing.
    const short = !progress && !snapshot.complete && snapshot.stop !== undefined;
    qp.placeholder = short ? stopMessage(snapshot) : placeholder;
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
  };
  const subscription = store.onDidChange(render);
  render();
  qp.show();
  const load = async () => {
    reading = true;
    render();
    try {
      await store.ensureLoaded();
      // Every page, unless a whole set read lately can be reused.
      await store.loadAll(wholeSetMaxAge());
    } finally {
      reading = false;
      render();
    }
  };
  void load();
  const disposables: vscode.Disposable[] = [];
  const chosen = await new Promise<Item | undefined>((resolve) => {
    disposables.push(
      qp.onDidTriggerButton((button) => {
        if (button === stop) store.cancelLoadAll();
      }),
      qp.onDidAccept(() => {
        const item = qp.selectedItems[0] ?? qp.activeItems[0];
        if (item) resolve(item);
      }),
      qp.onDidHide(() => resolve(undefined)),
    );
  });
  for (const d of disposables) d.dispose();
  subscription.dispose();
  qp.dispose();
  started.quickPick = undefined;
  started.closedAt = performance.now();
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

/** Shows the engagement in the tree; one hidden by the filter is said so, with Clear Filter. */
async function reveal(deps: EngagementDeps, engagement: Engagement): Promise<void> {
  if (await deps.view.reveal(engagement.id)) return;
  if (!deps.query.filtered) return;
  notice(
    deps,
    vscode.l10n.t('“{0}” is hidden by the filter of the Engagements view.', shortLabel(engagement.name, engagement.id)),
  );
  const clear = vscode.l10n.t('Clear Filter');
  void deps.services.ui.current
    .message(
      'info',
      vscode.l10n.t(
        '“{0}” is hidden by the filter of the Engagements view.',
        shortLabel(engagement.name, engagement.id),
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
