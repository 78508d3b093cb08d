// The usage records table and the whole-set reads against services that page the way real
// frameworks page (issue 38): json-server sending every record as a bare array whatever `page`
// and `pageSize` say, a service capping pages at 50 when 100 are asked, one answering page 1 to
// every page, one paging bare arrays without a total, and one answering a page past the end
// with 404 "Invalid page." as Django REST framework does. Real HTTP on loopback, no mocks. What
// is asserted is what the user sees in the dashboard's records section (its state, computed by
// the vscode-free `readRecordsPage`): no record twice, and no total the service did not give or
// the client did not count.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceApi } from '../../src/api/service';
import type { UsageRecord } from '../../src/api/types';
import type { EngagementStore } from '../../src/engagements/store';
import { type EngagementCache, engagementCache } from '../../src/engagements/store';
import { READINGS, type ReadingName } from '../service/readings';
import { jsonServerRows, startJsonServer } from '../frameworks/jsonServer';
import { JsonMemento } from './support/memento';
import { type Walk, walkRecords } from './support/recordsWalk';
import { useReferenceService } from './support/referenceService';
import { storeOver } from './support/store';

const PERIOD = '2026-10';
const COUNT = 260;

function records(count: number): UsageRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `rec_${String(i + 1).padStart(4, '0')}`,
    endpoint: i % 2 ? '/v1/engagements' : '/v1/usage/summary',
    statusCode: 200,
  }));
}

interface Loopback {
  baseUrl: string;
  /** Every request received, as `path?query`. */
  requests: string[];
  close(): Promise<void>;
}

async function listen(server: Server, requests: string[], prefix = ''): Promise<Loopback> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${prefix}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** How a small loopback service answers `GET /v1/usage/details?page&pageSize` over `all`. */
type Answer = (all: UsageRecord[], page: number, pageSize: number) => { status: number; body: unknown };

const slice = (all: UsageRecord[], page: number, size: number) => all.slice((page - 1) * size, page * size);

const SERVICES: Record<string, Answer> = {
  /** The contract's envelope, but never more than 50 a page, and it does not say its page size. */
  'caps pages at 50 and says only its total': (all, page, pageSize) => ({
    status: 200,
    body: { items: slice(all, page, Math.min(50, pageSize)), total: all.length },
  }),
  /** Page 1 to every page asked, with its total. */
  'answers page 1 to every page': (all, _page, pageSize) => ({
    status: 200,
    body: { data: slice(all, 1, pageSize), page: 1, pageSize, totalCount: all.length },
  }),
  /** Pages as bare arrays: no total, no page number. */
  'pages bare arrays without a total': (all, page, pageSize) => ({ status: 200, body: slice(all, page, pageSize) }),
  /** Django REST framework's page: `count`, `next`, `results`; a page past the end is 404 "Invalid page.". */
  'answers 404 past the end (Django REST)': (all, page, pageSize) => {
    const last = Math.max(1, Math.ceil(all.length / pageSize));
    if (page > last) return { status: 404, body: { detail: 'Invalid page.' } };
    return {
      status: 200,
      body: { count: all.length, next: page < last ? `?page=${page + 1}` : null, results: slice(all, page, pageSize) },
    };
  },
};

async function startLoopback(all: UsageRecord[], answer: Answer): Promise<Loopback> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(`${url.pathname}${url.search}`);
    if (url.pathname !== '/v1/usage/details') {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"detail":"Not found."}');
      return;
    }
    const { status, body } = answer(
      all,
      Number(url.searchParams.get('page')),
      Number(url.searchParams.get('pageSize')),
    );
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  return listen(server, requests);
}

/**
 * What the user sees never shows a record on two pages (a page shown again as itself, after a
 * Next that found nothing beyond it, is that page), nor a total other than the one said or counted.
 */
