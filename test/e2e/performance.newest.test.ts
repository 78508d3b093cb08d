// Issue 8, as a person meets it, across a reload of the window (the packaged extension in a
// fresh VS Code): with an environment and its key stored, activating the extension by a
// command that needs no network reads nothing from the service; opening the Engagements
// view shows the page saved by the last session at once, marked as saved, while the
// service is still answering; the mark goes when the fresh page lands.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { type RunningService, startService } from '../service/server';
import { CONTAINER, useWorkbench, VIEW, type Workbench } from './workbench';

const PAGE_SIZE = 25;
/** The service answers this late after the reload: long enough to see what shows before. */
const LATENCY_MS = 8000;

function acrossReload(workbench: () => Workbench): void {
  it('reads nothing until a view is shown, then shows the saved page before the service answers', async () => {
    const wb = workbench();
    await wb.addEnvironmentFromWelcome(CONTAINER, 'Saved', wb.service.baseUrl, wb.service.keys.admin);
    const shown = await wb.waitFor(
      async () => {
        const rows = await wb.treeItems(VIEW);
        return rows.length === PAGE_SIZE + 1 && rows.every((r) => r.label) ? rows : undefined;
      },
      'the first page in the view',
      30_000,
    );

    // Make room for an editor (the view is not restored as visible), and reload the window.
    await wb.hideSideBar();
    await wb.reloadWindow();
    wb.service.clearRequests();
    wb.service.setLatency(LATENCY_MS);

    // A command that needs no network activates the extension: nothing is read.
    // (runCommand waits for VS Code to have registered the extension again: only then does the
    // palette list its commands.)
    await wb.runCommand('Engagements: Show Logs');
    await wb.waitFor(
      async () => (await wb.statusBarItems()).some((i) => i.text.includes('Saved')),
      'the environment in the status bar (the extension is active)',
      30_000,
    );
    assert.deepEqual(
      wb.service.requests.map((r) => `${r.method} ${r.path}`),
      [],
      'no request before a view is shown',
    );

    // Opening the view: the saved page at once, marked, while the first page is being read.
    const viewOpened = Date.now();
    await wb.openViewContainer(CONTAINER);
    const saved = await wb.waitFor(
      async () => {
        const rows = await wb.treeItems(VIEW);
        return rows.length === PAGE_SIZE + 1 ? rows : undefined;
      },
      'the saved page in the view',
      LATENCY_MS / 2,
    );
    // The refresh may not even have reached the service yet (the HTTP library loads with the
    // first request): what counts is that nothing has been answered.
    const listed = () => wb.service.requests.filter((r) => r.path === '/v1/engagements');
    assert.ok(
      listed().every((r) => r.status === 0),
      `the service has not answered yet: ${JSON.stringify(listed().map((r) => r.status))}`,
    );
    assert.deepEqual(
      saved.map((r) => r.label),
      shown.map((r) => r.label),
      'the page shown before the reload',
    );
    const pane = wb.viewPane(VIEW);
    await wb.waitFor(
      async () => /Showing engagements saved .*refreshing…/.test(await pane.innerText()),
      'the view to say the items are saved ones being refreshed',
      5_000,
    );
    await wb.screenshot('saved-page-after-reload');

    // The answer lands: the same engagements (nothing changed meanwhile), no mark any more.
    await wb.waitFor(
      () => listed().length >= 1 && listed().every((r) => r.status === 200),
      'the service to answer',
      LATENCY_MS * 3,
    );
    await wb.waitFor(async () => !/Showing engagements saved/.test(await pane.innerText()), 'the mark to go', 10_000);
    wb.service.setLatency(0);
    assert.equal((await wb.treeItems(VIEW)).length, PAGE_SIZE + 1);
    // Nothing was read before the view was shown, also later than the check above: by now (the
    // answers came LATENCY_MS after the view asked) a read that activation had started would
    // be in the service's log. Every request there came after the view was opened and is
    // one a shown view makes: its first page, and the calls item's summary, which waits for a
    // view to be shown.
    const early = wb.service.requests.filter((r) => r.at < viewOpened);
    assert.deepEqual(
      early.map((r) => `${r.method} ${r.path}`),
      [],
      'no request between activation and the view being shown',
    );
    const others = wb.service.requests.filter(
      (r) => !(r.method === 'GET' && ['/v1/engagements', '/v1/usage/summary'].includes(r.path)),
    );
    assert.deepEqual(
      others.map((r) => `${r.method} ${r.path}`),
      [],
      'no request but what the view shown asked for',
    );
  });
}

