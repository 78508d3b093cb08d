// The matrix inside a real VS Code: the user's paths (Load more, create, rename, status change,
// details, export, Go to) against the readings of the contract (test/service/readings.ts) whose
// answers take another road through VS Code's fetch. Every reading × every path runs in Node
// (test/unit/readings-paths.test.ts): what a reading changes is decided in src/api, the same
// in both; a path that works only against our own reading fails there.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { acceptedDelay } from '../service/readings';
import { READINGS, READING_NAMES, type Reading, type ReadingName } from '../service/server';
import { allReady, openDashboard } from './support/dashboard';
import { engagementsSuite } from './support/engagementsSuite';
import { pickByLabel, waitFor } from './support/helpers';
import { onNewest } from './support/versions';

const TOTAL = 137;
/**
 * Looks for an accepted write: the one with its answer, then one after each of the 8 waits of
 * ACCEPTED_LOOK_DELAYS_MS (src/engagements/accepted.ts; its unit test holds it to 9 in all).
 */
const MOST_LOOKS = 9;
/** Long enough for an accepted write applied 1.2 s later to be looked for and shown (looks at 0, 0.5, 1.5, 3.5 s). */
const ACCEPTED_WAIT_MS = 20_000;
const PATHS = ['Load more', 'create', 'rename', 'status change', 'details', 'export', 'Go to'] as const;
type Path = (typeof PATHS)[number];
/**
 * The readings run here on both VS Code versions, every path: those whose answers take another
 * road through VS Code's fetch (its proxy agent and undici, which differ between 1.100 and
 * 1.139), beside the reference (a 201 with the engagement, a 200 with it).
 */
const ROAD_READINGS: Partial<Record<ReadingName, string>> = {
  reference: 'the contract: 201 and 200 with the engagement, the baseline of every road below',
  locationWrites: 'a 201 with a Location and no body, then a GET of it; an update answered 204 (no body at all)',
  acceptedWrites: 'a 202 Accepted with a Location and no body, on create and update',
  silentWrites: 'a 201 and a 200 with an empty body, and nothing named: the list read to find it',
  htmlErrors: 'an HTML page as the error body (text/html), read whole: the 400 refusing a page size of 1,000',
};
/**
 * Paths kept here, on the oldest VS Code only, for readings whose road through fetch is the
 * reference's: the only paths where the words a user sees come from code that imports
 * `vscode` (the view's message, the quick pick's title, the export's warning, a pending row's
 * description and icon), which the Node matrix cannot load; it asserts what decides them.
 */
const WORDS_READINGS: Partial<Record<ReadingName, readonly Path[]>> = {
  // "Showing 100 of 137: the service does not page this list", in the view and Go to; the export's warning.
  ignoresPage: ['Load more', 'export', 'Go to'],
  // A create pending as a row of its own (its description, the watch icon, the notice), a rename pending on its row.
  delayedAccepted: ['create', 'rename'],
};
const MATRIX: Array<{ name: ReadingName; paths: readonly Path[] }> = [
  ...(Object.keys(ROAD_READINGS) as ReadingName[]).map((name) => ({ name, paths: PATHS })),
  ...(onNewest
    ? []
    : (Object.entries(WORDS_READINGS) as Array<[ReadingName, readonly Path[]]>).map(([name, paths]) => ({
        name,
        paths,
      }))),
];
for (const { name } of MATRIX) {
  if (!READING_NAMES.includes(name)) throw new Error(`no reading "${name}"`);
}
const COMBINATIONS = MATRIX.reduce((n, { paths }) => n + paths.length, 0);

