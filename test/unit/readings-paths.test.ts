// The readings matrix in Node: the user's paths (Load more, create, rename, status change,
// details, export, Go to) against every reading of the contract the reference service speaks
// (test/service/readings.ts), through the real client (src/api) and the parts of the extension
// that hold what the user sees without `vscode`: the tree's store (rows, pending rows, the
// reason a list is short), the details view, the CSV export. What a reading changes is decided
// in src/api, the same inside VS Code and here; test/integration/readings.test.ts runs the
// paths inside VS Code for the readings whose answers take another road through VS Code's
// fetch, and the words a branch shows (a short list, a pending row) once each.
import assert from 'node:assert/strict';
import { type ApiError, isApiError } from '../../src/api/errors';
import type { ServiceApi } from '../../src/api/service';
import { type AcceptedWrite, isAccepted, type WriteOutcome, type WriteResult } from '../../src/api/types';
import { toCsv } from '../../src/core/records';
import { statusLook } from '../../src/core/engagementText';
import { detailsView } from '../../src/engagements/detailsProtocol';
import type { AcceptedOutcome, Sleep } from '../../src/engagements/accepted';
import { ACCEPTED_LOOK_DELAYS_MS, PendingOverlay } from '../../src/engagements/accepted';
import { EngagementStore } from '../../src/engagements/store';
import { acceptedDelay } from '../service/readings';
import {
  NAME_MAX_LENGTH,
  READINGS,
  READING_NAMES,
  type Reading,
  type ReadingName,
  type RunningService,
} from '../service/server';
import { useReferenceService } from './support/referenceService';

const TOTAL = 137;
/** Looks for an accepted write: the one with its answer, then one after each wait of ACCEPTED_LOOK_DELAYS_MS. */
const MOST_LOOKS = 1 + ACCEPTED_LOOK_DELAYS_MS.length;
const WORDS = {
  id: 'ID',
  type: 'Type',
  status: 'Status',
  evaluations: 'Evaluations',
  created: 'Created',
  updated: 'Updated',
};

