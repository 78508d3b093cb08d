// The client against a service built with Hono 4 (issue 38): routes declared with a trailing
// slash, Hono's `appendTrailingSlash` answering every GET without one with a 301, `bearerAuth`,
// and zod validators answering a refused body with their own 400 (test/frameworks/hono.ts).
// What a user relies on is asserted (the engagements listed, one read, a create and a rename
// landed, the usage shown, a refusal that names its field) and what it cost: one redirect per
// client (a window) whatever is asked after it, a create one POST and at most one GET. Then the
// redirects that must not be followed: another origin (the key never sent there), a write
// moved elsewhere (checked, not sent again), and a wrong key told as the service's 401. Last,
// the redirects as a browser hands them back (their target hidden, as in VS Code for the Web).
import assert from 'node:assert/strict';
import type { SlashMemory } from '../../src/api/client';
import { ServiceApi } from '../../src/api/service';
import { isAccepted } from '../../src/api/types';
import { rejectsWith } from './support/apiErrors';
import { startHonoService, type CreateAnswer, type HonoService } from '../frameworks/hono';
import { startLoopbackServer } from './support/loopback';

const KEY = 'eus_hono.secret-part-of-the-key';

describe('Hono 4: trailing-slash routes, zod validation, bearer auth (unit)', function () {
  this.timeout(20_000);
  let hono: HonoService;
  let api: ServiceApi;

  async function start(
    options: { slashWrites?: boolean; createAnswer?: CreateAnswer; summaryMovedTo?: string } = {},
  ): Promise<void> {
    hono = await startHonoService({ token: KEY, ...options });
    api = new ServiceApi({ baseUrl: hono.baseUrl, getKey: () => KEY, timeoutMs: 5000 });
  }
  const redirects = () => hono.requests.filter((r) => / 30\d$/.test(r));

  afterEach(async () => {
    await hono.close();
  });

  it('lists, reads whole, reads one and shows usage, with one redirect for the whole window', async () => {
    await start();
    const page = await api.engagements.list({ page: 2, pageSize: 10 });
    assert.equal(page.data.length, 10);
    assert.equal(page.data[0].name, 'Engagement 11');
    assert.equal(page.totalCount, 60);

    const all = await api.engagements.listAll();
    assert.equal(all.items.length, 60, 'the whole set, each once');
    assert.equal(new Set(all.items.map((e) => e.id)).size, 60);

    const one = await api.engagements.get('eng_042');
    assert.equal(one.name, 'Engagement 42');

    const summary = await api.usage.summary();
    assert.equal(summary.usage.calls.used, 12_500);
    const byKey = await api.usage.byKey();
    assert.deepEqual(
      byKey.keys.map((k) => [k.name, k.calls]),
      [['CI', 12_500]],
    );
    const records = await api.usage.detailsAll(undefined);
    assert.equal(records.items.length, 30);

    // The first list learned the slash; nothing asked after it was redirected.
    assert.deepEqual(redirects(), ['GET /v1/engagements?page=2&pageSize=10 301']);
    assert.equal(hono.requests[1], 'GET /v1/engagements/?page=2&pageSize=10 200');
    // The whole set: Hono's validator refuses pages of 1,000 (max 100), then one page of 100.
    assert.deepEqual(hono.requests.slice(2, 4), [
      'GET /v1/engagements/?page=1&pageSize=1000 400',
      'GET /v1/engagements/?page=1&pageSize=100 200',
    ]);
  });

  it('a create is one POST and at most one GET, and Hono holds the new engagement', async () => {
    await start();
    await api.engagements.list();
    const before = hono.requests.length;
    const outcome = await api.engagements.create({ name: 'Made on Hono', type: 'pilot', description: 'd' });
    assert.ok(!isAccepted(outcome));
    assert.equal(outcome.engagement.name, 'Made on Hono');
    const made = hono.requests.slice(before);
    assert.deepEqual(made, ['POST /v1/engagements/ 201']);
    assert.equal(hono.held().filter((row) => row.name === 'Made on Hono').length, 1, 'made once');
  });

  it('a create as the first request of a window, on a service that redirects writes too: sent again once to the slash, made once', async () => {
    await start({ slashWrites: true });
    const outcome = await api.engagements.create({ name: 'First thing', type: 'pilot' });
    assert.ok(!isAccepted(outcome));
    assert.equal(outcome.engagement.name, 'First thing');
    assert.deepEqual(hono.requests, ['POST /v1/engagements 301', 'POST /v1/engagements/ 201']);
    assert.equal(hono.held().filter((row) => row.name === 'First thing').length, 1);
    // Learned: the next write costs no redirect.
    await api.engagements.update('eng_001', { name: 'Second thing' });
    assert.deepEqual(hono.requests.slice(2), ['PATCH /v1/engagements/eng_001/ 200']);
  });

  // Hono's appendTrailingSlash redirects GETs only (a PATCH without the slash is its 404): as in
  // the extension, where the key check and the tree read before any write, the window lists first.
  it('a rename and a status change land, one PATCH each', async () => {
    await start();
    await api.engagements.list();
    const renamed = await api.engagements.update('eng_007', { name: 'Renamed on Hono' });
    assert.ok(!isAccepted(renamed));
    assert.equal(renamed.engagement.name, 'Renamed on Hono');
    const completed = await api.engagements.update('eng_007', { status: 'completed' });
    assert.ok(!isAccepted(completed));
    assert.equal(completed.engagement.status, 'completed');
    assert.deepEqual(
      hono.requests.filter((r) => r.startsWith('PATCH')),
      ['PATCH /v1/engagements/eng_007/ 200', 'PATCH /v1/engagements/eng_007/ 200'],
    );
    assert.deepEqual(
      hono.held().find((row) => row.id === 'eng_007') && {
        name: hono.held().find((row) => row.id === 'eng_007')?.name,
        status: hono.held().find((row) => row.id === 'eng_007')?.status,
      },
      { name: 'Renamed on Hono', status: 'completed' },
    );
  });

  it('a status the validator refuses: its 400 is told with the field it names, nothing changed', async () => {
    await start();
    await api.engagements.list();
    const error = await rejectsWith(api.engagements.update('eng_003', { status: 'paused' }), 'invalidRequest');
    assert.equal(error.status, 400);
    assert.ok(error.fieldErrors?.status, `the status field is named: ${JSON.stringify(error.fieldErrors)}`);
    assert.match(error.message, /PATCH \/engagements\/\{id\} failed with HTTP 400: status: .*active.*completed/i);
    assert.ok(!error.message.includes('ZodError'), error.message);
    assert.equal(hono.held().find((row) => row.id === 'eng_003')?.status, 'active');
  });

  it('a create answered 303 (Post/Redirect/Get): the engagement it names is read, made once', async () => {
    await start({ createAnswer: { kind: 'seeOther' } });
    await api.engagements.list();
    const before = hono.requests.length;
    const outcome = await api.engagements.create({ name: 'Seen other', type: 'pilot' });
    assert.ok(!isAccepted(outcome));
    assert.equal(outcome.engagement.name, 'Seen other');
    assert.equal(outcome.source, 'location');
    assert.deepEqual(hono.requests.slice(before), [
      'POST /v1/engagements/ 303',
      `GET /v1/engagements/${outcome.engagement.id}/ 200`,
    ]);
  });

  it('a create redirected to another address of the service: not sent again, said, and checked as not made', async () => {
    await start({ createAnswer: { kind: 'moved', to: '/v1/engagements-v2/' } });
    await api.engagements.list();
    const before = hono.requests.length;
    const error = await rejectsWith(api.engagements.create({ name: 'Moved', type: 'pilot' }), 'redirected');
    assert.equal(error.writeOutcome, 'unknown', 'whether it was made is checked, as after a timeout');
    assert.match(
      error.message,
      /redirected POST \/engagements to http:\/\/127\.0\.0\.1:\d+\/v1\/engagements-v2\/ \(HTTP 307\)/,
    );
    assert.deepEqual(hono.requests.slice(before), ['POST /v1/engagements/ 307']);
    // The check the create flow makes before offering Retry: not made.
    assert.equal(await api.engagements.findCreated({ name: 'Moved', type: 'pilot' }, Date.now()), undefined);
  });

  it('a redirect to another origin is refused: the full target and what was asked are said, the key is not sent there', async () => {
    const other = await startLoopbackServer();
    try {
      await start({ summaryMovedTo: `${other.origin}/v1/usage/summary?from=hono` });
      const error = await rejectsWith(api.usage.summary('2026-10'), 'redirected');
      assert.equal(error.location, `${other.origin}/v1/usage/summary?from=hono`);
      assert.match(
        error.message,
        new RegExp(
          `redirected GET /usage/summary\\?billingPeriod=2026-10 to ${other.origin}/v1/usage/summary\\?from=hono`,
        ),
      );
      assert.equal(error.writeOutcome, undefined);
      assert.deepEqual(other.received, [], 'the other origin received nothing');
    } finally {
      await other.close();
    }
  });

  it('a wrong key is told as the service’s 401, not as a redirect', async () => {
    await start();
    const wrong = new ServiceApi({ baseUrl: hono.baseUrl, getKey: () => 'not-the-key', timeoutMs: 5000 });
    const error = await rejectsWith(wrong.engagements.list(), 'unauthorized');
    assert.equal(error.status, 401);
    assert.deepEqual(hono.requests, [
      'GET /v1/engagements?page=1&pageSize=25 301',
      'GET /v1/engagements/?page=1&pageSize=25 401',
    ]);
  });

  it('a new client of the same window (a shared map of slashes) costs no redirect at all', async () => {
    await start();
    const slashes = new Map<string, SlashMemory>();
    const first = new ServiceApi({ baseUrl: hono.baseUrl, getKey: () => KEY, slashes });
    await first.engagements.list();
    const second = new ServiceApi({ baseUrl: hono.baseUrl, getKey: () => KEY, slashes });
    await second.engagements.get('eng_001');
    await second.usage.summary();
    assert.equal(redirects().length, 1);
  });
  describe('as a browser sees it: fetch hides where every redirect points (an opaque redirect)', () => {
    /** fetch as a browser answers `redirect: 'manual'`: a redirect's status and Location hidden. */
    const browserFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (response.status < 300 || response.status >= 400) return response;
      const hidden = Response.error();
      Object.defineProperty(hidden, 'type', { value: 'opaqueredirect' });
      return hidden;
    };
    const browserApi = (slashes?: Map<string, SlashMemory>) =>
      new ServiceApi({ baseUrl: hono.baseUrl, getKey: () => KEY, timeoutMs: 5000, fetch: browserFetch, slashes });

    it('a read tries its path with the slash once, keeps it, and later reads and writes go straight there', async () => {
      await start();
      const slashes = new Map<string, SlashMemory>();
      const web = browserApi(slashes);
      const page = await web.engagements.list({ page: 1, pageSize: 10 });
      assert.equal(page.data[0].name, 'Engagement 1');
      assert.equal(slashes.get(hono.baseUrl)?.routes.get('/engagements'), true, 'the list’s slash is learned');
      await web.usage.summary();
      await web.engagements.update('eng_004', { name: 'Renamed from a browser' });
      assert.equal(hono.held().find((row) => row.id === 'eng_004')?.name, 'Renamed from a browser');
      assert.deepEqual(redirects(), ['GET /v1/engagements?page=1&pageSize=10 301'], 'one redirect for the window');
      assert.ok(hono.requests.includes('PATCH /v1/engagements/eng_004/ 200'), hono.requests.join('\n'));
    });

    it('a redirect the slash does not explain stays refused as hidden, learns nothing, and the other origin receives nothing', async () => {
      const other = await startLoopbackServer();
      try {
        await start({ summaryMovedTo: `${other.origin}/v1/usage/summary` });
        const slashes = new Map<string, SlashMemory>();
        const error = await rejectsWith(browserApi(slashes).usage.summary('2026-10'), 'redirected');
        assert.match(
          error.message,
          /redirected GET \/usage\/summary\?billingPeriod=2026-10 to an address it did not show/,
        );
        assert.equal(
          slashes.get(hono.baseUrl)?.routes.get('/usage/summary'),
          undefined,
          'nothing learned from a guess not answered',
        );
        assert.equal(slashes.get(hono.baseUrl)?.guess, undefined);
        assert.deepEqual(redirects(), [
          'GET /v1/usage/summary?billingPeriod=2026-10 301',
          'GET /v1/usage/summary/?billingPeriod=2026-10 302',
        ]);
        assert.deepEqual(other.received, [], 'the other origin received nothing');
      } finally {
        await other.close();
      }
    });
  });
});
