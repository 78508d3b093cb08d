// The one table of reading scenarios: every reading of the contract the reference service
// speaks (test/service/readings.ts: each way a real service may fill in what the contract
// leaves open) × every road of the extension through it, in Node, through the real client
// (src/api) and the parts of the extension that hold what the user sees without `vscode`: the
// tree's store (rows, pending rows, the reason a list is short), the details view, the CSV
// export, the chat tools' whole set, the reasons the boxes show. What a reading changes is
// decided in src/api, the same inside VS Code and here: test/integration/readings.test.ts runs
// only what differs inside VS Code (the answers' road through its fetch, the words its views
// show). Nothing here may pass only because the service reads the contract the way we would.
import assert from 'node:assert/strict';
import type { ApiError } from '../../src/api/errors';
import type { ServiceApi } from '../../src/api/service';
import {
  type AcceptedWrite,
  isAccepted,
  type WriteOutcome,
  type WriteResult,
  type WriteSource,
} from '../../src/api/types';
import { toCsv } from '../../src/core/records';
import { statusLook } from '../../src/core/engagementText';
import { detailsView } from '../../src/engagements/detailsProtocol';
import {
  ACCEPTED_LOOK_DELAYS_MS,
  type AcceptedOutcome,
  PendingOverlay,
  type Sleep,
} from '../../src/engagements/accepted';
import { EngagementStore } from '../../src/engagements/store';
import { ACCEPTED_WRITES, type ErrorBodies, type WriteAnswer, acceptedDelay } from '../service/readings';
import { checkCreateRequests } from '../service/readingRequests';
import { NAME_MAX_LENGTH, READINGS, READING_NAMES, type Reading, type ReadingName } from '../service/server';
import { rejectsWith } from './support/apiErrors';
import { DETAILS_WORDS } from './support/clients';
import { useReferenceService } from './support/referenceService';

const TOTAL = 137;
/** Looks for an accepted write: the one with its answer, then one after each wait of ACCEPTED_LOOK_DELAYS_MS. */
const MOST_LOOKS = 1 + ACCEPTED_LOOK_DELAYS_MS.length;

/**
 * A whole-set read that names no size asks pages of 1,000, then 100, then 25: how many sizes
 * each reading refuses before one is taken, and how many engagements its pages then hold.
 */
const WHOLE_SET: Record<ReadingName, { refused: number; perPage: number }> = {
  reference: { refused: 1, perPage: 100 },
  largePages: { refused: 0, perPage: TOTAL },
  capped50: { refused: 0, perPage: 50 },
  ignoresPageSize: { refused: 0, perPage: 25 },
  ignoresPage: { refused: 0, perPage: TOTAL },
  onePage: { refused: 0, perPage: TOTAL },
  wrapped: { refused: 1, perPage: 100 },
  locationWrites: { refused: 1, perPage: 100 },
  acceptedWrites: { refused: 1, perPage: 100 },
  silentWrites: { refused: 1, perPage: 100 },
  wrappedLocation: { refused: 0, perPage: 50 },
  textErrors: { refused: 1, perPage: 100 },
  htmlErrors: { refused: 1, perPage: 100 },
  idOnlyWrites: { refused: 1, perPage: 100 },
  partialWrapped: { refused: 1, perPage: 100 },
  delayedAccepted: { refused: 1, perPage: 100 },
  acceptedPending: { refused: 1, perPage: 100 },
  acceptedSilent: { refused: 1, perPage: 100 },
  itemsEnvelope: { refused: 1, perPage: 100 },
  resultsEnvelope: { refused: 1, perPage: 100 },
  metaEnvelope: { refused: 1, perPage: 100 },
  problemErrors: { refused: 1, perPage: 100 },
  jsonApiErrors: { refused: 1, perPage: 100 },
  fastApiErrors: { refused: 1, perPage: 100 },
  googleErrors: { refused: 1, perPage: 100 },
  railsErrors: { refused: 1, perPage: 100 },
  aspNetErrors: { refused: 1, perPage: 100 },
  springErrors: { refused: 1, perPage: 100 },
  djangoErrors: { refused: 1, perPage: 100 },
  graphqlErrors: { refused: 1, perPage: 100 },
  // Without a browser's Origin it answers as the reference does; the browser is the e2e's.
  noCors: { refused: 1, perPage: 100 },
};

