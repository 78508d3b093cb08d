// The client against services that page their own way (issue 45), each written with a real
// framework as its pagination idiom is documented (test/frameworks/): limit/offset with a `next`
// URL in the body (Fastify, the shape Django REST framework's LimitOffsetPagination made common),
// an opaque cursor (Hono: Stripe's `has_more` + `starting_after`, and a `next_cursor` token), and
// a `Link` header over a bare array as GitHub's REST API sends it (Fastify, by page number and by
// cursor). What is asserted is what the user sees or relies on: every engagement once and in the
// service's order, the total the service said or the one counted (never a guess shown as a
// count), Load more continuing where the service said, the records table's pages, and how many
// requests each costs (N pages that only links lead to cost N requests).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceApi } from '../../src/api/service';
import type { ViewState } from '../../src/usage/protocol';
import { RecordsPages, readRecordsPage } from '../../src/usage/sections';
import { startFastifyLinkHeaderService } from '../frameworks/fastifyLinkHeader';
import { startFastifyOffsetService } from '../frameworks/fastifyOffset';
import { startHonoCursorService } from '../frameworks/honoCursor';
import { rejectsWith } from './support/apiErrors';
import { walkRecords } from './support/recordsWalk';
import { storeOver } from './support/store';

const PERIOD = '2026-10';

interface Running {
  baseUrl: string;
  requests: string[];
  close(): Promise<void>;
}

const apiOn = (baseUrl: string) => new ServiceApi({ baseUrl, getKey: () => 'paging-key', timeoutMs: 5000 });

/** `1`…`n` as the Fastify services number their rows. */
const numbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
/** `eng_0001`… as the Hono service names its rows. */
const named = (ids: string[]) => ids.map((id) => `eng_${id.padStart(4, '0')}`);

/** The Engagements view's store over `baseUrl`, 25 engagements a page as the view asks. */
const storeOn = (baseUrl: string) => storeOver(apiOn(baseUrl));

/** The dashboard's records section from page 1, then Next while it is offered (bounded). */
const recordsWalk = async (baseUrl: string) => (await walkRecords(apiOn(baseUrl), 1, 25, PERIOD)).shown;

/** The ids of what a read or the view lists, in order. */
const idsOf = (items: ReadonlyArray<{ id: string }>) => items.map((e) => e.id);