describe('The readings that take another road through VS Code × every path (matrix)', function () {
  this.timeout(90_000);
  const suite = engagementsSuite();
  const { eng, run, items, seeded, requests } = suite;
  const passed = new Set<string>();
  /** Requests of each create, by reading (printed after the suite). */
  const counts: string[] = [];
  let tmp: string;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eus-matrix-'));
    // The user asks for pages of 100; some readings answer in other sizes.
    await vscode.workspace
      .getConfiguration('engagementUsage')
      .update('engagements.pageSize', 100, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    suite.ctx.service.setReading({});
    await vscode.workspace
      .getConfiguration('engagementUsage')
      .update('engagements.pageSize', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(tmp, { recursive: true, force: true });
    console.log(
      `[matrix] ${MATRIX.length} of ${READING_NAMES.length} readings, ${COMBINATIONS} combinations (every one in Node: test/unit/readings-paths.test.ts), ${passed.size} passed`,
    );
    if (counts.length) console.log(`[matrix] requests of a create: ${counts.join('; ')}`);
  });

  const errors = () =>
    suite.ctx.ui.messages.filter((m) => m.level === 'error' || m.level === 'warning').map((m) => m.text);

  for (const { name, paths } of MATRIX) {
    const reading: Reading = READINGS[name];
    const pages = !reading.ignorePage;
    /** The service accepts writes (202) and applies them only a little later. */
    const later = acceptedDelay(reading) > 0;
    const writes = reading.writes ?? 'body';
    /** The write answer names the engagement without being it: read back with one GET. */
    const named = ['location', 'accepted', 'idOnly', 'partial'].includes(writes);
    describe(`reading "${name}"`, () => {
      beforeEach(async () => {
        suite.ctx.service.setReading(reading);
        suite.ctx.service.store.seedEngagements(TOTAL);
        await run('refreshEngagements');
        suite.ctx.service.clearRequests();
        suite.ctx.ui.messages.length = 0;
      });
      afterEach(() => suite.ctx.service.setReading({}));
      const combination = (path: Path, body: () => Promise<void>) => {
        if (!paths.includes(path)) return;
        suite.test(`${path} (${name})`, async () => {
          await body();
          passed.add(`${name}/${path}`);
        });
      };

      combination('Load more', async () => {
        for (let i = 0; i < 10; i++) {
          const more = (await eng().tree()).find((item) => item.kind === 'loadMore');
          if (!more) break;
          await run('loadMoreEngagements');
        }
        const shown = (await items()).map((i) => i.id);
        assert.equal(new Set(shown).size, shown.length, 'none twice');
        if (pages) {
          assert.deepEqual(
            [...shown].sort(),
            seeded()
              .map((e) => e.id)
              .sort(),
            'every engagement of the service',
          );
          assert.equal(eng().message(), undefined);
        } else {
          assert.equal(shown.length, 100, 'the one page the service gives');
          assert.match(eng().message() ?? '', /Showing 100 of 137: the service does not page this list/);
        }
      });

      combination('create', async () => {
        const title = `Made under ${name}`;
        suite.ctx.ui.answer(title, pickByLabel('onboarding'), 'described', pickByLabel('Create'));
        await run('createEngagement');
        assert.equal(requests('POST').length, 1, 'sent once');
        if (later) {
          // Accepted, not there yet: a row of its own, marked pending, the name and type typed.
          const row = (await eng().tree()).find((i) => i.kind === 'pending');
          assert.ok(row, 'a pending row');
          assert.equal(row.label, title);
          assert.equal(row.description, 'pending · onboarding');
          assert.equal(row.icon, 'watch');
          assert.match(
            eng().notices().at(-1) ?? '',
            /The service accepted “Made under \w+” for processing; it shows as pending/,
          );
          await waitFor(
            async () => !(await eng().tree()).some((i) => i.kind === 'pending'),
            'the pending row to give way to the engagement',
            ACCEPTED_WAIT_MS,
          );
        }
        const made = seeded().filter((e) => e.name === title);
        assert.equal(made.length, 1, 'created once');
        const id = made[0].id;
        assert.deepEqual(errors(), [], 'reported as done, not failed');
        assert.match(eng().notices().at(-1) ?? '', new RegExp(`Created “${title}” \\(${id}\\)`));
        if (writes === 'silent' || writes === 'acceptedSilent')
          assert.match(eng().notices().at(-1) ?? '', /newest one with this name and type/);
        else assert.doesNotMatch(eng().notices().at(-1) ?? '', /did not name the engagement/);
        assert.ok(
          (await items()).some((i) => i.id === id),
          'the tree shows the engagement',
        );
        await waitFor(() => eng().selection().includes(id), 'the new engagement to be selected');
        const log = suite.ctx.service.requests.map((r) => `${r.method} ${r.path}`);
        const gets = requests('GET', `/v1/engagements/${id}`).length;
        if (writes === 'body') assert.deepEqual(log, ['POST /v1/engagements'], 'the answer was the engagement');
        else if (named && !later)
          assert.deepEqual(log, ['POST /v1/engagements', `GET /v1/engagements/${id}`], 'exactly 2 requests: POST, GET');
        else if (later && writes !== 'acceptedSilent')
          assert.ok(gets >= 2 && gets <= MOST_LOOKS && gets === log.length - 1, `1 POST and ${gets} GETs of it`);
        else {
          // Nothing named: the list searched (a refused size, then pages of 100), at most once per look.
          const lists = requests('GET').length;
          assert.ok(
            lists >= 1 && lists <= MOST_LOOKS * (1 + Math.ceil(TOTAL / 100)) && lists === log.length - 1,
            `1 POST and ${lists} list reads`,
          );
        }
        counts.push(`${name}: ${log.length} requests (1 POST, ${log.length - 1} GET)`);
      });

      combination('rename', async () => {
        const target = (await items())[2];
        suite.ctx.ui.answer(`Renamed under ${name}`);
        await run('renameEngagement', target.id);
        assert.equal(requests('PATCH', '/v1/engagements/').length, 1, 'sent once');
        assert.deepEqual(errors(), []);
        if (later) {
          // Accepted, not applied yet: the tree shows the new name, marked pending.
          const row = (await items()).find((i) => i.id === target.id);
          assert.equal(row?.label, `Renamed under ${name}`);
          assert.match(row?.description ?? '', /^pending · /);
        }
        await waitFor(
          async () => {
            const row = (await items()).find((i) => i.id === target.id);
            return row?.label === `Renamed under ${name}` && !/pending/.test(row.description ?? '');
          },
          'the tree to show the new name, no longer pending',
          ACCEPTED_WAIT_MS,
        );
        assert.equal(seeded().find((e) => e.id === target.id)?.name, `Renamed under ${name}`);
        assert.deepEqual(errors(), []);
      });

      combination('status change', async () => {
        const target = seeded().find((e) => e.status !== 'completed' && e.status !== 'archived')!;
        suite.ctx.ui.answer(pickByLabel('completed'));
        await run('changeEngagementStatus', target.id);
        assert.equal(requests('PATCH', '/v1/engagements/').length, 1);
        assert.deepEqual(errors(), []);
        await waitFor(
          async () => {
            const row = (await items()).find((i) => i.id === target.id);
            return row?.icon === 'pass-filled' && !/pending/.test(row.description ?? '');
          },
          'the tree to show the completed icon, no longer pending',
          ACCEPTED_WAIT_MS,
        );
        assert.equal(seeded().find((e) => e.id === target.id)?.status, 'completed');
        assert.deepEqual(errors(), []);
      });

      combination('details', async () => {
        const target = (await items())[1];
        const engagement = seeded().find((e) => e.id === target.id)!;
        await run('openEngagement', target.id);
        const shown = await waitFor(
          () =>
            eng().details()?.view?.id === target.id && eng().details()?.view?.busy === false
              ? eng().details()?.view
              : undefined,
          'the details of the engagement',
        );
        assert.equal(shown.error, undefined);
        assert.equal(shown.name, engagement.name);
        assert.equal(shown.fields.find((f) => f.label === 'Status')?.value, engagement.status);
        assert.deepEqual(errors(), []);
        eng().closeDetails();
      });

      combination('export', async () => {
        const probe = await openDashboard(suite.ctx);
        await waitFor(() => allReady(probe.state()), 'every section of the dashboard');
        const period = probe.state().view.period;
        const records = suite.ctx.service.store.details(period);
        const file = path.join(tmp, `${name}.csv`);
        suite.ctx.ui.onSave(vscode.Uri.file(file));
        await probe.receive({ type: 'export', format: 'csv' });
        await probe.idle();
        const done = await waitFor(
          () => (probe.state().export?.phase === 'done' ? probe.state().export : undefined),
          'the export to finish',
        );
        const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\r\n').slice(1);
        assert.equal(new Set(lines.map((l) => l.split(',')[0])).size, lines.length, 'no record twice');
        if (pages || records.length <= 100) {
          assert.equal(done.loaded, records.length);
          assert.equal(lines.length, records.length, 'every record of the period');
        } else {
          assert.ok(lines.length < records.length);
          assert.ok(
            suite.ctx.ui.messages.some(
              (m) => m.level === 'warning' && /could not be read: the service does not page them/.test(m.text),
            ),
            'the missing records are said',
          );
        }
        probe.close();
      });

      combination('Go to', async () => {
        // Every page read (in the size this service takes), the last engagement found by its id.
        const target = seeded().at(-1)!;
        const going = run('goToEngagement');
        const qp = await waitFor(() => eng().goTo()?.quickPick, 'the quick pick');
        await waitFor(() => (qp.busy ? undefined : true), 'every page to be read');
        const listed = requests('GET').filter((r) => r.status === 200);
        if (pages) {
          assert.equal(qp.items.length, TOTAL, 'every engagement of the service');
          assert.equal(qp.placeholder, 'Type a name, ID, type, status or description');
          assert.ok(listed.length <= Math.ceil(TOTAL / 25), `${listed.length} pages read`);
          qp.value = target.id;
          await waitFor(
            () => ((qp.activeItems[0] as { id?: string } | undefined)?.id === target.id ? true : undefined),
            'the match to be the active item',
          );
          await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
          await going;
          await waitFor(() => eng().selection().includes(target.id), 'the engagement to be revealed and selected');
          eng().closeDetails();
        } else {
          // The service answers its first page whatever is asked: what is missing is said.
          assert.equal(qp.items.length, 100, 'the one page the service gives');
          assert.match(qp.title ?? '', /\(100 of 137 loaded\)/);
          assert.match(qp.placeholder ?? '', /Showing 100 of 137: the service does not page this list/);
          qp.hide();
          await going;
        }
        assert.deepEqual(errors(), []);
      });
    });
  }
});
