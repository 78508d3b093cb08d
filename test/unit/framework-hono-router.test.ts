// The client against a Hono 4 service routed the way most routers route (test/frameworks/hono.ts,
// `routing: 'collections'`): the collection ends in a slash (`/v1/engagements/`), an
// engagement and the usage endpoints do not (`/v1/engagements/{id}`, `/v1/usage/summary`).
// Hono's `trimTrailingSlash` and `appendTrailingSlash` redirect a GET of the other form, and
// with `slashWrites` a write is redirected too (308). A person switches between the list, one
// engagement, a create and the usage; each route's slash is learned once for the window, so the
// whole walk costs at most one redirect per route, with Node's fetch (the desktop, where a
// redirect's target is seen) and with a fetch that hides it as a browser does (VS Code for the Web).
import assert from 'node:assert/strict';
import { ServiceApi } from '../../src/api/service';
import type { SlashMemory } from '../../src/api/client';
import { isAccepted } from '../../src/api/types';
import { rejectsWith } from './support/apiErrors';
import { browserFetch } from './support/browserFetch';
import { startHonoService, type HonoService } from '../frameworks/hono';

const KEY = 'eus_router.secret-part-of-the-key';

/** fetch as a browser page gets it: a redirect's status and Location hidden (CORS is another suite's). */
const hidingFetch = browserFetch();

