// The whole client against every reading the reference service speaks (test/service/readings.ts):
// each way a real service may fill in what the contract leaves open. Nothing here may pass
// only because the service reads the contract the way we would.
import assert from 'node:assert/strict';
import { ServiceApi } from '../../src/api/service';
import { EngagementStore } from '../../src/engagements/store';
import type { WriteResult, WriteSource } from '../../src/api/types';
import { type AcceptedOutcome, lookAgain, type Sleep } from '../../src/engagements/accepted';
import { ACCEPTED_WRITES, acceptedDelay, type WriteAnswer } from '../service/readings';
import {
  NAME_MAX_LENGTH,
  READINGS,
  READING_NAMES,
  type Reading,
  type ReadingName,
  type RunningService,
} from '../service/server';
import { rejectsWith } from './support/apiErrors';
import { closedPort, startLoopbackServer } from './support/loopback';
import { useReferenceService } from './support/referenceService';
import { done, pending } from './support/writes';

const TOTAL = 137;

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

const live = () => new AbortController().signal;

function shown(outcome: AcceptedOutcome): WriteResult {
  assert.equal(outcome.kind, 'shown', 'the service shows the accepted write within the window');
  return outcome.result;
}

/** Whether the reading lets a client read past the first page. */
const pages = (reading: Reading) => !reading.ignorePage;