/** How each write answer's result is learned: from the answer, what it names, or a search. */
const CREATE_SOURCE: Record<WriteAnswer, WriteSource> = {
  body: 'answer',
  location: 'location',
  accepted: 'location',
  silent: 'search',
  idOnly: 'named',
  partial: 'named',
  acceptedBody: 'named',
  acceptedSilent: 'search',
};

/**
 * The reason the name box shows ("The service refused this name: …") in an error body format;
 * undefined where the format names no field (text, an HTML page: the reason is in the message).
 * Rails and Spring say the attribute apart from its message.
 */
function nameReason(format: ErrorBodies): string | undefined {
  if (format === 'text' || format === 'html') return undefined;
  return format === 'rails' || format === 'spring'
    ? 'must have at most 200 characters'
    : 'name must have at most 200 characters';
}

describe('Every reading of the contract × every road of the extension, in Node (the one table)', function () {
  const reference = useReferenceService();
  const stores: EngagementStore[] = [];
  /** The service's clock stands still unless a look's wait moves it (an accepted write's delay). */
  const advance: Sleep = (ms) => {
    reference.clock = new Date(reference.clock.getTime() + ms);
    return Promise.resolve();
  };
  const service = () => reference.service;
  const requests = (method: string, prefix = '/v1/engagements') =>
    service().requests.filter((r) => r.method === method && r.path.startsWith(prefix));
  const lists = () => service().requests.filter((r) => r.method === 'GET' && r.path === '/v1/engagements');
  const seeded = () => service().store.engagements;
  /** The tree's store as the user asked it (pages of 100; some readings answer in other sizes), refreshed. */
  async function treeStore(api: ServiceApi): Promise<EngagementStore> {
    const store = new EngagementStore({
      environmentId: () => 'env',
      api: () => api,
      hasKey: () => Promise.resolve(true),
      pageSize: () => 100,
      acceptedLooks: { sleep: advance },
    });
    stores.push(store);
    await store.refresh();
    assert.equal(store.snapshot().error, undefined);
    service().clearRequests();
    return store;
  }

  for (const name of READING_NAMES) {
    const reading: Reading = READINGS[name];
    /** Whether the reading lets a client read past the first page. */
    const pages = !reading.ignorePage;
    /** The service accepts writes (202) and applies them only a little later. */
    const later = acceptedDelay(reading) > 0;
    const writes = reading.writes ?? 'body';
    describe(`reading "${name}" ${JSON.stringify(reading)}`, () => {
      let api: ServiceApi;
      beforeEach(() => {
        reference.clock = new Date();
        service().setReading(reading);
        service().store.seedEngagements(TOTAL);
        api = reference.api({ backoffLimitMs: 20 });
      });
      afterEach(() => {
        for (const store of stores.splice(0)) store.dispose();
        service().setReading({});
      });

      /**
       * A write as the extension's flows report it: done, or accepted and tracked by the store
       * until the service shows it. `whilePending` sees the store while the write is pending.
       */
      async function settle(
        store: EngagementStore,
        outcome: WriteOutcome,
        whilePending: (write: AcceptedWrite) => void,
        shown: (result: WriteResult) => void,
      ): Promise<WriteResult> {
        if (!later) {
          assert.ok(!isAccepted(outcome), `done at once, not accepted: ${JSON.stringify(outcome)}`);
          shown(outcome);
          return outcome;
        }
        assert.ok(isAccepted(outcome), `accepted, not there yet: ${JSON.stringify(outcome)}`);
        const tracked: Promise<AcceptedOutcome> = store.track(outcome);
        whilePending(outcome);
        const end = await tracked;
        assert.equal(end.kind, 'shown', 'the pending row gives way to the engagement within the window');
        return (end as { result: WriteResult }).result;
      }

      it(`listAll (${name}): every engagement once, in the service order and its page size, or says why it cannot`, async () => {
        const all = await api.engagements.listAll({ pageSize: 100 });
        const ids = all.items.map((e) => e.id);
        assert.equal(new Set(ids).size, ids.length, 'no engagement twice');
        assert.equal(all.totalCount, TOTAL);
        if (!pages) {
          assert.equal(all.stop, 'ignoresPage');
          assert.equal(all.items.length, 100, 'what the first page held');
          assert.ok(all.requests <= 1 + 32, `bounded: ${all.requests} requests`);
          return;
        }
        assert.equal(all.stop, undefined);
        assert.deepEqual(
          ids,
          seeded().map((e) => e.id),
        );
        const perPage = reading.noPaging
          ? TOTAL
          : reading.ignorePageSize
            ? 25
            : Math.min(100, reading.pageSizeCap ?? 100);
        assert.equal(all.pageSize, perPage, 'the page size the service answers with');
        assert.equal(all.requests, Math.ceil(TOTAL / perPage), 'one request per page of the service');
        assert.ok(
          lists()
            .slice(1)
            .every((r) => r.query.pageSize === String(perPage)),
          'later pages asked in the service’s size',
        );
      });

      it(`listAll with no size named (${name}): asks big pages, steps down on a refusal, remembers the size taken`, async () => {
        const expected = WHOLE_SET[name];
        const all = await api.engagements.listAll();
        assert.equal(new Set(all.items.map((e) => e.id)).size, all.items.length, 'no engagement twice');
        assert.equal(all.totalCount, TOTAL);
        const asked = lists().map((r) => r.query.pageSize);
        assert.deepEqual(asked.slice(0, expected.refused + 1), ['1000', '100', '25'].slice(0, expected.refused + 1));
        if (!pages) {
          assert.equal(all.stop, 'ignoresPage');
          return;
        }
        assert.equal(all.stop, undefined);
        assert.deepEqual(
          all.items.map((e) => e.id),
          seeded().map((e) => e.id),
          'every engagement, in the service order',
        );
        const perPage = reading.noPaging ? TOTAL : expected.perPage;
        const pagesRead = Math.ceil(TOTAL / perPage);
        assert.equal(all.requests, expected.refused + pagesRead, 'one request per page, and one per refused size');
        assert.equal(lists().length, expected.refused + pagesRead);

        // The next read starts at the size this service took: no refused request again.
        service().clearRequests();
        const again = await api.engagements.listAll();
        assert.equal(again.items.length, TOTAL);
        assert.equal(again.requests, pagesRead);
        assert.equal(lists()[0].query.pageSize, ['1000', '100', '25'][expected.refused]);
      });

      it(`Load more (${name}): every engagement once, or the first page and why the rest is missing; a refresh keeps as many`, async () => {
        const store = await treeStore(api);
        for (let i = 0; i < 50 && store.snapshot().hasMore; i++) await store.loadMore();
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
        // A refresh keeps as many in view as before, in the service's pages.
        await store.refresh();
        assert.equal(store.snapshot().items.length, snapshot.items.length);
      });

      it(`create (${name}): sent once, shown (pending first when accepted), read back with as few requests as its answer allows`, async () => {
        const store = await treeStore(api);
        const title = `Made under ${name}`;
        const overlay = new PendingOverlay();
        const before = seeded().length;
        const outcome = await api.engagements.create({ name: title, type: 'quality-review', description: 'described' });
        assert.equal(requests('POST').length, 1, 'sent once');
        const result = await settle(
          store,
          outcome,
          (write) => {
            // Accepted, not there yet: a row of its own, marked pending, the name and type typed.
            assert.equal(write.pending, 'create');
            const rows = overlay.rows(store.snapshot());
            assert.equal(rows.length, 1, 'a pending row');
            assert.equal(rows[0].pending.write.input.name, title);
            assert.equal(rows[0].pending.write.input.type, 'quality-review');
            assert.equal(seeded().length, before, 'not made yet: the service applies it later');
          },
          (created) => store.upsert(created.engagement, true),
        );
        assert.equal(overlay.rows(store.snapshot()).length, 0, 'no longer pending');
        const made = seeded().filter((e) => e.name === title);
        assert.equal(made.length, 1, 'created once');
        assert.equal(seeded().length, before + 1);
        const id = made[0].id;
        assert.equal(result.engagement.id, id, 'the engagement the service made');
        assert.equal(seeded()[0].id, id, 'the newest');
        assert.equal(result.engagement.name, title);
        assert.equal(result.engagement.type, 'quality-review');
        // The notice "Created “…” (id)" says "the newest one with this name and type" only
        // when nothing named the engagement (a search found it).
        assert.equal(result.source, CREATE_SOURCE[writes]);
        assert.equal(result.accepted, ACCEPTED_WRITES.includes(writes));
        assert.ok(
          store.snapshot().items.some((e) => e.id === id),
          'the tree shows the engagement',
        );
        const log = service().requests.map((r) => `${r.method} ${r.path}`);
        checkCreateRequests(reading, log, id, { mostLooks: MOST_LOOKS, total: TOTAL });
        // Accepted and applied 1.2 s later: the look with the answer, and one per wait until then (0.5 s, 1.5 s).
        if (later && CREATE_SOURCE[writes] !== 'search')
          assert.deepEqual(log.slice(1), Array<string>(3).fill(`GET /v1/engagements/${id}`));
        if (CREATE_SOURCE[writes] === 'search')
          assert.ok(
            log.slice(1).every((r) => r === 'GET /v1/engagements'),
            'nothing named: only the list searched',
          );
      });

      it(`rename (${name}): sent once, the new name shown (pending first when accepted), then as the service holds it`, async () => {
        const store = await treeStore(api);
        const overlay = new PendingOverlay();
        const target = store.snapshot().items[2];
        const renamed = `Renamed under ${name}`;
        // As the rename flow does: the engagement read right before, its version the precondition.
        const fresh = await api.engagements.get(target.id);
        assert.equal(fresh.id, target.id);
        assert.equal(fresh.name, target.name);
        service().clearRequests();
        const outcome = await api.engagements.update(
          target.id,
          { name: renamed },
          { expectedUpdatedAt: fresh.updatedAt },
        );
        assert.equal(requests('PATCH').length, 1, 'sent once');
        const updated = await settle(
          store,
          outcome,
          (write) => {
            assert.deepEqual(write, {
              pending: 'update',
              id: target.id,
              changes: { name: renamed },
              sentAt: write.sentAt,
            });
            assert.equal(service().store.getEngagement(target.id)?.name, target.name, 'not changed yet');
            // Accepted, not applied yet: the row shows the new name, marked pending.
            const row = overlay.items(store.snapshot()).find((e) => e.id === target.id);
            assert.equal(row?.name, renamed);
            assert.ok(overlay.has(target.id), 'marked pending');
          },
          (result) => store.upsert(result.engagement),
        );
        assert.equal(updated.engagement.name, renamed);
        assert.equal(updated.source, writes === 'body' ? 'answer' : 'reread');
        // Read back when the answer was not the engagement: once, or once per look when applied later.
        assert.equal(requests('GET').length, writes === 'body' ? 0 : later ? 3 : 1);
        const row = overlay.items(store.snapshot()).find((e) => e.id === target.id);
        assert.equal(row?.name, renamed);
        assert.ok(!overlay.has(target.id), 'no longer pending');
        assert.equal(seeded().find((e) => e.id === target.id)?.name, renamed);
      });

      it(`status change (${name}): sent once, the completed icon shown, no longer pending`, async () => {
        const store = await treeStore(api);
        const overlay = new PendingOverlay();
        const target = store.snapshot().items.find((e) => e.status !== 'completed' && e.status !== 'archived')!;
        const outcome = await api.engagements.update(
          target.id,
          { status: 'completed' },
          { expectedUpdatedAt: target.updatedAt },
        );
        assert.equal(requests('PATCH').length, 1);
        const updated = await settle(
          store,
          outcome,
          () => {
            // Accepted, not applied yet: the row shows the new status, marked pending.
            const row = overlay.items(store.snapshot()).find((e) => e.id === target.id);
            assert.equal(row?.status, 'completed');
            assert.ok(overlay.has(target.id), 'marked pending');
          },
          (result) => store.upsert(result.engagement),
        );
        assert.equal(updated.engagement.status, 'completed');
        const row = overlay.items(store.snapshot()).find((e) => e.id === target.id);
        assert.equal(statusLook(row?.status ?? '').icon, 'pass-filled');
        assert.ok(!overlay.has(target.id), 'no longer pending');
        assert.equal(seeded().find((e) => e.id === target.id)?.status, 'completed');
      });

      it(`details (${name}): the engagement's name and status`, async () => {
        const target = seeded()[1];
        const view = detailsView(await api.engagements.get(target.id), {
          environment: 'Test',
          words: DETAILS_WORDS,
          readAt: Date.now(),
          canWrite: true,
        });
        assert.equal(view.id, target.id);
        assert.equal(view.error, undefined);
        assert.equal(view.name, target.name);
        assert.equal(view.fields.find((f) => f.label === 'Status')?.value, target.status);
      });

      it(`usage and export (${name}): the summary, by key, every record of the period once, or those the service will not page to said`, async () => {
        const summary = await api.usage.summary();
        assert.equal(typeof summary.usage.calls.used, 'number');
        const byKey = await api.usage.byKey();
        assert.ok(byKey.keys.length > 0);
        const period = summary.billingPeriod;
        const records = service().store.details(period);
        // As the export does: every page, then the CSV; records the service would not page to are counted.
        const all = await api.usage.detailsAll(period);
        const missing = all.stop ? all.totalCount - all.items.length : 0;
        const lines = toCsv(all.items).trimEnd().split('\r\n').slice(1);
        assert.equal(new Set(lines.map((l) => l.split(',')[0])).size, lines.length, 'no record twice');
        if (pages || records.length <= 100) {
          assert.equal(all.items.length, records.length);
          assert.equal(all.stop, undefined);
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
        const store = await treeStore(api);
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

      it(`the chat tools' whole set (${name}): all 230 over every page, each once, those of a status counted`, async () => {
        // The tools read the tree's store whole (src/chat/target.ts) and count what matched.
        service().store.seedEngagements(230);
        const store = new EngagementStore({
          environmentId: () => 'env',
          api: () => api,
          hasKey: () => Promise.resolve(true),
          pageSize: () => 100,
        });
        stores.push(store);
        const loaded = await store.loadAll();
        const { items, complete, totalCount } = store.snapshot();
        assert.equal(totalCount, 230);
        if (!pages) {
          // The tool says what it could read; the tree's and Go to's words for it are above.
          assert.equal(complete, false);
          return;
        }
        assert.equal(loaded, true);
        assert.equal(complete, true);
        assert.equal(new Set(items.map((e) => e.id)).size, 230, '"230 of the 230 engagements matched"');
        const completed = seeded().filter((e) => e.status === 'completed').length;
        assert.equal(items.filter((e) => e.status === 'completed').length, completed, 'those of a status counted');
      });

      it(`the service says no (${name}): its own words reach the user, whatever the body format, beside the field they name`, async () => {
        const format = reading.errorBodies ?? 'json';
        const reason = nameReason(format);
        // A create and a rename refused: the name box's reason, or the reason in the message.
        const typed = `Refused under ${name} `.padEnd(NAME_MAX_LENGTH + 1, '…');
        const create = await rejectsWith(
          api.engagements.create({ name: typed, type: 'onboarding', description: 'kept' }),
          'invalidRequest',
        );
        assert.notEqual(create.status, undefined, 'the service’s refusal, not a check made before sending');
        if (reason) assert.equal(create.fieldErrors?.name, reason, 'the name box’s reason');
        else {
          // Text and pages name no field: "Could not create “…”. The request was refused: …".
          assert.equal(create.fieldErrors?.name, undefined);
          assert.match(create.serverMessage ?? '', /name must have at most 200 characters/);
        }
        assert.equal(requests('POST').length, 1, 'sent once');
        assert.ok(!seeded().some((e) => e.name === typed), 'nothing created');
        const target = seeded()[0];
        const before = target.name;
        const rename = await rejectsWith(
          api.engagements.update(target.id, { name: 'r'.repeat(NAME_MAX_LENGTH + 1) }),
          'invalidRequest',
        );
        if (reason) assert.equal(rename.fieldErrors?.name, reason, 'the name box’s reason');
        else assert.match(rename.serverMessage ?? '', /name must have at most 200 characters/);
        assert.equal(requests('PATCH').length, 1, 'sent once');
        assert.equal(service().store.getEngagement(target.id)?.name, before, 'not renamed');
        const status = await rejectsWith(
          api.engagements.update(target.id, { status: 'not-a-status' }),
          'invalidRequest',
        );
        if (reason) assert.match(status.fieldErrors?.status ?? '', /must be one of/);
        else assert.match(status.serverMessage ?? '', /status must be one of/);
        // A query parameter refused: named as a field too, except by Rails (its full messages name none).
        const period = await rejectsWith(api.usage.byKey('2999-01'), 'invalidRequest');
        if (reason && format !== 'rails') assert.match(period.fieldErrors?.billingPeriod ?? '', /in the future/);
        else assert.match(period.serverMessage ?? '', /billingPeriod is in the future/);
        const unknown = await rejectsWith(
          reference.api({ getKey: () => 'key_nobody.not-a-key-1234' }).engagements.list(),
          'unauthorized',
        );
        assert.match(unknown.serverMessage ?? '', /The API key is not valid/);
        const forbidden = await rejectsWith(
          reference
            .api({ getKey: () => service().keys.readOnly })
            .engagements.create({ name: 'Not allowed', type: 'onboarding' }),
          'forbidden',
        );
        assert.equal(forbidden.scope, 'engagements:write');
        assert.match(forbidden.serverMessage ?? '', /This API key lacks the scope engagements:write/);
        const missing = await rejectsWith(api.engagements.get('eng_missing'), 'notFound');
        assert.equal(missing.status, 404);
        assert.match(missing.serverMessage ?? '', /No engagement with id "eng_missing"/);
        // The key is revoked on the service's side.
        service().store.removeKey('key_admin');
        const revoked = await rejectsWith(
          api.engagements.update(target.id, { name: 'After revoking' }),
          'unauthorized',
        );
        assert.equal(revoked.status, 401);
        assert.match(revoked.serverMessage ?? '', /The API key is not valid/);
        const errors: ApiError[] = [create, rename, status, period, unknown, forbidden, missing, revoked];
        for (const error of errors) {
          const said = [error.serverMessage ?? '', ...Object.values(error.fieldErrors ?? {})].join(' | ');
          assert.doesNotMatch(said, /<[a-z]/i, 'no markup');
          assert.doesNotMatch(said, /[{[]\s*"/, 'no JSON');
        }
      });
    });
  }
});
