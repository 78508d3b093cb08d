// The readings of the contract (test/service/readings.ts) where VS Code adds something of its
// own: the answers that take another road through VS Code's fetch (its proxy agent and undici,
// which differ between 1.100 and 1.139), each on the path that meets it, and the words that
// only code importing `vscode` shows (the view's message, the quick pick's title, the export's
// warning, a pending row). The one table of every reading × every path is in Node
// (test/unit/readings.test.ts): what a reading changes is decided in src/api, the same in both;
// it is not run again here.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { acceptedDelay } from '../service/readings';
import { checkCreateRequests } from '../service/readingRequests';
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
type Path = 'Load more' | 'create' | 'rename' | 'status change' | 'export' | 'Go to';
/**
 * What VS Code adds under each reading, and the path that meets it. `road`: an answer that
 * takes another road through VS Code's fetch (run on both VS Code versions); `words`: words
 * only the views show (run on the oldest: the road is the reference's).
 */
const SCENARIOS: Partial<Record<ReadingName, { kind: 'road' | 'words'; paths: Partial<Record<Path, string>> }>> = {
  reference: {
    kind: 'road',
    paths: {
      'Load more': 'pages of the contract: the baseline of every road below',
      create: 'a 201 with the engagement',
      rename: 'a 200 with the engagement',
      'Go to': 'a JSON 400 refusing pages of 1,000, then pages of 100',
    },
  },
  locationWrites: {
    kind: 'road',
    paths: { create: 'a 201 with a Location and no body, then a GET of it', rename: 'a 204, no body at all' },
  },
  acceptedWrites: {
    kind: 'road',
    paths: { create: 'a 202 Accepted with a Location and no body', 'status change': 'a 202 Accepted on an update' },
  },
  silentWrites: {
    kind: 'road',
    paths: {
      create: 'a 201 with an empty body and nothing named: the list read to find it',
      'status change': 'a 200 with an empty body',
    },
  },
  htmlErrors: { kind: 'road', paths: { 'Go to': 'an HTML page as the 400 refusing pages of 1,000, read whole' } },
  ignoresPage: {
    kind: 'words',
    paths: {
      'Load more': '"Showing 100 of 137: the service does not page this list" in the view',
      export: 'the export’s warning of the records it could not read',
      'Go to': 'the quick pick’s title and placeholder',
    },
  },
  delayedAccepted: {
    kind: 'words',
    paths: {
      create: 'a create pending as a row of its own: its description, the watch icon, the notice',
      rename: 'a rename pending on its row',
    },
  },
};
const MATRIX = (Object.entries(SCENARIOS) as Array<[ReadingName, NonNullable<(typeof SCENARIOS)[ReadingName]>]>)
  .filter(([, { kind }]) => kind === 'road' || !onNewest)
  .map(([name, { paths }]) => ({ name, paths: Object.keys(paths) as Path[] }));
for (const { name } of MATRIX) {
  if (!READING_NAMES.includes(name)) throw new Error(`no reading "${name}"`);
}
const COMBINATIONS = MATRIX.reduce((n, { paths }) => n + paths.length, 0);

describe('The readings where VS Code adds something: their roads through its fetch, the words of its views', function () {
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
      `[readings] ${MATRIX.length} of ${READING_NAMES.length} readings, ${COMBINATIONS} scenarios where VS Code adds something (every reading × every path in Node: test/unit/readings.test.ts), ${passed.size} passed`,
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
        suite.test(`${path} (${name}): ${SCENARIOS[name]?.paths[path]}`, async () => {
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
          assert.deepEqual(new Set(shown), new Set(seeded().map((e) => e.id)), 'every engagement of the service');
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
        checkCreateRequests(reading, log, id, { mostLooks: MOST_LOOKS, total: TOTAL });
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

      combination('export', async () => {
        const probe = await openDashboard(suite.ctx);
        await waitFor(() => allReady(probe.state()), 'every section of the dashboard');
        const period = probe.state().view.period;
        const records = suite.ctx.service.store.details(period);
        const file = path.join(tmp, `${name}.csv`);
        suite.ctx.ui.onSave(vscode.Uri.file(file));
        if (!pages && records.length > 100)
          suite.ctx.ui.expectMessage(/could not be read: the service does not page them/, { level: 'warning' });
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