describe('Every reading of the contract × every path, in Node (matrix)', function () {
  const reference = useReferenceService();
  let service: RunningService;
  let api: ServiceApi;
  let store: EngagementStore;
  /** The service's clock stands still unless a look's wait moves it (an accepted write's delay). */
  const advance: Sleep = (ms) => {
    reference.clock = new Date(reference.clock.getTime() + ms);
    return Promise.resolve();
  };
  const requests = (method: string, prefix = '/v1/engagements') =>
    service.requests.filter((r) => r.method === method && r.path.startsWith(prefix));
  const seeded = () => service.store.engagements;
  /** The store as the user asked it: pages of 100 (some readings answer in other sizes). */
  const newStore = () =>
    new EngagementStore({
      environmentId: () => 'env',
      api: () => api,
      hasKey: () => Promise.resolve(true),
      pageSize: () => 100,
      acceptedLooks: { sleep: advance },
    });

  for (const name of READING_NAMES) {
    const reading: Reading = READINGS[name];
    const pages = !reading.ignorePage;
    /** The service accepts writes (202) and applies them only a little later. */
    const later = acceptedDelay(reading) > 0;
    const writes = reading.writes ?? 'body';
    /** The write answer names the engagement without being it: read back with one GET. */
    const named = ['location', 'accepted', 'idOnly', 'partial'].includes(writes);
    describe(`reading "${name}"`, () => {
      beforeEach(async () => {
        service = reference.service;
        reference.clock = new Date();
        service.setReading(reading);
        service.store.seedEngagements(TOTAL);
        api = reference.api({ backoffLimitMs: 20 });
        store = newStore();
        await store.refresh();
        assert.equal(store.snapshot().error, undefined);
        service.clearRequests();
      });
      afterEach(() => {
        store.dispose();
        service.setReading({});
      });

      /**
       * A write as the extension's flows report it: done, or accepted and tracked by the store
       * until the service shows it. `whilePending` sees the store while the write is pending.
       */
      async function settle(
        outcome: WriteOutcome,
        whilePending: (write: AcceptedWrite) => void,
        shown: (result: WriteResult) => void,
      ): Promise<WriteResult> {
        if (!later) {
          assert.ok(!isAccepted(outcome), 'done at once');
          shown(outcome);
          return outcome;
        }
        assert.ok(isAccepted(outcome), 'accepted, not there yet');
        const tracked: Promise<AcceptedOutcome> = store.track(outcome);
        whilePending(outcome);
        const end = await tracked;
        assert.equal(end.kind, 'shown', 'the pending row gives way to the engagement');
        return (end as { result: WriteResult }).result;
      }

      it(`Load more (${name}): every engagement once, or the first page and why the rest is missing`, async () => {
        for (let i = 0; i < 10 && store.snapshot().hasMore; i++) await store.loadMore();
        const snapshot = store.snapshot();
        const shown = snapshot.items.map((e) => e.id);
        assert.equal(new Set(shown).size, shown.length, 'none twice');
        assert.equal(snapshot.error, undefined, 'no failure said');
        if (pages) {
          assert.deepEqual(
            [...shown].sort(),
            seeded()
              .map((e) => e.id)
              .sort(),
            'every engagement of the service',
          );
          // The view's message: none (no stop, no failure, nothing saved earlier).
          assert.equal(snapshot.stop, undefined);
          assert.equal(snapshot.fromCache, false);
        } else {
          assert.equal(shown.length, 100, 'the one page the service gives');
          // The view says "Showing 100 of 137: the service does not page this list".
          assert.equal(snapshot.stop, 'ignoresPage');
          assert.equal(snapshot.totalCount, TOTAL);
          assert.equal(snapshot.hasMore, false, 'no Load more that would loop');
        }
      });

      it(`create (${name}): sent once, shown (pending first when accepted), read back with as few requests as its answer allows`, async () => {
        const title = `Made under ${name}`;
        const overlay = new PendingOverlay();
        const outcome = await api.engagements.create({ name: title, type: 'onboarding', description: 'described' });
        assert.equal(requests('POST').length, 1, 'sent once');
        const result = await settle(
          outcome,
          () => {
            // Accepted, not there yet: a row of its own, marked pending, the name and type typed.
            const rows = overlay.rows(store.snapshot());
            assert.equal(rows.length, 1, 'a pending row');
            assert.equal(rows[0].pending.write.input.name, title);
            assert.equal(rows[0].pending.write.input.type, 'onboarding');
            assert.ok(!seeded().some((e) => e.name === title), 'not made yet');
          },
          (created) => store.upsert(created.engagement, true),
        );
        assert.equal(overlay.rows(store.snapshot()).length, 0, 'no longer pending');
        const made = seeded().filter((e) => e.name === title);
        assert.equal(made.length, 1, 'created once');
        const id = made[0].id;
        assert.equal(result.engagement.id, id, 'the engagement the service made');
        assert.equal(result.engagement.name, title);
        // The notice "Created “…” (id)" says "the newest one with this name and type" only
        // when nothing named the engagement (a search found it).
        if (writes === 'silent' || writes === 'acceptedSilent') assert.equal(result.source, 'search');
        else assert.notEqual(result.source, 'search');
        assert.ok(
          store.snapshot().items.some((e) => e.id === id),
          'the tree shows the engagement',
        );
        const log = service.requests.map((r) => `${r.method} ${r.path}`);
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
      });

      it(`rename (${name}): sent once, the new name shown (pending first when accepted), then as the service holds it`, async () => {
        const overlay = new PendingOverlay();
        const target = store.snapshot().items[2];
        const renamed = `Renamed under ${name}`;
        // As the rename flow does: the engagement read right before, its version the precondition.
        const fresh = await api.engagements.get(target.id);
        const outcome = await api.engagements.update(
          target.id,
          { name: renamed },
          { expectedUpdatedAt: fresh.updatedAt },
        );
        assert.equal(requests('PATCH').length, 1, 'sent once');
        await settle(
          outcome,
          () => {
            // Accepted, not applied yet: the row shows the new name, marked pending.
            const row = overlay.items(store.snapshot()).find((e) => e.id === target.id);
            assert.equal(row?.name, renamed);
            assert.ok(overlay.has(target.id), 'marked pending');
          },
          (updated) => store.upsert(updated.engagement),
        );
        const row = overlay.items(store.snapshot()).find((e) => e.id === target.id);
        assert.equal(row?.name, renamed);
        assert.ok(!overlay.has(target.id), 'no longer pending');
        assert.equal(seeded().find((e) => e.id === target.id)?.name, renamed);
      });

      it(`status change (${name}): sent once, the completed icon shown, no longer pending`, async () => {
        const overlay = new PendingOverlay();
        const target = store.snapshot().items.find((e) => e.status !== 'completed' && e.status !== 'archived')!;
        const outcome = await api.engagements.update(
          target.id,
          { status: 'completed' },
          { expectedUpdatedAt: target.updatedAt },
        );
        assert.equal(requests('PATCH').length, 1);
        await settle(
          outcome,
          () => {
            // Accepted, not applied yet: the row shows the new status, marked pending.
            const row = overlay.items(store.snapshot()).find((e) => e.id === target.id);
            assert.equal(row?.status, 'completed');
            assert.ok(overlay.has(target.id), 'marked pending');
          },
          (updated) => store.upsert(updated.engagement),
        );
        const row = overlay.items(store.snapshot()).find((e) => e.id === target.id);
        assert.equal(statusLook(row?.status ?? '').icon, 'pass-filled');
        assert.ok(!overlay.has(target.id), 'no longer pending');
        assert.equal(seeded().find((e) => e.id === target.id)?.status, 'completed');
      });

      it(`details (${name}): the engagement's name and status`, async () => {
        const target = store.snapshot().items[1];
        const engagement = seeded().find((e) => e.id === target.id)!;
        const view = detailsView(await api.engagements.get(target.id), {
          environment: 'Test',
          words: WORDS,
          readAt: Date.now(),
          canWrite: true,
        });
        assert.equal(view.id, target.id);
        assert.equal(view.error, undefined);
        assert.equal(view.name, engagement.name);
        assert.equal(view.fields.find((f) => f.label === 'Status')?.value, engagement.status);
      });

      it(`export (${name}): every record of the period once, or the records the service will not page to said`, async () => {
        const summary = await api.usage.summary();
        await api.usage.byKey();
        const period = summary.billingPeriod;
        const records = service.store.details(period);
        // As the export does: every page, then the CSV; records the service would not page to are counted.
        const all = await api.usage.detailsAll(period);
        const missing = all.stop ? all.totalCount - all.items.length : 0;
        const lines = toCsv(all.items).trimEnd().split('\r\n').slice(1);
        assert.equal(new Set(lines.map((l) => l.split(',')[0])).size, lines.length, 'no record twice');
        if (pages || records.length <= 100) {
          assert.equal(all.items.length, records.length);
          assert.equal(lines.length, records.length, 'every record of the period');
          assert.equal(missing, 0, 'nothing said missing');
        } else {
          assert.ok(lines.length < records.length);
          // The export's warning: "… more could not be read: the service does not page them further."
          assert.equal(all.stop, 'ignoresPage');
          assert.equal(missing, records.length - lines.length, 'the missing records are said');
        }
      });

      it(`Go to (${name}): every page read in the size this service takes, or the first page and why`, async () => {
        // Go to Engagement reads the whole set into the store (its quick pick lists the store's items).
        const target = seeded().at(-1)!;
        await store.loadAll();
        const snapshot = store.snapshot();
        const listed = requests('GET').filter((r) => r.status === 200);
        assert.equal(snapshot.error, undefined);
        if (pages) {
          assert.equal(snapshot.items.length, TOTAL, 'every engagement of the service');
          assert.equal(snapshot.complete, true, 'the quick pick’s title says nothing is missing');
          assert.equal(snapshot.stop, undefined, 'the usual placeholder');
          assert.ok(listed.length <= Math.ceil(TOTAL / 25), `${listed.length} pages read`);
          assert.ok(
            snapshot.items.some((e) => e.id === target.id),
            'the last engagement can be found by its id',
          );
        } else {
          // The quick pick's title says "(100 of 137 loaded)", its placeholder why the rest is missing.
          assert.equal(snapshot.items.length, 100, 'the one page the service gives');
          assert.equal(snapshot.complete, false);
          assert.equal(snapshot.hasMore, false);
          assert.equal(snapshot.stop, 'ignoresPage');
          assert.equal(snapshot.totalCount, TOTAL);
        }
      });
    });
  }
});

