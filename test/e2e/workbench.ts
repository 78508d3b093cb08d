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

/** The extension's view container (activity bar) and its view, by their titles. */
export const CONTAINER = 'Engagements';
export const VIEW = 'Engagements';

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
      const workbench = new Workbench(page, service, server, browser, folder);
      await workbench.windowReady();
      took('the window');
      console.log(`    (a fresh workbench: ${times.join(', ')})`);
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
    if (name.startsWith('docs-') && !options.keepPointer) await this.pointerAway();
    await this.page.screenshot({ path: file, timeout: SHORT, clip: options.clip });
    return file;
  }

  /**
   * Clicks the view container's icon in the activity bar (by its title), once, unless its side
   * bar is already shown (a click on the icon of the container on screen closes it).
   */
  async openViewContainer(title: string): Promise<void> {
    // Before VS Code has registered the extensions, the icon is the one cached from the last
    // session, and a click on it opens nothing (seen after reloads): wait for the registration.
    await this.windowReady();
    const item = this.page.locator(`.part.activitybar .action-item a.action-label[aria-label^="${title}"]`);
    const checked = this.page.locator(`.part.activitybar .action-item.checked a.action-label[aria-label^="${title}"]`);
    const shown = async () => (await checked.count()) > 0 && (await this.page.locator('.part.sidebar').isVisible());
    await item.waitFor({ timeout: SHORT });
    if (!(await shown())) await item.click({ timeout: SHORT });
    await this.waitFor(shown, `the ${title} side bar`).catch(async (error: unknown) => {
      throw new Error(`the ${title} side bar did not open: ${await this.focusReport(`side bar ${title}`)}`, {
        cause: error,
      });
    });
    // The side bar's own heading names the container ("Extensions", "Engagements: …"). Not
    // an aria-label in the title: on 1.100 the only one is the actions toolbar's ("Extensions
    // actions"), which stays hidden while it holds no action yet (a CI run failed on it).
    const heading = new RegExp(`^\\s*${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i');
    await this.page
      .locator('.part.sidebar .composite.title .title-label h2', { hasText: heading })
      .waitFor({ timeout: SHORT });
  }

  /**
   * Runs a command from the palette as a person does: F1, type its title, Enter, once; in this
   * window, or in `page` (a second window of the same VS Code). Each step waits for what a
   * person sees before the next: the window ready (`windowReady`: the palette lists the
   * extensions' commands only once they are registered), the palette open, the list drawn for
   * what was typed, and after Enter the palette gone. A dialog in the way is not dismissed: the
   * test fails naming it, and what holds the focus.
   */
  async runCommand(title: string, page: Page = this.page): Promise<void> {
    const input = await this.openPalette(page, title);
    const typed = `>${title}`;
    const fail = (what: string, cause: unknown) => this.failOnScreen(what, `palette ${title}`, cause, page);
    await input.fill(typed, { timeout: SHORT / 3 });
    // The rows drawn for this value (a row of another value, or of none, is not an answer).
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
    await row
      .waitFor({ state: 'visible', timeout: SHORT })
      .catch((error: unknown) => fail(`the Command Palette did not list "${title}"`, error));
    // Into the palette itself: an Enter on the page goes wherever the focus is.
    await input.press('Enter');
    // Read in one step without waiting for the box (a command may reload the page meanwhile).
    await this.waitFor(
      () =>
        page.evaluate((text) => {
          const box = document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input');
          return !box || box.offsetWidth === 0 || box.value !== text;
        }, typed),
      `the Command Palette to run "${title}"`,
    ).catch((error: unknown) => fail(`Enter in the Command Palette did not run "${title}"`, error));
  }

  /**
   * What holds the focus and what the workbench shows, in words (CI keeps the log, not the
   * pictures), with VS Code's start-up marks and a screenshot (test-results/…/FOCUS-<label>.png):
   * printed and returned for the message of a test that fails waiting on the workbench.
   */
  async focusReport(label: string, page: Page = this.page): Promise<string> {
    const state = await page
      .evaluate(() => {
        const describe = (el: Element | null) => {
          if (!el) return 'nothing';
          const part = el.closest(
            '.part, .quick-input-widget, .monaco-dialog-box, .notification-toast, .monaco-menu, .context-view',
          );
          const where = part ? [...part.classList].slice(0, 2).join('.') : 'no part';
          return `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join('.')} "${(el.getAttribute('aria-label') ?? '').slice(0, 40)}" in ${where}`;
        };
        const widget = document.querySelector<HTMLElement>('.quick-input-widget');
        const toasts = [...document.querySelectorAll('.notification-toast')].map((t) => t.textContent?.slice(0, 60));
        const shown = (selector: string) =>
          (document.querySelector<HTMLElement>(selector)?.offsetWidth ?? 0) > 0 ? 'shown' : 'hidden';
        const marks = performance
          .getEntriesByType('mark')
          .filter((m) => /^code\/(didLoadExtensions|LifecyclePhase)/.test(m.name))
          .map((m) => `${m.name.replace('code/', '')}@${Math.round(m.startTime)}`);
        return (
          `at ${Math.round(performance.now())} ms (marks: ${marks.join(' ') || 'none'}); focus: ${describe(document.activeElement)}; ` +
          `quick input ${widget && widget.style.display !== 'none' ? 'open' : 'closed'}; toasts [${toasts.join(' | ')}]; ` +
          `side bar ${shown('.part.sidebar')}, secondary ${shown('.part.auxiliarybar')}`
        );
      })
      .catch((error: Error) => `(the page did not answer: ${error.message})`);
    const frames: string[] = [];
    for (const frame of page.frames()) {
      if (frame === page.mainFrame() || frame.isDetached()) continue;
      const said = await frame
        .evaluate(
          () =>
            `${document.hasFocus() ? 'focused' : 'unfocused'} ${document.readyState} active=${document.activeElement?.tagName ?? 'none'}${document.querySelector('iframe') ? ' (host)' : ''}`,
        )
        .catch(() => '?');
      frames.push(`${frame.name() || 'frame'}: ${said}`);
    }
    const palette = await this.quickInputState(page).catch(() => '?');
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `FOCUS-${label.replace(/[^\w.-]+/g, '-').slice(0, 80)}.png`);
    const shot = await page.screenshot({ path: file, timeout: SHORT }).then(
      () => file,
      () => 'none',
    );
    const report = `${state}; frames [${frames.join('; ')}]; quick input: ${palette}; screenshot: ${shot}`;
    console.log(`    (${label}: ${report})`);
    return report;
  }

  /** VS Code's own start-up marks (performance marks `code/…`) of a window: name → ms since it loaded. */
  async startupMarks(page: Page = this.page): Promise<Record<string, number>> {
    return page.evaluate(() =>
      Object.fromEntries(
        performance
          .getEntriesByType('mark')
          .filter((m) => m.name.startsWith('code/'))
          .map((m) => [m.name, Math.round(m.startTime)]),
      ),
    );
  }

  /**
   * Waits for a window that has just loaded to be one a person can use, by VS Code's own
   * marks: `code/didLoadExtensions`, set once the installed extensions are registered (before
   * it the palette does not list their commands, and the activity bar shows a container cached
   * from the last session that a click does not open: both were seen after a reload under
   * load), and `code/LifecyclePhase/Restored`, once the editors and views of the last session
   * are restored (a restore moves the focus, closing a palette opened meanwhile).
   */
  async windowReady(page: Page = this.page): Promise<void> {
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
    await page.locator('.part.statusbar').waitFor({ timeout: SHORT });
    await this.waitFor(
      async () => {
        const marks = await this.startupMarks(page);
        return 'code/didLoadExtensions' in marks && 'code/LifecyclePhase/Restored' in marks;
      },
      'VS Code to register the extensions and restore the window (marks code/didLoadExtensions, code/LifecyclePhase/Restored)',
      60_000,
    );
  }

  /** Developer: Reload Window, as a person reloads it; resolves once the new window is ready (`windowReady`). */
  async reloadWindow(): Promise<void> {
    const loaded = this.page.waitForEvent('load', { timeout: 60_000 });
    loaded.catch(() => undefined);
    await this.runCommand('Developer: Reload Window');
    await loaded;
    await this.windowReady();
  }

  /**
   * Opens the Command Palette with F1, once, and resolves with its box once it is open.
   * First the window must be ready (`windowReady`) and a quick input closed before must have
   * given the focus back (a closing quick pick restores the focus after it hides: an F1 pressed
   * meanwhile was lost once).
   */
  async openPalette(page: Page = this.page, forWhat = 'a command'): Promise<Locator> {
    await this.windowReady(page);
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await this.waitFor(
      () => page.evaluate(() => !document.activeElement?.closest('.quick-input-widget')),
      'the focus out of a quick input closed before',
    ).catch((error: unknown) => this.failOnScreen('a quick input kept the focus', 'palette before F1', error, page));
    await this.webviewFocusSettled(page);
    await page.locator('.monaco-workbench').focus();
    await page.keyboard.press('F1');
    // Open is enough: a webview given the focus back late (after a quick input closed over it,
    // microsoft/vscode#75209) can take it from the palette's box, and the palette stays open
    // (`closeOnFocusLost: false`); typing into it then focuses the box, as a person's click would.
    await this.waitFor(
      () =>
        input.evaluate((el) => (el as HTMLElement).offsetWidth > 0 && (el as HTMLInputElement).value.startsWith('>')),
      'the Command Palette to open',
    ).catch((error: unknown) =>
      this.failOnScreen(`F1 did not open the Command Palette for ${forWhat}`, `F1 for ${forWhat}`, error, page),
    );
    return input;
  }

  /**
   * When the focus is in a webview (a restored or just opened panel takes it), waits until the
   * webview's content has loaded. VS Code focuses a webview's content asynchronously, once
   * it has loaded, and a quick input opened meanwhile loses the focus to it and closes
   * (microsoft/vscode#75209 and #93950; in the web workbench #204522, #214787: VS Code's
   * workaround debounces the focus, which a loaded machine outlasts); until the content has the
   * focus, a key pressed there is not passed on to the workbench either (an F1 into a dashboard
   * being restored opened nothing, seen on 1.139). Waited for, not worked around by a retry.
   */
  async webviewFocusSettled(page: Page = this.page): Promise<void> {
    const started = Date.now();
    let waited = false;
    await this.waitFor(async () => {
      const focused = (await page.evaluateHandle(() => document.activeElement)).asElement();
      if (!focused || !(await focused.evaluate((el) => el.matches('iframe.webview')))) return true;
      // The webview's host page holds its content in an iframe (#pending-frame, then
      // #active-frame): loaded, VS Code gives it the focus and passes its keys on.
      const host = await focused.contentFrame();
      const loaded = await host
        ?.evaluate(() => {
          const content = document.querySelector<HTMLIFrameElement>('iframe')?.contentDocument;
          return content?.readyState === 'complete' && (content.body?.childElementCount ?? 0) > 0;
        })
        .catch(() => false);
      if (!loaded) waited = true;
      return loaded;
    }, 'the content of the webview taking the focus to load').catch((error: unknown) =>
      this.failOnScreen('the webview taking the focus did not load its content', 'webview focus', error, page),
    );
    if (waited)
      console.log(`    (a webview was taking the focus: ${Date.now() - started} ms until its content had loaded)`);
  }

  /** Fails with `what`, the dialogs shown and `focusReport`. */
  async failOnScreen(what: string, label: string, cause: unknown, page: Page = this.page): Promise<never> {
    const dialogs = await this.dialogTexts(page).catch(() => []);
    const report = await this.focusReport(label, page);
    throw new Error(`${what} (dialogs shown: ${dialogs.join(' | ') || 'none'}): ${report}`, { cause });
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
   * Waits for an input box whose title or prompt contains `text`; types `value` into it and
   * presses Enter in it (the box itself, wherever the focus went meanwhile), once; resolves when the box has moved on (closed, another
   * step shown, or a validation message under it): an Enter left unanswered fails the test.
   */
  async answerInput(text: string | RegExp, value: string): Promise<void> {
    await this.waitForQuickInput(text);
    const input = this.quickInput();
    await input.fill(value);
    const asked = await this.quickInputText();
    const validation = this.page.locator(
      '.quick-input-widget .monaco-inputbox.error, .quick-input-widget .monaco-inputbox.warning',
    );
    // Into the box itself: a view that takes the focus meanwhile must not get the Enter.
    await input.press('Enter');
    // The extension checks a key with the service before the next step: up to its timeout.
    await this.waitFor(
      async () =>
        (await this.quickInputText()) !== asked ||
        (await input.inputValue()) !== value ||
        (await validation.count()) > 0,
      `the input box ${String(text)} to move on`,
      30_000,
    ).catch(async (error: unknown) => {
      throw new Error(
        `Enter in the input box ${String(text)} was not answered: ${await this.focusReport(`Enter ${String(text)}`)}`,
        { cause: error },
      );
    });
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
    // The hand goes to the keyboard: the pointer leaves the button, where the tree's rows are
    // drawn next. Left resting there, it is over rows as they are drawn and drawn again, and
    // VS Code 1.100's tree hover is left scheduled on a row taken away under the pointer (no
    // mouse-leave reaches it); the list reuses that row, and it ignores the next mouse-over
    // (the lead for `hoverText`'s counted retry).
    await this.pointerAway();
    await this.answerAddEnvironment(label, baseUrl, key);
  }

  /** Adds one more environment from the palette (Add Environment); resolves once the status bar shows it. */
  async addEnvironment(label: string, baseUrl: string, key: string): Promise<void> {
    await this.runCommand('Engagements: Add Environment');
    await this.answerAddEnvironment(label, baseUrl, key);
  }

  /** Answers Add Environment's three boxes (label → base URL → key); resolves once the status bar shows `label`. */
  async answerAddEnvironment(label: string, baseUrl: string, key: string): Promise<void> {
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

  /**
   * Go to Engagement with the keyboard only (its keybinding, the id typed, Enter), as a person
   * opens an engagement they know; resolves with the details panel's frame showing `name`.
   */
  async goToEngagement(id: string, name: string): Promise<Frame> {
    await this.page.locator('.monaco-workbench').focus();
    await this.page.keyboard.press('Control+Alt+E');
    await this.waitForQuickInput('Go to Engagement');
    await this.quickInput().fill(id);
    await this.page.locator('.quick-input-widget .monaco-list-row', { hasText: id }).first().waitFor();
    await this.quickInput().press('Enter');
    const details = await this.webviewFrame('h1.name', 30_000);
    await this.waitFor(async () => (await details.locator('h1.name').textContent()) === name, 'its details');
    return details;
  }

  /**
   * Changes an engagement's status from its row's context menu (Change Status… → `status`) and
   * waits for the row's icon to become `icon` (a codicon class).
   */
  async changeStatusFromMenu(viewTitle: string, name: string, status: string, icon: string): Promise<void> {
    await this.contextMenu(this.treeRow(viewTitle, name), /^Change (Engagement )?Status…$/);
    await this.waitForQuickInput(`Status of “${name}”`);
    await this.chooseQuickPick(status);
    await this.waitFor(
      async () => (await this.treeItems(viewTitle)).find((r) => r.label === name)?.icons.includes(icon),
      `the ${icon} icon on ${name}`,
      30_000,
    );
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
    // The pointer comes from off the list, as a hand does: left where the last click was, it
    // opens a hover over the row drawn there (a description's tooltip), which takes the click.
    await this.pointerAway();
    await row.click({ timeout: SHORT });
  }

  /** Moves the pointer to an empty spot of the title bar (a hover it had opened closes). */
  async pointerAway(): Promise<void> {
    await this.page.mouse.move(250, 15);
  }

  /**
   * Hovers a tree row's label and returns the text of the tooltip (hover) that opens. The
   * pointer comes from off the row, as a hand does: a pointer already over the row (left there
   * by a click) sends no mouse-over when "moved" to it, and no hover opens.
   */
  async hoverText(row: Locator): Promise<string> {
    const hover = this.page.locator('.workbench-hover, .monaco-hover:not(.hidden)').filter({ hasText: /\S/ }).last();
    await this.pointerAway();
    await hover
      .waitFor({ state: 'hidden', timeout: SHORT })
      .catch((error: unknown) => this.failOnScreen('a hover stayed open with the pointer away', 'hover before', error));
    // The row is marked, to tell afterwards whether the tree drew it anew under the pointer.
    await row.evaluate((element) => element.setAttribute('data-e2e-hovered', ''));
    await row.locator('.label-name').hover({ timeout: SHORT });
    const opened = await hover.waitFor({ state: 'visible', timeout: SHORT }).then(
      () => true,
      (error: unknown) => error,
    );
    if (opened !== true) {
      // Seen once in CI (2026-11-28, 1.100, the hostile-data test): no hover in 15 s with the
      // pointer resting on the row; the cause is not proven. Not a row drawn anew under the
      // pointer (Chromium sends the new one a mouse-over). The lead: 1.100's managed hover
      // ignores a mouse-over while an earlier schedule is held, cleared only by a mouse-down or
      // a mouse-leave, which a row taken away under the pointer never gets, and the list reuses
      // rows (`addEnvironmentFromWelcome` now moves the pointer off where rows are drawn). The
      // hand is moved onto the row a second time, said on a `[retry]` line `npm test` counts.
      const redrawn = (await this.page.locator('[data-e2e-hovered]').count()) === 0;
      console.log(
        `    [retry] no hover opened over the row in 15 s (the row ${redrawn ? 'was' : 'was not'} drawn anew): the pointer moved off and onto it again`,
      );
      await this.pointerAway();
      await row.locator('.label-name').hover({ timeout: SHORT });
      await hover.waitFor({ state: 'visible', timeout: SHORT }).catch(async (error: unknown) => {
        throw new Error(`no hover opened over the row: ${await this.focusReport('hover')}`, { cause: error });
      });
    }
    // The tooltip is made by the extension when VS Code asks (resolveTreeItem): until it comes,
    // the hover says "Loading..." (read once under load on 1.100: the tooltip's own text is the answer).
    return this.waitFor(async () => {
      const text = (await hover.innerText()).trim();
      return /^Loading\W*$/.test(text) ? undefined : text;
    }, "the row's tooltip in place of Loading...").catch((error: unknown) =>
      this.failOnScreen("the row's tooltip did not come", 'hover loading', error),
    );
  }

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
    await this.windowReady(page);
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
    await this.windowReady();
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
    // `Engagements environment: Staging, production, Key not on this machine` → `Staging`.
    const named = (label: string | undefined) =>
      label
        ?.replace(/^Engagements environment: /, '')
        .replace(/(, production|, Key not on this machine)+$/, '')
        .replace(/^none\..*/, '');
    // The palette offers Remove Environment… while VS Code knows there is an environment (the
    // context key engagementUsage.hasEnvironment), which the status bar does not show: the
    // view's title shows it, offering Refresh Engagements under the same condition.
    const refresh = this.page
      .locator(
        '.part.sidebar .title-actions .action-label[aria-label^="Refresh Engagements"], .part.sidebar .pane-header .actions .action-label[aria-label^="Refresh Engagements"]',
      )
      .first();
    // The view activates the extension, whose status bar item names the active environment.
    await this.openViewContainer(container);
    let shown = named(await this.waitFor(environment, 'the environment item in the status bar', 30_000));
    for (let removed = 0; shown; removed++) {
      if (removed === 10) throw new Error(`10 environments removed and the status bar still names ${shown}`);
      await refresh.waitFor({ state: 'attached', timeout: SHORT });
      await this.runCommand('Engagements: Remove Environment…');
      const dialog = this.page.locator('.monaco-dialog-box', { hasText: 'Remove the environment' });
      await dialog.waitFor({ state: 'visible', timeout: SHORT });
      await dialog.locator('.monaco-button', { hasText: /^Remove$/ }).click({ timeout: SHORT });
      await dialog.waitFor({ state: 'hidden', timeout: SHORT });
      // The removed one's key goes first (the status bar may say its key is missing meanwhile):
      // wait for the status bar to name another environment, or none.
      const before = shown;
      shown = await this.waitFor(async () => {
        const now = named(await environment());
        return now !== undefined && now !== before ? { now } : undefined;
      }, `the status bar to name another environment than ${before}, or none`).then(({ now }) => now);
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