describe('API client under every reading of the contract', function () {
  let service: RunningService;
  let api: ServiceApi;
  const reference = useReferenceService();

  for (const name of READING_NAMES) {
    const reading: Reading = READINGS[name];
    describe(`reading "${name}" ${JSON.stringify(reading)}`, () => {
      beforeEach(() => {
        service = reference.service;
        service.setReading(reading);
        service.store.seedEngagements(TOTAL);
        api = reference.api({ backoffLimitMs: 20 });
      });
      afterEach(() => service.setReading({}));

      it('listAll: every engagement once, in the service order, or says why it cannot', async () => {
        const all = await api.engagements.listAll({ pageSize: 100 });
        const ids = all.items.map((e) => e.id);
        assert.equal(new Set(ids).size, ids.length, 'no engagement twice');
        assert.equal(all.totalCount, TOTAL);
        if (pages(reading)) {
          assert.equal(all.stop, undefined);
          assert.deepEqual(
            ids,
            service.store.engagements.map((e) => e.id),
          );
          const perPage = reading.noPaging
            ? TOTAL
            : reading.ignorePageSize
              ? 25
              : Math.min(100, reading.pageSizeCap ?? 100);
          assert.equal(all.pageSize, perPage, 'the page size the service answers with');
          assert.equal(all.requests, Math.ceil(TOTAL / perPage), 'one request per page of the service');
          const lists = service.requests.filter((r) => r.method === 'GET' && r.path === '/v1/engagements');
          assert.ok(
            lists.slice(1).every((r) => r.query.pageSize === String(perPage)),
            'later pages asked in the service’s size',
          );
        } else {
          assert.equal(all.stop, 'ignoresPage');
          assert.equal(all.items.length, 100, 'what the first page held');
          assert.ok(all.requests <= 1 + 32, `bounded: ${all.requests} requests`);
        }
      });

      it('listAll with no size named: asks big pages, steps down on a refusal, remembers the size taken', async () => {
        const expected = WHOLE_SET[name];
        const lists = () => service.requests.filter((r) => r.method === 'GET' && r.path === '/v1/engagements');
        const all = await api.engagements.listAll();
        assert.equal(new Set(all.items.map((e) => e.id)).size, all.items.length, 'no engagement twice');
        assert.equal(all.totalCount, TOTAL);
        const asked = lists().map((r) => r.query.pageSize);
        assert.deepEqual(asked.slice(0, expected.refused + 1), ['1000', '100', '25'].slice(0, expected.refused + 1));
        if (!pages(reading)) {
          assert.equal(all.stop, 'ignoresPage');
          return;
        }
        assert.equal(all.stop, undefined);
        assert.deepEqual(
          all.items.map((e) => e.id),
          service.store.engagements.map((e) => e.id),
          'every engagement, in the service order',
        );
        const perPage = reading.noPaging ? TOTAL : expected.perPage;
        const pagesRead = Math.ceil(TOTAL / perPage);
        assert.equal(all.requests, expected.refused + pagesRead, 'one request per page, and one per refused size');
        assert.equal(lists().length, expected.refused + pagesRead);

        // The next read starts at the size this service took: no refused request again.
        service.clearRequests();
        const again = await api.engagements.listAll();
        assert.equal(again.items.length, TOTAL);
        assert.equal(again.requests, pagesRead);
        assert.equal(lists()[0].query.pageSize, ['1000', '100', '25'][expected.refused]);
      });

      it('the tree store: Load more until everything is shown, or says why not', async () => {
        const store = new EngagementStore({
          environmentId: () => 'env',
          api: () => api,
          hasKey: () => Promise.resolve(true),
          pageSize: () => 100,
        });
        await store.refresh();
        for (let i = 0; i < 50 && store.snapshot().hasMore; i++) await store.loadMore();
        const snapshot = store.snapshot();
        assert.equal(snapshot.error, undefined);
        assert.equal(new Set(snapshot.items.map((e) => e.id)).size, snapshot.items.length);
        if (pages(reading)) {
          assert.equal(snapshot.items.length, TOTAL, 'nothing lost');
          assert.equal(snapshot.stop, undefined);
        } else {
          assert.equal(snapshot.items.length, 100, 'the first page');
          assert.equal(snapshot.hasMore, false, 'no Load more that would loop');
          assert.ok(snapshot.stop, 'the view can say why the rest is missing');
          assert.equal(snapshot.totalCount, TOTAL);
        }
        // A refresh keeps as many in view as before, in the service's pages.
        await store.refresh();
        assert.equal(store.snapshot().items.length, snapshot.items.length);
      });

      it('get, create and update: each write sent once, read back with as few requests as its answer allows', async () => {
        const target = service.store.engagements[3];
        const got = await api.engagements.get(target.id);
        assert.equal(got.id, target.id);
        assert.equal(got.name, target.name);

        // The service's clock stands still unless a look's wait moves it (an accepted write's delay).
        reference.clock = new Date();
        const advance: Sleep = (ms) => {
          reference.clock = new Date(reference.clock.getTime() + ms);
          return Promise.resolve();
        };
        const writes = reading.writes ?? 'body';
        const later = acceptedDelay(reading) > 0;
        const before = service.store.engagements.length;
        service.clearRequests();
        const outcome = await api.engagements.create({
          name: 'Reading check',
          type: 'quality-review',
          description: 'made under a reading',
        });
        let created: WriteResult;
        if (later) {
          const accepted = pending(outcome);
          assert.equal(accepted.pending, 'create');
          assert.equal(service.store.engagements.length, before, 'not made yet: the service applies it later');
          created = shown(
            await lookAgain((signal) => api.engagements.findAccepted(accepted, { signal }), live(), { sleep: advance }),
          );
        } else created = done(outcome);
        assert.equal(created.engagement.name, 'Reading check');
        assert.equal(created.engagement.type, 'quality-review');
        assert.equal(created.engagement.id, service.store.engagements[0].id, 'the engagement the service made');
        assert.equal(service.store.engagements.length, before + 1, 'created once');
        assert.equal(service.requests.filter((r) => r.method === 'POST').length, 1);
        assert.equal(created.source, CREATE_SOURCE[writes]);
        assert.equal(created.accepted, ACCEPTED_WRITES.includes(writes));
        const id = created.engagement.id;
        const reads = service.requests.filter((r) => r.method === 'GET').map((r) => r.path);
        if (writes === 'body') assert.deepEqual(reads, [], 'the answer was the engagement: nothing read back');
        else if (CREATE_SOURCE[writes] === 'search')
          assert.ok(
            reads.length > 0 && reads.every((path) => path === '/v1/engagements'),
            `nothing named: the list searched (${reads.length} requests)`,
          );
        else if (later)
          // The look with the answer, and one per wait until the delay has passed (0.5 s, 1.5 s).
          assert.deepEqual(reads, [`/v1/engagements/${id}`, `/v1/engagements/${id}`, `/v1/engagements/${id}`]);
        else assert.deepEqual(reads, [`/v1/engagements/${id}`], 'the answer named it: exactly one GET of it');

        service.clearRequests();
        const changes = { name: 'Renamed under a reading', status: 'completed' };
        const changed = await api.engagements.update(target.id, changes);
        let updated: WriteResult;
        if (later) {
          const accepted = pending(changed);
          assert.deepEqual(accepted, { pending: 'update', id: target.id, changes, sentAt: accepted.sentAt });
          assert.equal(service.store.getEngagement(target.id)?.name, target.name, 'not changed yet');
          updated = shown(
            await lookAgain((signal) => api.engagements.findAccepted(accepted, { signal }), live(), { sleep: advance }),
          );
        } else updated = done(changed);
        assert.equal(updated.engagement.name, 'Renamed under a reading');
        assert.equal(updated.engagement.status, 'completed');
        assert.equal(service.requests.filter((r) => r.method === 'PATCH').length, 1, 'sent once');
        assert.equal(updated.source, writes === 'body' ? 'answer' : 'reread');
        const rereads = service.requests.filter((r) => r.method === 'GET').length;
        assert.equal(rereads, writes === 'body' ? 0 : later ? 3 : 1);
      });

      it('usage: summary, by-key and every detail record', async () => {
        const summary = await api.usage.summary();
        assert.equal(typeof summary.usage.calls.used, 'number');
        const byKey = await api.usage.byKey();
        assert.ok(byKey.keys.length > 0);
        const period = summary.billingPeriod;
        const all = await api.usage.detailsAll(period);
        const total = service.store.details(period).length;
        if (pages(reading) || total <= 25) {
          assert.equal(all.items.length, total);
          assert.equal(all.stop, undefined);
        } else {
          assert.equal(all.stop, 'ignoresPage');
          assert.ok(all.items.length < total);
        }
      });

      it('errors: the service’s own words reach the user, whatever the body format, beside the field they name', async () => {
        // Every form but text and HTML pages names the field it refuses.
        const namesFields = !['text', 'html'].includes(reading.errorBodies ?? 'json');
        const shown = (e: { serverMessage?: string; fieldErrors?: Record<string, string> }) =>
          [e.serverMessage ?? '', ...Object.values(e.fieldErrors ?? {})].join(' | ');
        const status = await rejectsWith(
          api.engagements.update(service.store.engagements[0].id, { status: 'not-a-status' }),
          'invalidRequest',
        );
        if (namesFields) assert.match(status.fieldErrors?.status ?? '', /must be one of/);
        else assert.match(status.serverMessage ?? '', /status must be one of/);
        const name = await rejectsWith(
          api.engagements.create({ name: 'N'.repeat(NAME_MAX_LENGTH + 1), type: 'onboarding' }),
          'invalidRequest',
        );
        if (namesFields) assert.match(name.fieldErrors?.name ?? '', /at most 200 characters/);
        else assert.match(name.serverMessage ?? '', /name must have at most 200 characters/);
        // A query parameter refused: named as a field too, except by Rails (its full messages name none).
        const period = await rejectsWith(api.usage.byKey('2999-01'), 'invalidRequest');
        if (namesFields && reading.errorBodies !== 'rails')
          assert.match(period.fieldErrors?.billingPeriod ?? '', /in the future/);
        else assert.match(period.serverMessage ?? '', /billingPeriod is in the future/);
        const rejected = await rejectsWith(
          reference.api({ getKey: () => 'key_nobody.not-a-key-1234' }).engagements.list(),
          'unauthorized',
        );
        assert.match(rejected.serverMessage ?? '', /The API key is not valid/);
        const forbidden = await rejectsWith(
          reference.api({ getKey: () => service.keys.readOnly }).engagements.create({ name: 'x', type: 'y' }),
          'forbidden',
        );
        assert.equal(forbidden.scope, 'engagements:write');
        assert.match(forbidden.serverMessage ?? '', /lacks the scope engagements:write/);
        const missing = await rejectsWith(api.engagements.get('eng_missing'), 'notFound');
        assert.equal(missing.status, 404);
        assert.match(missing.serverMessage ?? '', /No engagement with id "eng_missing"/);
        for (const error of [status, name, period, rejected, forbidden, missing]) {
          assert.doesNotMatch(shown(error), /<[a-z]/i, 'no markup');
          assert.doesNotMatch(shown(error), /[{[]\s*"/, 'no JSON');
        }
      });
    });
  }
});

describe('paging that follows the service', function () {
  let service: RunningService;
  let api: ServiceApi;
  const reference = useReferenceService();
  beforeEach(() => {
    service = reference.service;
    service.store.seedEngagements(TOTAL);
    api = reference.api();
  });

  it('a service that says it answered the page asked for but repeats the first: stops, nothing twice', async () => {
    const first = service.store.engagements.slice(0, 25);
    service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      transform: (_body, query) => ({ data: first, page: Number(query.page ?? 1), pageSize: 25, totalCount: TOTAL }),
    });
    const all = await api.engagements.listAll({ pageSize: 25 });
    assert.equal(all.items.length, 25);
    assert.equal(all.stop, 'repeatsPages');
  });

  it('a total that grows while reading: the extra pages are read too', async () => {
    let calls = 0;
    service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      transform: (body) => {
        calls++;
        // After the first page, the service reports 30 more than it had.
        if (calls === 2) service.store.seedEngagements(TOTAL + 30);
        return body;
      },
    });
    const all = await api.engagements.listAll({ pageSize: 50, concurrency: 1 });
    assert.equal(new Set(all.items.map((e) => e.id)).size, all.items.length);
    assert.ok(all.items.length >= TOTAL, `${all.items.length} read`);
    assert.ok(all.requests <= 10);
  });

  it('a total that shrinks: stops at the last item, no endless reading', async () => {
    service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      times: 1,
      transform: (body) => ({ ...(body as object), totalCount: 500 }),
    });
    const all = await api.engagements.listAll({ pageSize: 50 });
    assert.equal(all.items.length, TOTAL);
    assert.ok(all.requests <= 12, `${all.requests} requests`);
  });

  it('a bare array for the engagement list: read page by page until a short page', async () => {
    service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      transform: (body) => (body as { data: unknown[] }).data,
    });
    const all = await api.engagements.listAll({ pageSize: 50 });
    assert.equal(all.items.length, TOTAL);
    assert.deepEqual(
      all.items.map((e) => e.id),
      service.store.engagements.map((e) => e.id),
    );
  });

  it('the size a service took is kept across clients sharing the memory (another environment, a new key), per base URL', async () => {
    const listSizes = new Map<string, number>();
    const client = () =>
      new ServiceApi({ baseUrl: service.baseUrl, getKey: () => service.keys.admin, retryLimit: 0, listSizes });
    const sizesAsked = () => service.requests.map((r) => `${r.status} ${r.query.pageSize}`);
    await client().engagements.listAll();
    assert.deepEqual(sizesAsked(), ['400 1000', '200 100', '200 100']);
    service.clearRequests();
    await client().engagements.listAll();
    assert.deepEqual(sizesAsked(), ['200 100', '200 100'], 'no size asked that this service refused');
    service.clearRequests();
    // A client of its own remembers nothing of the others.
    await new ServiceApi({
      baseUrl: service.baseUrl,
      getKey: () => service.keys.admin,
      retryLimit: 0,
    }).engagements.listAll();
    assert.deepEqual(sizesAsked(), ['400 1000', '200 100', '200 100']);
    assert.deepEqual([...listSizes.keys()], [service.baseUrl.replace(/\/+$/, '')]);
  });

  it('a bare array from a service that puts at most 100 on a page, asked for 1,000: reads on past the short first page', async () => {
    service.setReading({ pageSizeCap: 100 });
    service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      transform: (body) => (body as { data: unknown[] }).data,
    });
    try {
      const all = await api.engagements.listAll();
      assert.equal(all.items.length, TOTAL, 'not only the first 100');
      assert.equal(all.stop, undefined);
      const asked = service.requests.map((r) => `${r.query.page}×${r.query.pageSize}`);
      assert.deepEqual(asked, ['1×1000', '2×100']);
    } finally {
      service.setReading({});
    }
  });

  it('a bare array shorter than the size asked and nothing after it: one more request, then done', async () => {
    service.store.seedEngagements(7);
    service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      transform: (body) => (body as { data: unknown[] }).data,
    });
    const all = await api.engagements.listAll();
    assert.equal(all.items.length, 7);
    assert.equal(all.totalCount, 7);
    assert.equal(all.stop, undefined);
    assert.deepEqual(
      service.requests.map((r) => `${r.status} ${r.query.page}×${r.query.pageSize}`),
      ['400 1×1000', '200 1×100', '200 2×7'],
    );
  });

  it('paging fields under `meta`', async () => {
    service.faults.add({
      method: 'GET',
      path: /^\/engagements$/,
      kind: 'transform',
      transform: (body) => {
        const { data, ...meta } = body as { data: unknown[] };
        return { data, meta };
      },
    });
    const all = await api.engagements.listAll({ pageSize: 40 });
    assert.equal(all.items.length, TOTAL);
  });
});

