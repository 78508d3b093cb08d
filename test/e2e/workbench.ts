// End-to-end helpers: a fresh VS Code (code-server + headless Chromium) with the extension
// INSTALLED from the packaged .vsix, the reference service on loopback, and the gestures a
// person makes: click the activity bar, run a command from the palette, type into input
// boxes, read tree items, the status bar and webviews, take screenshots.
// The runner (scripts/run-e2e.mjs) passes the paths through EUS_E2E_* variables.
import fs from 'node:fs';
import path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import {
  type CodeServer,
  launchBrowser,
  startCodeServer,
  stopAll,
  workbenchUrl,
} from '../../scripts/vscode/code-server.mjs';
import { type RunningService, type ServiceOptions, startService } from '../service/server';
import { poll } from '../poll';

export const SCREENSHOT_DIR = path.resolve(process.env.EUS_E2E_SCREENSHOTS ?? 'test-results/e2e');
const SHORT = 15_000;

export function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the end-to-end tests with node scripts/run-e2e.mjs`);
  return value;
}

export interface TreeItem {
  label: string;
  description: string;
  ariaLabel: string;
  /** codicon-* classes of the item's icon, e.g. ["codicon-pass"]. */
  icons: string[];
  level: number;
}

export interface ShotOptions {
  /** Leave the pointer where it is (a hover in the picture). */
  keepPointer?: boolean;
  /** Only this part of the page. */
  clip?: { x: number; y: number; width: number; height: number };
}

export interface StartOptions {
  /** User settings merged over the harness defaults. */
  settings?: Record<string, unknown>;
  /** More .vsix files installed beside the extension (e.g. EUS_E2E_PROBE_VSIX). */
  extraVsix?: string[];
  /** Environment of code-server, so of its extension host. */
  env?: Record<string, string>;
  /** false: an empty window, no folder open (default: the harness's workspace folder). */
  folder?: boolean;
  /** How the reference service starts (e.g. `tls`: over HTTPS). */
  service?: ServiceOptions;
}

/** One fresh VS Code with the packaged extension, and the reference service. */
export class Workbench {
  private static current: Workbench | undefined;

  private constructor(
    readonly page: Page,
    readonly service: RunningService,
    private readonly server: CodeServer,
    private readonly browser: Awaited<ReturnType<typeof launchBrowser>>['browser'],
    /** The folder the window has open; undefined for an empty window. */
    private folder: string | undefined,
  ) {}

  /** The workbench of the running test, for failure screenshots. */
  static active(): Workbench | undefined {
    return Workbench.current;
  }

  static async start(options: StartOptions = {}): Promise<Workbench> {
    const service = await startService({ port: 0, ...options.service });
    let server: CodeServer | undefined;
    let browser: Awaited<ReturnType<typeof launchBrowser>>['browser'] | undefined;
    // Where a start's time goes, printed with the suite (a CI log shows it).
    const times: string[] = [];
    let mark = Date.now();
    const took = (what: string) => {
      times.push(`${what} ${((Date.now() - mark) / 1000).toFixed(1)} s`);
      mark = Date.now();
    };
    try {
      server = await startCodeServer({
        codeServer: required('EUS_E2E_CODE_SERVER'),
        node: process.env.EUS_E2E_CODE_SERVER_NODE || undefined,
        vsix: required('EUS_E2E_VSIX'),
        extraVsix: options.extraVsix,
        env: options.env,
        settings: options.settings,
        // DNS answers only on loopback: no lookup of a test or of the workbench leaves the machine.
        isolate: true,
      });
      took('code-server');
      ({ browser } = await launchBrowser(required('EUS_E2E_CHROMIUM')));
      const page = await browser.contexts()[0].newPage();
      took('Chromium');
      const folder = options.folder === false ? undefined : server.dirs.workspace;
      await page.goto(workbenchUrl(server, { folder }), { waitUntil: 'domcontentloaded', timeout: 60_000 });
      await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
      await page.locator('.statusbar').waitFor({ timeout: SHORT });
      took('the window');
      console.log(`    (a fresh workbench: ${times.join(', ')})`);
      const workbench = new Workbench(page, service, server, browser, folder);
      Workbench.current = workbench;
      return workbench;
    } catch (error) {
      await stopAll({ browser, server });
      await service.close();
      throw error;
    }
  }

  async stop(): Promise<void> {
    if (Workbench.current === this) Workbench.current = undefined;
    await stopAll({ browser: this.browser, server: this.server });
    await this.service.close();
  }

  /** code-server's last log lines (its extension host's among them), for failure messages. */
  logTail(lines = 60): string {
    return this.server.logTail(lines);
  }

  /** Saves test-results/e2e/<name>.png; names starting "docs-" can be copied into docs/. */
  async screenshot(name: string, options: ShotOptions = {}): Promise<string> {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
    // Pictures for the README: no stray hover tooltip (unless the hover is the point).
    if (name.startsWith('docs-') && !options.keepPointer) await this.page.mouse.move(250, 15); // an empty spot of the title bar: nothing there reacts to hover
    await this.page.screenshot({ path: file, timeout: SHORT, clip: options.clip });
    return file;
  }

  /** Clicks the view container's icon in the activity bar (by its title). */
  async openViewContainer(title: string): Promise<void> {
    const item = this.page.locator(`.part.activitybar .action-item a.action-label[aria-label^="${title}"]`);
    const checked = this.page.locator(`.part.activitybar .action-item.checked a.action-label[aria-label^="${title}"]`);
    const shown = async () => (await checked.count()) > 0 && (await this.page.locator('.part.sidebar').isVisible());
    await item.waitFor({ timeout: SHORT });
    // Clicking the icon of the container on screen closes the side bar, and right after a window
    // reload the side bar may still be being restored: click only when it is not shown, and
    // check the click did show it (bounded).
    for (let attempt = 0; attempt < 3 && !(await shown()); attempt++) {
      await item.click({ timeout: SHORT });
      await this.waitFor(shown, `the ${title} side bar`, 5_000).catch(() => undefined);
    }
    if (!(await shown())) throw new Error(`the ${title} side bar did not open`);
    await this.page
      .locator(
        `.part.sidebar .composite.title h2[title^="${title}" i], .part.sidebar .composite.title [aria-label^="${title}" i]`,
      )
      .first()
      .waitFor({ timeout: SHORT })
      .catch(() => undefined);
  }

  /**
   * Runs a command from the palette as a person does: F1, type its title, Enter; in this
   * window, or in `page` (a second window of the same VS Code).
   */
  async runCommand(title: string, page: Page = this.page): Promise<void> {
    const input = page.locator('.quick-input-widget .quick-input-box input');
    // The palette closes when something takes the focus as it opens, or does not open for an
    // F1 pressed while a window is still settling (both seen under load on 1.139): it is
    // opened again, up to three times. A dialog in the way is not dismissed: the test fails
    // naming it.
    for (let attempt = 1; ; attempt++) {
      await page.locator('.monaco-workbench').focus();
      await page.keyboard.press('F1');
      const typed = await input
        .waitFor({ state: 'visible', timeout: SHORT / 2 })
        .then(() => input.fill(`>${title}`, { timeout: SHORT / 3 }))
        .then(
          () => true,
          (error: unknown) => error,
        );
      if (typed === true) break;
      const dialogs = await this.dialogTexts(page);
      if (!dialogs.length && attempt < 3)
        console.log(`    (the Command Palette was not ready for "${title}": opened again)`);
      if (dialogs.length || attempt === 3)
        throw new Error(
          `could not type "${title}" into the Command Palette; dialogs shown: ${dialogs.join(' | ') || 'none'}`,
          { cause: typed },
        );
      await page.keyboard.press('Escape');
    }
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
    const listed = await row.waitFor({ state: 'visible', timeout: SHORT }).then(
      () => true,
      (error: unknown) => error,
    );
    if (listed !== true) {
      // What the palette showed instead, in words: CI keeps the log, not the pictures.
      const shown = await this.quickInputState(page);
      throw new Error(`the Command Palette did not list "${title}"; it showed ${shown}`, { cause: listed });
    }
    // Into the palette itself, as `answerInput` does: an Enter on the page goes wherever the focus is.
    await input.press('Enter');
  }

  /** The quick input as a person sees it: whether it is open, what is typed, the rows listed. */
  async quickInputState(page: Page = this.page): Promise<string> {
    const widget = page.locator('.quick-input-widget');
    if (!(await widget.isVisible().catch(() => false))) return 'no quick input (it was closed)';
    const value = await widget
      .locator('.quick-input-box input')
      .inputValue({ timeout: 1_000 })
      .catch(() => '?');
    const message = (
      await widget
        .locator('.quick-input-message')
        .allInnerTexts()
        .catch(() => [])
    ).join(' ');
    const rows = (
      await widget
        .locator('.monaco-list-row')
        .allInnerTexts()
        .catch(() => [])
    ).map((r) => r.replace(/\s+/g, ' ').trim());
    return `"${value}" typed, message "${message}", ${rows.length} row(s): ${rows.slice(0, 8).join(' | ') || 'none'}`;
  }

  /** The text of each dialog shown (VS Code's and the extension's modal messages), in this window or `page`. */
  async dialogTexts(page: Page = this.page): Promise<string[]> {
    const boxes = await page.locator('.monaco-dialog-box').all();
    const texts = await Promise.all(
      boxes.map(async (b) => ((await b.isVisible()) ? (await b.innerText()).replace(/\s+/g, ' ') : '')),
    );
    return texts.filter(Boolean);
  }

  /** The input box of the quick input widget (input boxes and quick picks alike). */
  quickInput() {
    return this.page.locator('.quick-input-widget .quick-input-box input');
  }

  /**
   * Waits for an input box whose title or prompt contains `text`, types `value`, presses Enter.
   * Under load an Enter has gone unanswered (two CI runs: the box still asking the same, the
   * value typed, no message, 30 s later, the chat view beside it): the Enter is pressed in the
   * box itself, and again when the box has not moved on within 5 s, at most twice more.
   */
  async answerInput(text: string | RegExp, value: string): Promise<void> {
    await this.waitForQuickInput(text);
    const input = this.quickInput();
    await input.fill(value);
    const asked = await this.quickInputText();
    const stillAsking = async () =>
      (await this.quickInputText()) === asked &&
      (await input.inputValue().catch(() => undefined)) === value &&
      (await this.page
        .locator('.quick-input-widget .monaco-inputbox.error, .quick-input-widget .monaco-inputbox.warning')
        .count()) === 0;
    for (let press = 1; ; press++) {
      // Into the box itself: a view that takes the focus meanwhile (1.139's chat) must not get the Enter.
      await input.press('Enter');
      if (press === 3) return;
      const moved = await this.waitFor(async () => !(await stillAsking()), 'the input box to move on', 5_000).then(
        () => true,
        () => false,
      );
      if (moved) return;
      console.log(`    (Enter in the box "${String(text)}" not answered within 5 s: pressed again)`);
    }
  }

  /** Waits until the quick input shows `text` in its title, prompt or message. */
  async waitForQuickInput(text: string | RegExp): Promise<void> {
    const widget = this.page.locator('.quick-input-widget');
    await widget.waitFor({ state: 'visible', timeout: SHORT });
    let seen = '';
    await this.waitFor(
      async () => {
        seen = await this.quickInputText();
        return typeof text === 'string' ? seen.includes(text) : text.test(seen);
      },
      `the input box to show ${String(text)}`,
    ).catch((error: unknown) => {
      throw new Error(`the input box never showed ${String(text)}; it showed: ${seen}`, { cause: error });
    });
  }

  /** Title, prompt/message and placeholder of the visible quick input. */
  async quickInputText(): Promise<string> {
    return this.page.evaluate(() => {
      const widget = document.querySelector('.quick-input-widget');
      if (!widget || (widget as HTMLElement).style.display === 'none') return '';
      const parts = ['.quick-input-title', '.quick-input-message', '.quick-input-description'].map(
        (s) => widget.querySelector(s)?.textContent ?? '',
      );
      const input = widget.querySelector<HTMLInputElement>('.quick-input-box input');
      return [...parts, input?.placeholder ?? '', input?.getAttribute('aria-label') ?? ''].join(' | ');
    });
  }

  /** The rows of a tree view, in order (label, description, aria label, codicon classes). */
  async treeItems(viewTitle: string): Promise<TreeItem[]> {
    const pane = this.viewPane(viewTitle);
    await pane.waitFor({ timeout: SHORT });
    return pane.locator('.monaco-list-row[role="treeitem"]').evaluateAll((rows) =>
      rows.map((row) => ({
        label: row.querySelector('.label-name')?.textContent?.trim() ?? row.textContent?.trim() ?? '',
        description: row.querySelector('.label-description')?.textContent?.trim() ?? '',
        ariaLabel: row.getAttribute('aria-label') ?? '',
        // The item's own icon: not the twistie, not the inline action buttons shown on hover/selection.
        // Not `codicon-colored`: VS Code 1.139 marks an icon given without a colour with it (a
        // styling flag, the same glyph); 1.100 does not.
        icons: [...row.querySelectorAll('.custom-view-tree-node-item-icon, .codicon')]
          .filter((el) => !el.closest('.actions, .monaco-tl-twistie'))
          .flatMap((el) => [...el.classList].filter((c) => c.startsWith('codicon-') && c !== 'codicon-colored')),
        level: Number(row.getAttribute('aria-level') ?? '1'),
      })),
    );
  }

  /** The pane of a view in the side bar, by the view's title. */
  viewPane(viewTitle: string) {
    return this.page
      .locator('.part.sidebar .pane', {
        has: this.page.locator(`.pane-header[aria-label^="${viewTitle}" i], .pane-header h3[title^="${viewTitle}" i]`),
      })
      .first();
  }

  /** Text and aria labels of the status bar items. */
  async statusBarItems(): Promise<Array<{ text: string; ariaLabel: string }>> {
    return this.page.locator('.part.statusbar .statusbar-item').evaluateAll((items) =>
      items.map((item) => ({
        text: (item.textContent ?? '').trim(),
        ariaLabel:
          item.getAttribute('aria-label') ?? item.querySelector('[aria-label]')?.getAttribute('aria-label') ?? '',
      })),
    );
  }

  /** Polls `check` until it returns a truthy value; bounded. */
  waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = SHORT): Promise<NonNullable<T>> {
    return poll(check, what, timeoutMs, 100);
  }

  /**
   * The frame holding a webview's own document. Webviews are nested iframes: the outer one
   * (the host page, `webviewView`/`webviewPanel`) loads an inner `active-frame` with the content.
   * `has` picks the webview whose document contains that selector.
   */
  async webviewFrame(has: string, timeoutMs = SHORT): Promise<Frame> {
    return this.waitFor(
      async () => {
        for (const frame of this.page.frames()) {
          if (frame === this.page.mainFrame() || frame.isDetached()) continue;
          if (
            await frame
              .locator(has)
              .count()
              .catch(() => 0)
          )
            return frame;
        }
        return undefined;
      },
      `a webview containing ${has}`,
      timeoutMs,
    );
  }

  // ---- gestures used by the engagements and usage scenarios ----

  /**
   * Adds an environment the way a first-time user does: the side bar's welcome button, then
   * label → base URL → key. Resolves once the status bar shows the environment.
   */
  async addEnvironmentFromWelcome(container: string, label: string, baseUrl: string, key: string): Promise<void> {
    await this.openViewContainer(container);
    const button = this.page.locator('.part.sidebar .welcome-view-content .monaco-button', {
      hasText: 'Add Environment',
    });
    await button.click({ timeout: 30_000 });
    await this.answerAddEnvironment(label, baseUrl, key);
  }

  /** Adds one more environment from the palette (Add Environment); resolves once the status bar shows it. */
  async addEnvironment(label: string, baseUrl: string, key: string): Promise<void> {
    await this.runCommand('Engagements: Add Environment');
    await this.answerAddEnvironment(label, baseUrl, key);
  }

  private async answerAddEnvironment(label: string, baseUrl: string, key: string): Promise<void> {
    await this.answerInput('short name', label);
    await this.answerInput('ending in /v1', baseUrl);
    await this.answerInput('API key', key);
    await this.waitFor(
      async () => (await this.statusBarItems()).some((i) => i.text.includes(label)),
      `the status bar to show ${label}`,
      30_000,
    );
  }

  /**
   * Answers Create Engagement's steps as a person types them, from the name to the
   * confirmation: the type typed as "onboarding" and chosen, no description. Resolves with the
   * confirmation open (`Create this engagement in <environment>?`), not yet chosen.
   */
  async answerCreateUpToConfirmation(name: string, environment: string): Promise<void> {
    await this.answerInput('Name of the engagement', name);
    await this.waitForQuickInput('Choose a type');
    await this.quickInput().fill('onboarding');
    await this.chooseQuickPick('onboarding');
    await this.answerInput('Description', '');
    await this.waitForQuickInput(`Create this engagement in ${environment}?`);
  }

  /** Clicks an action of the side bar's title (the view's title actions show there), by its label. */
  async clickSideBarAction(label: string): Promise<void> {
    await this.page
      .locator(
        `.part.sidebar .title-actions .action-label[aria-label^="${label}"], .part.sidebar .pane-header .actions .action-label[aria-label^="${label}"]`,
      )
      .first()
      .click({ timeout: SHORT });
  }

  /** The row of a tree view whose label is exactly `label`. */
  treeRow(viewTitle: string, label: string) {
    return this.viewPane(viewTitle)
      .locator('.monaco-list-row[role="treeitem"]')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }) })
      .first();
  }

  /** How many rows the tree has in all (`aria-setsize`; the list only renders the visible ones). */
  async treeSize(viewTitle: string): Promise<number> {
    const row = this.viewPane(viewTitle).locator('.monaco-list-row[role="treeitem"]').first();
    await row.waitFor({ timeout: SHORT });
    return Number((await row.getAttribute('aria-setsize')) ?? '0');
  }

  /** Scrolls a tree to its last row as a person does with the keyboard: focus it, press End. */
  async scrollTreeToEnd(viewTitle: string): Promise<void> {
    const list = this.viewPane(viewTitle).locator('.monaco-list');
    await list.first().focus();
    await this.page.keyboard.press('End');
  }

  /** Right-clicks `target` and chooses the context-menu entry whose text starts with `entry`. */
  async contextMenu(target: Locator, entry: string | RegExp): Promise<void> {
    await target.click({ button: 'right', timeout: SHORT });
    const item = this.page
      .locator('.monaco-menu .action-item:not(.disabled) .action-label', { hasText: entry })
      .first();
    await item.waitFor({ state: 'visible', timeout: SHORT });
    // The menu ignores a click that lands while it is still opening; hover first, as a hand does.
    await item.hover();
    await item.click({ delay: 50 });
    await item.waitFor({ state: 'hidden', timeout: SHORT });
  }

  /** Clicks the row of the open quick pick whose label (without its icon) is exactly `label`. */
  async chooseQuickPick(label: string): Promise<void> {
    const row = this.page
      .locator('.quick-input-widget .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }) })
      .first();
    await row.click({ timeout: SHORT });
  }

  /** Hovers a tree row's label and returns the text of the tooltip (hover) that opens. */
  async hoverText(row: Locator): Promise<string> {
    const hover = this.page.locator('.workbench-hover, .monaco-hover:not(.hidden)').filter({ hasText: /\S/ }).last();
    // A hover shows after a mouse move over the row and VS Code's delay; on a busy machine the
    // first move can be lost (CI saw no hover within 15 s once): move off the row and back.
    for (let attempt = 1; ; attempt++) {
      await row.locator('.label-name').hover({ timeout: SHORT });
      try {
        await hover.waitFor({ state: 'visible', timeout: SHORT / 3 });
        return (await hover.innerText()).trim();
      } catch (error) {
        if (attempt >= 3) throw error;
        await this.page.mouse.move(0, 0);
      }
    }
  }

  /** Waits until no notification toast is on screen (progress notifications close when their work ends). */
  /**
   * Clears the notifications as a person does (Notifications: Clear All Notifications) and
   * waits until no toast is left: VS Code hides an unread toast by itself only after 15 to 20 s.
   */
  async clearNotifications(): Promise<void> {
    await this.runCommand('Notifications: Clear All Notifications');
    await this.waitForToastsToClose();
  }

  async waitForToastsToClose(timeoutMs = SHORT): Promise<void> {
    const toasts = this.page.locator('.notifications-toasts .notification-toast');
    await this.waitFor(async () => (await toasts.count()) === 0, 'the notification toasts to close', timeoutMs);
  }

  /** A second window on the same VS Code (same user data, same global state): a new tab of the workbench. */
  async openSecondWindow(): Promise<Page> {
    const page = await this.page.context().newPage();
    await page.goto(workbenchUrl(this.server, { folder: this.folder }), {
      waitUntil: 'domcontentloaded',
      timeout: 60_000,
    });
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
    await page.locator('.statusbar').waitFor({ timeout: SHORT });
    return page;
  }

  /**
   * Opens another window in this tab on the same VS Code (same user data and global state),
   * as a person opens a new window: `folder: false` an empty one, else the harness's folder.
   */
  async reopen({ folder }: { folder: boolean }): Promise<void> {
    this.folder = folder ? this.server.dirs.workspace : undefined;
    await this.page.goto(workbenchUrl(this.server, { folder: this.folder }), {
      waitUntil: 'domcontentloaded',
      timeout: 60_000,
    });
    await this.page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
    await this.page.locator('.statusbar').waitFor({ timeout: SHORT });
  }

  /**
   * Removes every one of the user's environments as a person does (Remove Environment…, then
   * Remove in its dialog), until the status bar says "No environment" and the view's welcome
   * offers Add Environment: where a first run starts, for a test that starts there on a
   * workbench an earlier test used. Removing one forgets what was kept with it: its key, what
   * the key may do, its saved page and usage.
   */
  async removeEnvironments(container: string): Promise<void> {
    const environment = async () =>
      (await this.statusBarItems()).find((i) => i.ariaLabel.startsWith('Engagements environment:'))?.ariaLabel;
    const none = (label: string | undefined) => label?.startsWith('Engagements environment: none') === true;
    // The view activates the extension, whose status bar item names the active environment.
    await this.openViewContainer(container);
    let shown = await this.waitFor(environment, 'the environment item in the status bar', 30_000);
    for (let removed = 0; !none(shown); removed++) {
      if (removed === 10) throw new Error(`10 environments removed and the status bar still says ${shown}`);
      // After a reload the palette lists the extension's commands once the extension host has
      // scanned it again, which under load has taken longer than one attempt waits.
      for (let attempt = 1; ; attempt++) {
        try {
          await this.runCommand('Engagements: Remove Environment…');
          break;
        } catch (error) {
          await this.page.keyboard.press('Escape');
          // The palette lists Remove Environment only while there is one: read the status bar again.
          const now = await environment();
          if (none(now)) return this.welcomeShown();
          if (attempt >= 3) throw error;
          const shot = await this.screenshot(`remove-environment-attempt-${attempt}`).catch(() => 'none');
          console.log(
            `    (attempt ${attempt} to remove an environment: ${(error as Error).message.split('\n')[0]}; ` +
              `status bar: ${now}; screenshot: ${shot})`,
          );
        }
      }
      const dialog = this.page.locator('.monaco-dialog-box', { hasText: 'Remove the environment' });
      await dialog.waitFor({ state: 'visible', timeout: SHORT });
      await dialog.locator('.monaco-button', { hasText: /^Remove$/ }).click({ timeout: SHORT });
      await dialog.waitFor({ state: 'hidden', timeout: SHORT });
      const before = shown;
      shown = await this.waitFor(async () => {
        const now = await environment();
        return now !== before ? now : undefined;
      }, 'the status bar to name another environment, or none');
    }
    await this.welcomeShown();
  }

  /** Waits for the view's welcome to offer Add Environment (no environment left). */
  private async welcomeShown(): Promise<void> {
    await this.page
      .locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: 'Add Environment' })
      .waitFor({ state: 'visible', timeout: SHORT });
  }

  /** Closes every editor (panels and webviews among them) as a person does: View: Close All Editors. */
  async closeEditors(): Promise<void> {
    await this.runCommand('View: Close All Editors');
    await this.waitFor(
      async () => (await this.page.locator('.part.editor .tabs-container .tab').count()) === 0,
      'every editor to close',
    );
  }

  /** The folder the workbench has open (exports are saved there by default). */
  get workspaceFolder(): string {
    return this.server.dirs.workspace;
  }

  /** Texts of the notifications on screen (toasts) of a window, this one by default. */
  async notificationTexts(page: Page = this.page): Promise<string[]> {
    return page.locator('.notifications-toasts .notification-toast .notification-list-item-message').allTextContents();
  }

  /** Where the side bar is on the page (with the activity bar left of it), for a picture of it. */
  async sideBarClip(): Promise<{ x: number; y: number; width: number; height: number }> {
    const box = await this.page.locator('.part.sidebar').boundingBox();
    if (!box) throw new Error('the side bar is not visible');
    return { x: 0, y: box.y, width: Math.round(box.x + box.width), height: Math.round(box.height) };
  }

  /** Hides the primary side bar with the title bar's layout button, as a person makes room for an editor. */
  async hideSideBar(): Promise<void> {
    await this.page
      .locator('.part.titlebar .action-label[aria-label^="Toggle Primary Side Bar"]')
      .first()
      .click({ timeout: SHORT });
    await this.page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: SHORT });
  }

  /** Drags the side bar's edge so it is `width` pixels wide (long descriptions stay readable). */
  async resizeSideBar(width: number): Promise<void> {
    const sidebar = await this.page.locator('.part.sidebar').boundingBox();
    if (!sidebar) throw new Error('the side bar is not visible');
    // Grab the sash (the 4 px handle) at the side bar's right edge by its middle: VS Code 1.100
    // centres it on the edge, 1.139 starts it at the edge.
    const edge = sidebar.x + sidebar.width;
    const sashes = await this.page
      .locator('.monaco-sash.vertical:not(.disabled)')
      .evaluateAll((list) => list.map((sash) => sash.getBoundingClientRect()).map((r) => r.x + r.width / 2));
    const grip = sashes
      .filter((x) => Math.abs(x - edge) <= 4)
      .sort((a, b) => Math.abs(a - edge) - Math.abs(b - edge))[0];
    if (grip === undefined)
      throw new Error(`no sash at the side bar's edge (x ${edge}); sashes at ${sashes.join(', ')}`);
    const y = sidebar.y + sidebar.height / 2;
    await this.page.mouse.move(grip, y);
    await this.page.mouse.down();
    await this.page.mouse.move(sidebar.x + width + (grip - edge), y, { steps: 8 });
    await this.page.mouse.up();
    // Off the edge, so it is not left highlighted.
    await this.page.mouse.move(sidebar.x + width + 300, y);
    await this.waitFor(async () => {
      const now = await this.page.locator('.part.sidebar').boundingBox();
      return now && Math.abs(now.width - width) < 30;
    }, `the side bar to be ${width} px wide`);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Mocha hooks for a suite: a fresh VS Code before it, stopped after it, and on every failed
 * test a screenshot (test-results/e2e/FAILED-<title>.png), the dialogs and notifications shown,
 * and the tail of code-server's log.
 */
export function useWorkbench(options: StartOptions = {}): () => Workbench {
  let workbench: Workbench | undefined;
  before(async function () {
    this.timeout(120_000);
    workbench = await Workbench.start(options);
  });
  afterEach(async function () {
    const test = this.currentTest;
    if (!workbench || test?.state !== 'failed') return;
    const file = await workbench
      .screenshot(`FAILED-${test.fullTitle()}`)
      .catch((error: Error) => `(no screenshot: ${error.message})`);
    // What was on screen, in words (CI keeps the log, not the pictures).
    const dialogs = await workbench.dialogTexts().catch(() => []);
    const toasts = await workbench.notificationTexts().catch(() => []);
    console.log(
      `    screenshot: ${file}\n    dialogs: ${dialogs.join(' | ') || 'none'}\n    notifications: ${toasts.join(' | ') || 'none'}` +
        `\n    --- code-server log (tail) ---\n${workbench.logTail(30)}`,
    );
  });
  after(async function () {
    this.timeout(30_000);
    await workbench?.stop();
  });
  return () => {
    if (!workbench) throw new Error('the workbench did not start');
    return workbench;
  };
}