describe('Hono 4 routed as routers do: the collection with a slash, an engagement without (unit)', function () {
  this.timeout(20_000);
  let hono: HonoService;

  afterEach(async () => {
    await hono.close();
  });

  const redirects = () => hono.requests.filter((r) => / 30\d$/.test(r));

  /**
   * The walk of a person: the list, one engagement's details, a create, another engagement, the
   * list again, the dashboard's three reads, a rename. Returns the engagement created.
   */
  async function walk(api: ServiceApi): Promise<string> {
    const page = await api.engagements.list();
    assert.equal(page.data[0].name, 'Engagement 1');
    assert.equal((await api.engagements.get('eng_002')).name, 'Engagement 2');
    const created = await api.engagements.create({ name: 'Made between two reads', type: 'pilot' });
    assert.ok(!isAccepted(created));
    assert.equal((await api.engagements.get('eng_003')).name, 'Engagement 3');
    assert.equal((await api.engagements.list({ page: 2, pageSize: 10 })).data[0].name, 'Engagement 11');
    assert.equal((await api.usage.summary('2026-10')).usage.calls.used, 12_500);
    assert.equal((await api.usage.byKey('2026-10')).keys[0].name, 'CI');
    assert.equal((await api.usage.details({ billingPeriod: '2026-10' })).data.length, 25);
    const renamed = await api.engagements.update('eng_003', { name: 'Renamed after the dashboard' });
    assert.ok(!isAccepted(renamed));
    assert.equal(renamed.engagement.name, 'Renamed after the dashboard');
    return created.engagement.id;
  }

  for (const host of ['Node’s fetch (desktop)', 'a fetch that hides redirects (browser)'] as const) {
    const fetchOf = host.startsWith('Node') ? undefined : hidingFetch;

    it(`${host}: list, details, create, details, list, usage, rename cost one redirect per route, each write sent once`, async () => {
      hono = await startHonoService({ token: KEY, routing: 'collections', slashWrites: true });
      const api = new ServiceApi({ baseUrl: hono.baseUrl, getKey: () => KEY, timeoutMs: 5000, fetch: fetchOf });
      const id = await walk(api);
      // The list's first read learns the collection's slash, the first engagement's read the
      // item's; every other request goes straight to its route's form.
      assert.deepEqual(redirects(), ['GET /v1/engagements?page=1&pageSize=25 301', 'GET /v1/engagements/eng_002/ 301']);
      assert.deepEqual(
        hono.requests.filter((r) => !r.startsWith('GET')),
        ['POST /v1/engagements/ 201', 'PATCH /v1/engagements/eng_003 200'],
      );
      assert.equal(hono.held().filter((row) => row.id === id).length, 1, 'made once');
      assert.equal(hono.held().find((row) => row.id === 'eng_003')?.name, 'Renamed after the dashboard');
      assert.equal(hono.requests.length, 11, hono.requests.join('\n'));
    });

    it(`${host}: a new client of the window (a shared memory of slashes) goes straight to each route's form`, async () => {
      hono = await startHonoService({ token: KEY, routing: 'collections', slashWrites: true });
      const slashes = new Map<string, SlashMemory>();
      const first = new ServiceApi({ baseUrl: hono.baseUrl, getKey: () => KEY, fetch: fetchOf, slashes });
      await first.engagements.list();
      await first.engagements.get('eng_001');
      const before = hono.requests.length;
      const second = new ServiceApi({ baseUrl: hono.baseUrl, getKey: () => KEY, fetch: fetchOf, slashes });
      await second.engagements.create({ name: 'From the second client', type: 'pilot' });
      await second.engagements.get('eng_004');
      await second.engagements.list();
      assert.deepEqual(hono.requests.slice(before), [
        'POST /v1/engagements/ 201',
        'GET /v1/engagements/eng_004 200',
        'GET /v1/engagements/?page=1&pageSize=25 200',
      ]);
    });
  }

  it('Hono’s own routing (GETs redirected, a write to the other form 404): a create after opening an engagement lands', async () => {
    hono = await startHonoService({ token: KEY, routing: 'collections' });
    const api = new ServiceApi({ baseUrl: hono.baseUrl, getKey: () => KEY, timeoutMs: 5000 });
    await api.engagements.list();
    await api.engagements.get('eng_005');
    const created = await api.engagements.create({ name: 'After the details', type: 'pilot' });
    assert.ok(!isAccepted(created));
    assert.equal(created.engagement.name, 'After the details');
    assert.deepEqual(
      hono.requests.filter((r) => r.startsWith('POST')),
      ['POST /v1/engagements/ 201'],
    );
  });

  describe('in a browser, a write whose route no read has taught yet', () => {
    it('a rename straight after the list: the engagement’s path is read first (its redirect hidden), then one PATCH to its form', async () => {
      hono = await startHonoService({ token: KEY, routing: 'collections', slashWrites: true });
      const web = new ServiceApi({ baseUrl: hono.baseUrl, getKey: () => KEY, timeoutMs: 5000, fetch: hidingFetch });
      await web.engagements.list();
      const before = hono.requests.length;
      const renamed = await web.engagements.update('eng_006', { status: 'completed' });
      assert.ok(!isAccepted(renamed));
      assert.equal(renamed.engagement.status, 'completed');
      assert.deepEqual(hono.requests.slice(before), [
        'GET /v1/engagements/eng_006/ 301',
        'GET /v1/engagements/eng_006 200',
        'PATCH /v1/engagements/eng_006 200',
      ]);
    });

    it('a create as the first request of the window, redirected where the browser hides it: refused naming the slash, then learned by the check', async () => {
      hono = await startHonoService({ token: KEY, routing: 'collections', slashWrites: true });
      const web = new ServiceApi({ baseUrl: hono.baseUrl, getKey: () => KEY, timeoutMs: 5000, fetch: hidingFetch });
      const error = await rejectsWith(web.engagements.create({ name: 'Too soon', type: 'pilot' }), 'redirected');
      assert.equal(error.writeOutcome, 'unknown', 'checked before a retry is offered');
      assert.match(error.message, /POST \/engagements/);
      assert.match(error.message, /trailing slash/);
      assert.doesNotMatch(error.message, /base URL/);
      // The check the create flow makes (the list) finds nothing and teaches the collection's slash.
      assert.equal(await web.engagements.findCreated({ name: 'Too soon', type: 'pilot' }, Date.now()), undefined);
      const before = hono.requests.length;
      const again = await web.engagements.create({ name: 'Too soon', type: 'pilot' });
      assert.ok(!isAccepted(again));
      assert.deepEqual(hono.requests.slice(before), ['POST /v1/engagements/ 201']);
      assert.equal(hono.held().filter((row) => row.name === 'Too soon').length, 1, 'made once');
    });
  });
});