describe('Services that page their own way: next links, cursors, Link headers (unit, real frameworks)', function () {
  this.timeout(30_000);
  let service: Running;
  afterEach(() => service?.close());

  describe('Fastify, limit/offset with a next URL in the body ({count, next, previous, results})', () => {
    beforeEach(async () => {
      service = await startFastifyOffsetService({ count: 230, defaultLimit: 20 });
    });

    it('a whole-set read reads every page the next links lead to: 230 engagements once, in order, the count said, 12 requests', async () => {
      const all = await apiOn(service.baseUrl).engagements.listAll();
      assert.deepEqual(idsOf(all.items), numbered(1, 230));
      assert.equal(all.totalCount, 230);
      assert.equal(all.stop, undefined);
      assert.equal(all.totalEstimated, undefined);
      // 230 in the service's pages of 20: the first asked by number; its next link moves the offset
      // by its own size and the count is said, so the other 11 are asked together, each once.
      assert.equal(service.requests[0], 'GET /v1/engagements?page=1&pageSize=1000');
      const offsets = [20, 40, 60, 80, 100, 120, 140, 160, 180, 200, 220];
      assert.deepEqual(
        service.requests.slice(1).sort(),
        offsets.map((o) => `GET /v1/engagements?page=1&pageSize=1000&limit=20&offset=${o}`).sort(),
      );
    });

    it('the tree shows 40 of 230 with Load more, and Load more adds the next 20 where the service said', async () => {
      const store = storeOn(service.baseUrl);
      await store.refresh();
      let view = store.snapshot();
      // The view asks 25; the service answers 20 a page: whole pages, 40 shown.
      assert.deepEqual(idsOf(view.items), numbered(1, 40));
      assert.equal(view.totalCount, 230);
      assert.equal(view.hasMore, true);
      assert.equal(view.stop, undefined, 'no "the service does not page this list"');
      service.requests.length = 0;
      await store.loadMore();
      view = store.snapshot();
      assert.deepEqual(idsOf(view.items), numbered(1, 60));
      assert.deepEqual(service.requests, ['GET /v1/engagements?page=1&pageSize=25&limit=20&offset=40']);
      store.dispose();
    });

    it('the records table pages by the links: 300 records in 15 pages of 20, each once, "of 300" from the count', async () => {
      const shown = await recordsWalk(service.baseUrl);
      assert.equal(shown.length, 15);
      const ids = shown.flatMap((d) => d.records.map((r) => String(r.id)));
      assert.equal(ids.length, 300);
      assert.equal(new Set(ids).size, 300);
      assert.deepEqual(
        shown.map((d) => d.page),
        numbered(1, 15).map(Number),
      );
      assert.ok(shown.every((d) => d.totalCount === 300));
      // One request for each page shown.
      assert.equal(service.requests.filter((r) => r.startsWith('GET /v1/usage/details')).length, 15);
    });
  });

  describe('Hono, an opaque cursor', () => {
    it("Stripe's has_more: the next page starts after the last id read; 230 in 23 requests, counted at the end", async () => {
      service = await startHonoCursorService({ style: 'stripe', count: 230, defaultLimit: 10 });
      const all = await apiOn(service.baseUrl).engagements.listAll();
      // Newest first, as Stripe lists.
      assert.deepEqual(idsOf(all.items), named(numbered(1, 230).reverse()));
      assert.equal(all.totalCount, 230);
      assert.equal(all.totalEstimated, undefined);
      assert.equal(service.requests.length, 23);
      assert.equal(service.requests[1], 'GET /v1/engagements?pageSize=1000&starting_after=eng_0221');
    });

    it('a next_cursor token is sent back as `cursor`; Load more goes on from it, the total unknown until the end', async () => {
      service = await startHonoCursorService({ style: 'token', count: 45, defaultLimit: 20 });
      const store = storeOn(service.baseUrl);
      await store.refresh();
      let view = store.snapshot();
      assert.deepEqual(idsOf(view.items), named(numbered(1, 40)));
      assert.equal(view.hasMore, true);
      assert.equal(view.totalEstimated, true, 'no total said: "40 loaded", not "of 41"');
      await store.loadMore();
      view = store.snapshot();
      assert.deepEqual(idsOf(view.items), named(numbered(1, 45)));
      assert.equal(view.hasMore, false);
      assert.equal(view.totalCount, 45);
      assert.equal(view.totalEstimated, undefined);
      assert.match(service.requests.at(-1) ?? '', /^GET \/v1\/engagements\?pageSize=20&cursor=[\w-]+$/);
      store.dispose();
    });

    it('the records table walks to a page it was asked first (a refresh on page 3): 3 requests, records 41–60', async () => {
      service = await startHonoCursorService({ style: 'token', count: 5, usageRecords: 300 });
      const api = apiOn(service.baseUrl);
      const view: ViewState = {
        environmentId: 'env',
        period: PERIOD,
        sort: { column: 'calls', direction: 'desc' },
        page: 3,
        pageSize: 25,
      };
      const data = await readRecordsPage(api, view, new AbortController().signal, new RecordsPages());
      assert.equal(data.page, 3);
      assert.deepEqual(
        data.records.map((r) => r.id),
        Array.from({ length: 20 }, (_, i) => `ur_${String(41 + i).padStart(5, '0')}`),
      );
      assert.equal(data.hasNext, true);
      assert.equal(service.requests.filter((r) => r.startsWith('GET /v1/usage/details')).length, 3);
    });

    it('every record of the period (export, filter) by cursor: 300 once, 15 requests', async () => {
      service = await startHonoCursorService({ style: 'token', count: 5, usageRecords: 300 });
      const all = await apiOn(service.baseUrl).usage.detailsAll(PERIOD);
      assert.equal(all.items.length, 300);
      assert.equal(new Set(all.items.map((r) => r.id)).size, 300);
      assert.equal(all.totalCount, 300);
      // Pages of 100 asked; the service answers its default 20 and names the next.
      assert.equal(service.requests.filter((r) => r.startsWith('GET /v1/usage/details')).length, 15);
    });
  });

  describe("Fastify, a Link header over a bare array (GitHub's REST API)", () => {
    it('Link by page number with X-Total-Count: the pages asked by number, concurrently; 95 in 4 requests', async () => {
      service = await startFastifyLinkHeaderService({ count: 95, total: true });
      const all = await apiOn(service.baseUrl).engagements.listAll();
      assert.deepEqual(idsOf(all.items), numbered(1, 95));
      assert.equal(all.totalCount, 95);
      assert.equal(service.requests.length, 4);
      assert.deepEqual(service.requests.slice(1).sort(), [
        'GET /v1/engagements?page=2&pageSize=30',
        'GET /v1/engagements?page=3&pageSize=30',
        'GET /v1/engagements?page=4&pageSize=30',
      ]);
    });

    it('Link by page number without a total: the end is the page without rel="next", 95 counted', async () => {
      service = await startFastifyLinkHeaderService({ count: 95 });
      const store = storeOn(service.baseUrl);
      await store.refresh();
      assert.equal(store.snapshot().items.length, 30);
      assert.equal(store.snapshot().totalEstimated, true);
      const all = await apiOn(service.baseUrl).engagements.listAll();
      assert.deepEqual(idsOf(all.items), numbered(1, 95));
      assert.equal(all.totalCount, 95);
      assert.equal(all.totalEstimated, undefined);
      store.dispose();
    });

    it('Link by cursor (`after=`): every link followed, 95 in 4 requests; Load more uses the link', async () => {
      service = await startFastifyLinkHeaderService({ count: 95, links: 'cursor' });
      const all = await apiOn(service.baseUrl).engagements.listAll();
      assert.deepEqual(idsOf(all.items), numbered(1, 95));
      assert.equal(all.totalCount, 95);
      assert.equal(service.requests.length, 4);
      assert.match(service.requests[1], /^GET \/v1\/engagements\?pageSize=1000&per_page=30&after=[\w-]+$/);

      const store = storeOn(service.baseUrl);
      await store.refresh();
      assert.deepEqual(idsOf(store.snapshot().items), numbered(1, 30));
      await store.loadMore();
      assert.deepEqual(idsOf(store.snapshot().items), numbered(1, 60));
      store.dispose();
    });
  });

  describe('a next link outside the base URL', () => {
    let elsewhere: { server: Server; hits: number };
    afterEach(() => new Promise<void>((resolve) => elsewhere.server.close(() => resolve())));

    it('is never followed with the key: the read fails saying where it pointed, and that address receives nothing', async () => {
      elsewhere = { server: createServer((_req, res) => (elsewhere.hits++, res.end('[]'))), hits: 0 };
      await new Promise<void>((resolve) => elsewhere.server.listen(0, '127.0.0.1', resolve));
      const other = `http://127.0.0.1:${(elsewhere.server.address() as AddressInfo).port}`;
      const requests: string[] = [];
      const own = createServer((req, res) => {
        requests.push(`${req.method} ${req.url}`);
        res.setHeader('Content-Type', 'application/json');
        const rows = [{ id: 'eng_1', name: 'One', type: 'pilot', status: 'active' }];
        res.end(JSON.stringify({ results: rows, next: `${other}/v1/engagements?cursor=abc` }));
      });
      await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
      service = {
        baseUrl: `http://127.0.0.1:${(own.address() as AddressInfo).port}/v1`,
        requests,
        close: () => new Promise<void>((resolve) => own.close(() => resolve())),
      };
      const error = await rejectsWith(apiOn(service.baseUrl).engagements.listAll(), 'redirected');
      assert.match(error.message, /outside the environment's base URL; the key was not sent there/);
      assert.ok(error.message.includes(`${other}/v1/engagements?cursor=abc`));
      assert.deepEqual(requests, ['GET /v1/engagements?page=1&pageSize=1000']);
      assert.equal(elsewhere.hits, 0);
    });
  });
});