function assertHonest(result: Walk, said: number | undefined, count: number): void {
  const pageOf = new Map<string, number>();
  for (const data of result.shown)
    for (const record of data.records) {
      const id = String(record.id);
      assert.equal(pageOf.get(id) ?? data.page, data.page, `${id} shown on page ${pageOf.get(id)} and ${data.page}`);
      pageOf.set(id, data.page);
    }
  for (const data of result.shown) {
    if (data.totalCount !== undefined)
      assert.ok(
        data.totalCount === said || data.totalCount === count,
        `total ${data.totalCount} is neither said (${said}) nor counted (${count})`,
      );
    assert.ok(data.records.length <= Math.max(data.pageSize, 100), 'a page no larger than its size');
  }
}

const api = (baseUrl: string) => new ServiceApi({ baseUrl, getKey: () => 'loopback-key', timeoutMs: 5000 });

/** The Engagements view's store over the service at `baseUrl`, 50 engagements a page (the first page saved in `cache`). */
const storeOn = (baseUrl: string, cache?: EngagementCache) => storeOver(api(baseUrl), { pageSize: () => 50, cache });

describe('Usage records paged as the service really pages them (unit, loopback)', function () {
  this.timeout(30_000);
  const all = records(COUNT);
  let service: Loopback;
  afterEach(async () => {
    await service?.close();
  });

  describe('json-server: every record as a bare array, whatever page and pageSize say', () => {
    beforeEach(async () => {
      service = await startJsonServer({ details: all });
    });

    it('the records table shows 1–25 of 260, then each page once, paged here: no page asked again', async () => {
      const result = await walkRecords(api(service.baseUrl), 1, 25, PERIOD);
      assertHonest(result, undefined, COUNT);
      assert.deepEqual(
        result.ids,
        all.map((r) => r.id),
        'every record once, in order',
      );
      assert.equal(result.shown.length, 11);
      assert.deepEqual(
        result.shown.map((d) => [d.page, d.totalCount]),
        Array.from({ length: 11 }, (_, i) => [i + 1, COUNT]),
        'page 2 of 11 is page 2, of 260 (not 286)',
      );
      // Page 1 and the look that told the list is whole; every other page is cut from it.
      assert.equal(service.requests.length, 2, service.requests.join('\n'));
    });

    it('a restored page 98 shows the last page, 11 of 11', async () => {
      const result = await walkRecords(api(service.baseUrl), 98, 25, PERIOD);
      assert.equal(result.shown[0].page, 11);
      assert.equal(result.shown[0].totalCount, COUNT);
      assert.deepEqual(
        result.ids,
        all.slice(250).map((r) => r.id),
      );
    });

    it('export and the filter’s scan read all 260 in one request, never asking a page size above 100', async () => {
      const read = await api(service.baseUrl).usage.detailsAll(PERIOD);
      assert.equal(read.items.length, COUNT);
      assert.equal(read.totalCount, COUNT);
      assert.equal(read.stop, undefined, 'nothing said missing');
      assert.deepEqual(service.requests, [`GET /v1/usage/details?billingPeriod=${PERIOD}&page=1&pageSize=100`]);
    });

    it('the engagements read whole say all 230 were read, not "230 of 231"', async () => {
      await service.close();
      service = await startJsonServer({ engagements: jsonServerRows(230) });
      const store = storeOn(service.baseUrl);
      try {
        assert.equal(await store.loadAll(), true);
        const snapshot = store.snapshot();
        assert.equal(snapshot.items.length, 230);
        assert.equal(snapshot.totalCount, 230, 'Showing 230 of 230');
        assert.equal(snapshot.complete, true);
        assert.equal(snapshot.hasMore, false, 'no Load more');
        assert.equal(snapshot.stop, undefined);
      } finally {
        store.dispose();
      }
    });
  });

  for (const [name, answer] of Object.entries(SERVICES)) {
    describe(`a service that ${name}`, () => {
      beforeEach(async () => {
        service = await startLoopback(all, answer);
      });

      it(`the records table shows no record twice and only a total said or counted, pages of 100 (${name})`, async () => {
        const result = await walkRecords(api(service.baseUrl), 1, 100, PERIOD);
        const said = name.includes('page 1 to every page') || !name.includes('without a total') ? COUNT : undefined;
        assertHonest(result, said, name.includes('page 1 to every page') ? 100 : COUNT);
        if (name.includes('page 1 to every page')) {
          // Next asked page 2 and got page 1 again: page 1 is what it can show, and Next is gone.
          assert.deepEqual(
            [...new Set(result.ids)],
            all.slice(0, 100).map((r) => r.id),
          );
          assert.equal(result.shown.at(-1)?.totalCount, 100, 'the records it can show, counted');
          assert.equal(result.shown.at(-1)?.page, 1);
          assert.equal(result.shown.at(-1)?.hasNext, false);
        } else {
          assert.deepEqual(
            result.ids,
            all.map((r) => r.id),
            'every record once, in order',
          );
          assert.equal(result.shown.at(-1)?.totalCount, COUNT);
        }
        for (const r of service.requests) assert.ok(!/pageSize=(\d{4,}|[2-9]\d\d|1[1-9]\d|10[1-9])/.test(r), r);
      });

      it(`a restored page 98 shows the last page, whose records are the last ones (${name})`, async () => {
        const result = await walkRecords(api(service.baseUrl), 98, 25, PERIOD);
        const first = result.shown[0];
        if (name.includes('page 1 to every page')) {
          assert.equal(first.page, 1);
          assert.deepEqual(
            first.records.map((r) => r.id),
            all.slice(0, 25).map((r) => r.id),
          );
        } else {
          const size = first.pageSize;
          assert.equal(first.page, Math.ceil(COUNT / size), `page ${first.page} of ${Math.ceil(COUNT / size)}`);
          assert.equal(first.totalCount, COUNT);
          assert.deepEqual(
            first.records.map((r) => r.id),
            all.slice((first.page - 1) * size).map((r) => r.id),
          );
          assert.equal(first.hasNext, false);
        }
        assert.ok(service.requests.length <= 12, `${service.requests.length} requests`);
      });

      it(`export reads every record it can, each once, never asking a page size above 100 (${name})`, async () => {
        const read = await api(service.baseUrl).usage.detailsAll(PERIOD);
        assert.equal(new Set(read.items.map((r) => r.id)).size, read.items.length, 'each once');
        if (!name.includes('page 1 to every page')) {
          assert.equal(read.items.length, COUNT);
          assert.equal(read.totalCount, COUNT);
        }
        for (const r of service.requests) assert.ok(!/pageSize=(\d{4,}|[2-9]\d\d|1[1-9]\d|10[1-9])/.test(r), r);
      });
    });
  }

  describe('a service that pages bare arrays without a total', () => {
    beforeEach(async () => {
      service = await startLoopback(all, SERVICES['pages bare arrays without a total']);
    });

    it('page 2 shows "Records 26–50" with no "of N" until the end is known, then "of 260" as counted', async () => {
      const result = await walkRecords(api(service.baseUrl), 1, 25, PERIOD);
      assert.equal(result.shown[1].page, 2);
      assert.equal(result.shown[1].totalCount, undefined, 'no total while the end is not known (not 51)');
      assert.equal(result.shown[1].hasNext, true);
      assert.ok(result.shown.slice(0, -1).every((d) => d.totalCount === undefined));
      const last = result.shown.at(-1)!;
      assert.deepEqual([last.page, last.totalCount, last.hasNext], [11, COUNT, false]);
    });

    it('a list whose last page is full: Next on it finds nothing and shows that last page, of 250 counted', async () => {
      await service.close();
      const exact = records(250);
      service = await startLoopback(exact, SERVICES['pages bare arrays without a total']);
      const result = await walkRecords(api(service.baseUrl), 10, 25, PERIOD);
      assert.deepEqual(
        [result.shown[0].page, result.shown[0].totalCount, result.shown[0].hasNext],
        [10, undefined, true],
      );
      const last = result.shown.at(-1)!;
      assert.deepEqual([last.page, last.totalCount, last.hasNext], [10, 250, false]);
      assert.equal(new Set(result.ids).size, 25, 'page 10 shown again as itself, not as page 11');
    });
  });
});