describe('The chat tools’ whole set under every reading, in Node', function () {
  const reference = useReferenceService();
  // Moved from test/integration/chat-tools.test.ts ("finds engagements among 230 over every page"),
  // which keeps the reference: the tools read the tree's store whole (src/chat/target.ts) and
  // count what matched; what a reading changes is in that read.
  for (const name of READING_NAMES) {
    it(`reads all 230 over every page, each once, and counts those of a status (${name})`, async () => {
      const service = reference.service;
      service.setReading(READINGS[name]);
      try {
        service.store.seedEngagements(230);
        const api = reference.api({ backoffLimitMs: 20 });
        const store = new EngagementStore({
          environmentId: () => 'env',
          api: () => api,
          hasKey: () => Promise.resolve(true),
          pageSize: () => 100,
        });
        const loaded = await store.loadAll();
        const { items, complete, totalCount } = store.snapshot();
        store.dispose();
        assert.equal(totalCount, 230);
        if ((READINGS[name] as Reading).ignorePage) {
          // The tool says what it could read; the tree's and Go to's words for it are above.
          assert.equal(complete, false);
          return;
        }
        assert.equal(loaded, true);
        assert.equal(complete, true);
        assert.equal(new Set(items.map((e) => e.id)).size, 230, '"230 of the 230 engagements matched"');
        const completed = service.store.engagements.filter((e) => e.status === 'completed').length;
        assert.equal(items.filter((e) => e.status === 'completed').length, completed, 'those of a status counted');
      } finally {
        service.setReading({});
      }
    });
  }
});