describe('writes whose answers name no engagement, and writes whose outcome is unknown', function () {
  let service: RunningService;
  let api: ServiceApi;
  const reference = useReferenceService();
  beforeEach(() => {
    service = reference.service;
    api = reference.api({ timeoutMs: 600, retryLimit: 0 });
  });

  it('a Location on another origin is never followed: the key goes nowhere else', async () => {
    const other = await startLoopbackServer();
    try {
      service.setReading({ writes: 'location' });
      for (const location of [
        `${other.origin}/v1/engagements/x`,
        `//127.0.0.1:${other.port}/v1/engagements/x`,
        '/v2/engagements/x',
        '/v1/other/x',
      ]) {
        service.faults.add({
          method: 'POST',
          kind: 'status',
          status: 201,
          body: '',
          headers: { Location: location },
          times: 1,
        });
        // Ours answers 201 with no body: nothing names an engagement, so none is made… and none found.
        await rejectsWith(api.engagements.create({ name: `Lost ${location}`, type: 'x' }), 'badResponse');
      }
      assert.deepEqual(other.received, [], 'the foreign server got no request');
      assert.ok(
        service.requests.every((r) => !r.path.includes('/x')),
        'no read of a Location outside the base URL',
      );
    } finally {
      await other.close();
    }
  });

  it('a create that timed out is unknown, and findCreated finds it when it was made', async () => {
    service.faults.add({ method: 'POST', kind: 'latency', ms: 1500, times: 1 });
    const sentAt = Date.now();
    const error = await rejectsWith(api.engagements.create({ name: 'Slow create', type: 'onboarding' }), 'timeout');
    assert.equal(error.writeOutcome, 'unknown');
    // The service carries it out after the client gave up.
    for (let i = 0; i < 40 && !service.store.engagements.some((e) => e.name === 'Slow create'); i++)
      await new Promise((r) => setTimeout(r, 50));
    const found = await api.engagements.findCreated({ name: 'Slow create', type: 'onboarding' }, sentAt);
    assert.equal(found?.name, 'Slow create');
    assert.equal(await api.engagements.findCreated({ name: 'Never made', type: 'onboarding' }, sentAt), undefined);
  });

  it('a 500 on PATCH is unknown; checkUpdate tells whether it was applied', async () => {
    const target = service.store.engagements[0];
    service.faults.add({ method: 'PATCH', kind: 'status', status: 503, times: 1 });
    const error = await rejectsWith(api.engagements.update(target.id, { name: 'Maybe' }), 'server');
    assert.equal(error.writeOutcome, 'unknown');
    assert.equal((await api.engagements.checkUpdate(target.id, { name: 'Maybe' })).applied, false);
    service.store.updateEngagement(target.id, { name: 'Maybe' });
    assert.equal((await api.engagements.checkUpdate(target.id, { name: 'Maybe' })).applied, true);
  });

  it('a refused connection is certainly not applied; a 4xx neither', async () => {
    const port = await closedPort();
    const offline = new ServiceApi({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      getKey: () => 'k-123456',
      timeoutMs: 500,
      retryLimit: 0,
    });
    const refused = await rejectsWith(offline.engagements.create({ name: 'x', type: 'y' }), 'network');
    assert.equal(refused.writeOutcome, undefined);
    const invalid = await rejectsWith(
      api.engagements.update(service.store.engagements[0].id, { status: 'nope' }),
      'invalidRequest',
    );
    assert.equal(invalid.writeOutcome, undefined);
  });

  it('a 2xx whose body is not an engagement is read back, not reported as a failure', async () => {
    const target = service.store.engagements[0];
    service.faults.add({ method: 'PATCH', kind: 'transform', times: 1, transform: () => ({ ok: true }) });
    const result = done(await api.engagements.update(target.id, { name: 'Read back' }));
    assert.equal(result.source, 'reread');
    assert.equal(result.engagement.name, 'Read back');
  });

  it('a PATCH carries the expected version: a change made meanwhile answers 412 (conflict)', async () => {
    const target = await api.engagements.get(service.store.engagements[0].id);
    service.store.updateEngagement(target.id, { name: 'Changed by someone else' });
    const error = await rejectsWith(
      api.engagements.update(target.id, { status: 'completed' }, { expectedUpdatedAt: target.updatedAt }),
      'conflict',
    );
    assert.equal(error.status, 412);
    const patch = service.requests.find((r) => r.method === 'PATCH');
    assert.ok(patch, 'sent');
    assert.equal(service.store.getEngagement(target.id)?.status, target.status, 'not overwritten');
  });
});