describe('Usage records table under the reference service’s paging readings (unit)', function () {
  this.timeout(30_000);
  const reference = useReferenceService();
  const names: ReadingName[] = [
    'reference',
    'capped50',
    'ignoresPage',
    'ignoresPageSize',
    'onePage',
    'itemsEnvelope',
    'resultsEnvelope',
    'metaEnvelope',
  ];
  for (const name of names)
    for (const pageSize of [25, 100])
      it(`pages of ${pageSize}: no record on two pages, only a total said or counted, and every record the service pages to (${name})`, async () => {
        const service = reference.service;
        service.setReading(READINGS[name]);
        try {
          const period = service.store.currentPeriod();
          const all = service.store.details(period).map((r) => String(r.id));
          const result = await walkRecords(reference.api(), 1, pageSize, period);
          const ignoresPage = name === 'ignoresPage';
          const firstPage = result.shown[0].records.length;
          assertHonest(result, all.length, ignoresPage ? firstPage : all.length);
          if (ignoresPage) assert.deepEqual([...new Set(result.ids)], all.slice(0, firstPage));
          else assert.deepEqual(result.ids, all, 'every record once, in order');
          assert.equal(result.shown.at(-1)?.hasNext, false);
        } finally {
          service.setReading({});
        }
      });
});