/**
 * The reason the name box shows ("The service refused this name: …"), as each error format
 * says it; undefined where the format names no field (the reason is then in the message).
 * Moved from test/integration/error-bodies.test.ts, which keeps the formats whose bodies take
 * another road through VS Code's fetch.
 */
const NAME_REASON: Partial<Record<ReadingName, string | undefined>> = {
  reference: 'name must have at most 200 characters',
  textErrors: undefined,
  htmlErrors: undefined,
  problemErrors: 'name must have at most 200 characters',
  jsonApiErrors: 'name must have at most 200 characters',
  fastApiErrors: 'name must have at most 200 characters',
  googleErrors: 'name must have at most 200 characters',
  // Rails and Spring say the attribute apart from its message.
  railsErrors: 'must have at most 200 characters',
  aspNetErrors: 'name must have at most 200 characters',
  springErrors: 'must have at most 200 characters',
  djangoErrors: 'name must have at most 200 characters',
  graphqlErrors: 'name must have at most 200 characters',
};

describe('The service says no, in every error format: what the user is shown, in Node', function () {
  const reference = useReferenceService();
  const refused = async (call: Promise<unknown>): Promise<ApiError> => {
    try {
      await call;
    } catch (error) {
      assert.ok(isApiError(error), String(error));
      return error;
    }
    assert.fail('expected the service to refuse');
  };

  for (const [name, reason] of Object.entries(NAME_REASON) as Array<[ReadingName, string | undefined]>) {
    describe(`error format "${name}"`, () => {
      beforeEach(() => reference.service.setReading(READINGS[name]));
      afterEach(() => reference.service.setReading({}));

      it(`a create and a rename the service refuses: its reason for the name box, or in the message (${name})`, async () => {
        const service = reference.service;
        const api = reference.api();
        const typed = `Refused under ${name} `.padEnd(NAME_MAX_LENGTH + 1, '…');
        const create = await refused(api.engagements.create({ name: typed, type: 'onboarding', description: 'kept' }));
        assert.equal(create.kind, 'invalidRequest');
        assert.notEqual(create.status, undefined, 'the service’s refusal, not a check made before sending');
        if (reason) assert.equal(create.fieldErrors?.name, reason, 'the name box’s reason');
        else {
          // Text and pages name no field: "Could not create “…”. The request was refused: …".
          assert.equal(create.fieldErrors?.name, undefined);
          assert.match(create.serverMessage ?? '', /name must have at most 200 characters/);
          assert.doesNotMatch(create.serverMessage ?? '', /<|\{"/, 'no markup, no JSON');
        }
        assert.equal(service.requests.filter((r) => r.method === 'POST').length, 1, 'sent once');
        assert.ok(!service.store.engagements.some((e) => e.name === typed), 'nothing created');
        if (!reason) return;
        const target = service.store.engagements[0];
        const before = target.name;
        const rename = await refused(api.engagements.update(target.id, { name: 'r'.repeat(NAME_MAX_LENGTH + 1) }));
        assert.equal(rename.fieldErrors?.name, reason, 'the name box’s reason');
        assert.equal(service.requests.filter((r) => r.method === 'PATCH').length, 1, 'sent once');
        assert.equal(service.store.getEngagement(target.id)?.name, before, 'not renamed');
      });

      it(`a 401 and a 403: the service's reason, and the scope missing (${name})`, async () => {
        const service = reference.service;
        const target = service.store.engagements[0];
        // The key is revoked on the service's side.
        service.store.removeKey('key_admin');
        const rejected = await refused(reference.api().engagements.update(target.id, { name: 'After revoking' }));
        assert.equal(rejected.kind, 'unauthorized');
        assert.equal(rejected.status, 401);
        assert.match(rejected.serverMessage ?? '', /The API key is not valid/);
        service.reset();
        const forbidden = await refused(
          reference
            .api({ getKey: () => service.keys.readOnly })
            .engagements.create({ name: 'Not allowed', type: 'onboarding' }),
        );
        assert.equal(forbidden.kind, 'forbidden');
        assert.equal(forbidden.scope, 'engagements:write');
        assert.match(forbidden.serverMessage ?? '', /This API key lacks the scope engagements:write/);
      });
    });
  }
});