/** Where `npm run bench` wants the figures measured here (unset in a test run). */
const BENCH_OUT = process.env.EUS_BENCH_OUT_E2E || undefined;
/** Latency of every answer while every page is read (issue 16's figures). */
const FIND_LATENCY_MS = 20;
const COUNT = 10_000;
/** The tree lists the first 1,000 rows of a whole set, then "Show 1,000 more…". */
const ROWS_LISTED = 1_000;

/** What the page waits for after the key press: the tree's first row, or the quick pick's rows. */
type Target =
  | { kind: 'tree'; view: string; firstLabel: string; size: string }
  | { kind: 'quickPick'; firstSize: string; allSize: string };

/**
 * Arms a timer in the page, before the key is pressed: it starts at the keydown of `code` and
 * reads the DOM at each change until what is awaited shows. Resolves (through `timed`) with
 * the milliseconds to the first rows and to all of them.
 */
async function armTimer(wb: Workbench, code: string, awaited: Target): Promise<() => Promise<Timed>> {
  await wb.page.evaluate(
    ({ code, awaited }) => {
      const w = window as unknown as { eusTimed?: Promise<Timed> };
      w.eusTimed = new Promise<Timed>((resolve, reject) => {
        let pressed: number | undefined;
        let first: number | undefined;
        const onKey = (event: KeyboardEvent) => {
          if (event.code === code && pressed === undefined) pressed = performance.now();
        };
        window.addEventListener('keydown', onKey, true);
        const seen = (): string => {
          if (awaited.kind === 'tree') {
            const pane = [...document.querySelectorAll('.part.sidebar .pane')].find((p) =>
              (p.querySelector('.pane-header')?.getAttribute('aria-label') ?? '').startsWith(awaited.view),
            );
            const row = pane?.querySelector('.monaco-list-row[role="treeitem"][data-index="0"]');
            return `${row?.querySelector('.label-name')?.textContent?.trim()}|${row?.getAttribute('aria-setsize')}`;
          }
          const widget = document.querySelector<HTMLElement>('.quick-input-widget');
          if (!widget || widget.style.display === 'none') return '';
          return widget.querySelector('.monaco-list-row[aria-setsize]')?.getAttribute('aria-setsize') ?? '';
        };
        const check = () => {
          if (pressed === undefined) return;
          const now = seen();
          if (awaited.kind === 'quickPick' && first === undefined && now === awaited.firstSize)
            first = performance.now() - pressed;
          const done =
            awaited.kind === 'tree' ? now === `${awaited.firstLabel}|${awaited.size}` : now === awaited.allSize;
          if (!done) return;
          observer.disconnect();
          window.removeEventListener('keydown', onKey, true);
          const all = performance.now() - pressed;
          resolve({ first: first ?? all, all });
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
        setTimeout(
          () => reject(new Error(`never shown: ${JSON.stringify(awaited)}; the page shows ${seen()}`)),
          60_000,
        );
      });
    },
    { code, awaited },
  );
  return () => wb.page.evaluate(() => (window as unknown as { eusTimed: Promise<Timed> }).eusTimed);
}

interface Timed {
  first: number;
  all: number;
}

/** The requests' answers and sizes, counted: "200 page×100: 100" (for a failure's message). */
function asked(requests: ReadonlyArray<{ status: number; query: Record<string, string> }>): string {
  const counts = new Map<string, number>();
  for (const r of requests) {
    const key = `${r.status} page×${r.query.pageSize}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${key}: ${n}`).join(', ');
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function everyEngagement(workbench: () => Workbench): void {
  const figures: Record<string, unknown> = {};
  const runs = BENCH_OUT ? 3 : 1;
  const total = COUNT.toLocaleString('en-US');
  let environments = 0;

  /** A fresh environment on `service`, active: only its first page is loaded, in the default order. */
  async function freshEnvironment(wb: Workbench, service: RunningService): Promise<void> {
    const label = `Fresh ${++environments}`;
    if (service.store.engagements.length !== COUNT) service.store.seedEngagements(COUNT);
    const mark = service.requests.length;
    if (environments === 1) {
      await wb.addEnvironmentFromWelcome(CONTAINER, label, service.baseUrl, service.keys.admin);
    } else {
      await wb.runCommand('Engagements: Add Environment');
      await wb.answerInput('short name', label);
      await wb.answerInput('ending in /v1', service.baseUrl);
      await wb.answerInput('API key', service.keys.admin);
      await wb.waitFor(
        async () => (await wb.statusBarItems()).some((i) => i.text.includes(label)),
        `the status bar to show ${label}`,
        30_000,
      );
    }
    // The previous environment's tree can show the same "Load more…" row: wait for this one's
    // first page to be answered, so no read of it is still to come when the test counts.
    await wb.waitFor(
      () =>
        service.requests
          .slice(mark)
          .some(
            (r) => r.method === 'GET' && r.path === '/v1/engagements' && r.query.pageSize === '25' && r.status !== 0,
          ),
      `${label}'s first page to be read`,
      30_000,
    );
    await wb.treeRow(VIEW, `Load more… (25 of ${total})`).waitFor({ timeout: 30_000 });
  }

  after(() => {
    if (!BENCH_OUT) return;
    fs.mkdirSync(path.dirname(BENCH_OUT), { recursive: true });
    // The VS Code they were measured on: the bench names it beside each figure.
    figures.vscode = process.env.EUS_E2E_VSCODE_VERSION;
    fs.writeFileSync(BENCH_OUT, JSON.stringify(figures, null, 2));
  });

  // Two services the contract allows, each at its own address (the size a service took is
  // remembered per base URL): the reference, which takes at most 100 engagements a page (pages
  // of 1,000 are asked once, refused, then 100 are), and one that takes 1,000.
  let largePages: RunningService | undefined;
  before(async () => {
    largePages = await startService({ port: 0, engagementCount: COUNT, reading: { pageSizeMax: 1_000 } });
  });
  after(() => largePages?.close());
  const services = [
    {
      key: '',
      description: 'a service that takes at most 100 a page',
      target: () => workbench().service,
      requests: 1 + COUNT / 100,
    },
    {
      key: 'LargePages',
      description: 'a service that takes pages of 1,000',
      target: () => largePages!,
      requests: COUNT / 1_000,
    },
  ];
  for (const service of services) {
    describe(service.description, () => {
      it(`sorting by name reads every page and lists the whole set sorted, the first name at the top, 1,000 rows at a time (${service.description})`, async () => {
        const wb = workbench();
        const svc = service.target();
        const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
        const times: number[] = [];
        for (let run = 1; run <= runs; run++) {
          if (run > 1) {
            // Back to the default order before the next environment: a kept sort would read every page at once.
            await wb.runCommand('Sort Engagements');
            await wb.waitForQuickInput('Sort Engagements');
            await wb.chooseQuickPick('Last Updated');
          }
          await freshEnvironment(wb, svc);
          const first = [...svc.store.engagements].sort((a, b) => byName.compare(a.name, b.name))[0].name;
          svc.clearRequests();
          svc.setLatency(FIND_LATENCY_MS);
          await wb.runCommand('Sort Engagements');
          await wb.waitForQuickInput('Sort Engagements');
          await wb.quickInput().fill('Name');
          await wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Name' }).first().waitFor();
          // From the Enter that chooses "Name" to the tree's first row being the first name of all
          // 10,000, with the first 1,000 listed and "Show more…".
          const timed = await armTimer(wb, 'Enter', {
            kind: 'tree',
            view: VIEW,
            firstLabel: first,
            size: String(ROWS_LISTED + 1),
          });
          await wb.page.keyboard.press('Enter');
          times.push((await timed()).all);
          svc.setLatency(0);
          const listed = svc.requests.filter((r) => r.method === 'GET' && r.path === '/v1/engagements');
          assert.ok(
            listed.length <= service.requests,
            `one request per page (${service.description}): ${listed.length}, ${asked(listed)}`,
          );
          const shown = (await wb.treeItems(VIEW)).map((r) => r.label);
          assert.equal(shown[0], first);
          assert.ok(
            shown.every((name, i) => i === 0 || byName.compare(shown[i - 1], name) <= 0),
            `the rows shown are in name order: ${shown.slice(0, 5).join(', ')}…`,
          );
          assert.equal(await wb.treeSize(VIEW), ROWS_LISTED + 1);
          await wb.scrollTreeToEnd(VIEW);
          await wb.treeRow(VIEW, `Show 1,000 more… (1,000 of ${total})`).waitFor({ timeout: 15_000 });
        }
        figures[`sortOnScreen${service.key}`] = {
          latencyMs: FIND_LATENCY_MS,
          items: COUNT,
          ms: medianOf(times),
          runs: times,
        };
        await wb.runCommand('Sort Engagements');
        await wb.waitForQuickInput('Sort Engagements');
        await wb.chooseQuickPick('Last Updated');
      });

      it(`Go to Engagement lists the 25 loaded at once, then all 10,000 as every page arrives (${service.description})`, async () => {
        const wb = workbench();
        const svc = service.target();
        const firsts: number[] = [];
        const alls: number[] = [];
        for (let run = 1; run <= runs; run++) {
          await freshEnvironment(wb, svc);
          svc.clearRequests();
          svc.setLatency(FIND_LATENCY_MS);
          await wb.page.locator('.monaco-workbench').focus();
          // From Ctrl+Alt+E to the quick pick's rows: the 25 loaded, then all 10,000.
          const timed = await armTimer(wb, 'KeyE', { kind: 'quickPick', firstSize: '25', allSize: String(COUNT) });
          await wb.page.keyboard.press('Control+Alt+E');
          const { first, all } = await timed();
          firsts.push(first);
          alls.push(all);
          svc.setLatency(0);
          await wb.waitForQuickInput('Go to Engagement in');
          const listed = svc.requests.filter((r) => r.method === 'GET' && r.path === '/v1/engagements');
          assert.ok(
            listed.length <= service.requests,
            `one request per page (${service.description}): ${listed.length}, ${asked(listed)}`,
          );
          await wb.page.keyboard.press('Escape');
        }
        figures[`goToOnScreen${service.key}`] = {
          latencyMs: FIND_LATENCY_MS,
          items: COUNT,
          firstMs: medianOf(firsts),
          allMs: medianOf(alls),
          firsts,
          alls,
        };
      });
    });
  }
}

// Last in the file: the suites are declared when it loads, after the constants above.
describe('Performance in the browser (e2e)', function () {
  this.timeout(300_000);
  // A VS Code for each suite: the first reloads its window, the second starts at a first run
  // (the welcome view). Removing the first one's environment through the palette of a
  // reloaded window failed under load (its commands not yet listed after 45 s); a fresh
  // workbench costs about 10 s.
  describe('Performance across a reload (e2e)', () => acrossReload(useWorkbench()));
  describe('Every engagement, as a person sees it (e2e)', () => everyEngagement(useWorkbench()));
});