describe('The Engagements view over a service paging bare arrays without a total (unit, loopback)', function () {
  this.timeout(30_000);
  let service: Loopback;
  afterEach(async () => {
    await service?.close();
  });

  async function startEngagements(count: number): Promise<Loopback> {
    const rows = Array.from({ length: count }, (_, i) => ({
      id: i + 1,
      name: `Engagement ${i + 1}`,
      type: 'evaluation',
      status: 'active',
    }));
    const requests: string[] = [];
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      requests.push(`${url.pathname}${url.search}`);
      const page = Number(url.searchParams.get('page'));
      const size = Number(url.searchParams.get('pageSize'));
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify(rows.slice((page - 1) * size, page * size)));
    });
    return listen(server, requests);
  }

  async function refreshedStore(count: number): Promise<EngagementStore> {
    service = await startEngagements(count);
    const store = storeOn(service.baseUrl);
    await store.refresh();
    return store;
  }

  it('"Load more… (50 loaded)" with no total until a short page counts 120, then nothing more to load', async () => {
    const store = await refreshedStore(120);
    try {
      let s = store.snapshot();
      assert.deepEqual([s.items.length, s.totalEstimated, s.hasMore], [50, true, true], 'no "of 51"');
      await store.loadMore();
      s = store.snapshot();
      assert.deepEqual([s.items.length, s.totalEstimated, s.hasMore], [100, true, true], 'no "of 101"');
      await store.loadMore();
      s = store.snapshot();
      assert.deepEqual(
        [s.items.length, s.totalCount, s.totalEstimated, s.hasMore, s.stop],
        [120, 120, undefined, false, undefined],
      );
    } finally {
      store.dispose();
    }
  });

  it('the first page saved for the next start stays "50 loaded": a count the service never said is not restored as one', async () => {
    const memento = new JsonMemento();
    service = await startEngagements(120);
    const first = storeOn(service.baseUrl, engagementCache(memento, 'cache'));
    let next: EngagementStore | undefined;
    try {
      await first.refresh();
      assert.equal(first.snapshot().totalEstimated, true);
      // The next activation shows the saved page before the service answers.
      next = storeOn(service.baseUrl, engagementCache(memento, 'cache'));
      const s = next.snapshot();
      assert.deepEqual(
        [s.fromCache, s.items.length, s.totalEstimated, s.hasMore],
        [true, 50, true, true],
        'no "of 51"',
      );
    } finally {
      first.dispose();
      next?.dispose();
    }
  });

  it('a list whose last page is full: the empty page after it counts 100, with no "ended early" said', async () => {
    const store = await refreshedStore(100);
    try {
      await store.loadMore();
      await store.loadMore();
      const s = store.snapshot();
      assert.deepEqual(
        [s.items.length, s.totalCount, s.totalEstimated, s.hasMore, s.stop],
        [100, 100, undefined, false, undefined],
      );
    } finally {
      store.dispose();
    }
  });
});
