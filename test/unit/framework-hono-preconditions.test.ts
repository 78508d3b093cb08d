// A PATCH's conditional headers against a Hono 4 service (test/frameworks/hono.ts): sent only in
// the form the service showed it understands, and what a person in the browser reads when the
// service's CORS does not let them through. The CORS set-up is django-cors-headers' defaults
// (`DJANGO_CORS_DEFAULT_HEADERS`: accept, authorization, content-type, user-agent, x-csrftoken,
// x-requested-with) given to Hono's `cors` middleware, as a service left at those defaults
// answers a preflight: neither If-Match nor If-Unmodified-Since is allowed. The browser's side
// is `browserFetch` (test/unit/support/browserFetch.ts): its preflight and its bare
// "Failed to fetch", as Chromium gives them. Each rename is made as the product makes one: the
// engagement read, then the PATCH for the version read (`expectedUpdatedAt`).
import assert from 'node:assert/strict';
import { failsAgain } from '../../src/api/errors';
import { describeError } from '../../src/api/errorText';
import { ServiceApi } from '../../src/api/service';
import { errorResult } from '../../src/tools/result';
import { isAccepted } from '../../src/api/types';
import { rejectsWith } from './support/apiErrors';
import { browserFetch } from './support/browserFetch';
import { startHonoService, type HonoService, type Validators } from '../frameworks/hono';

const KEY = 'eus_cors.secret-part-of-the-key';
const ORIGIN = 'https://vscode.example.dev';

describe('Hono 4 with django-cors-headers’ default CORS: conditional headers only where understood (unit)', function () {
  this.timeout(20_000);
  let hono: HonoService;

  afterEach(async () => {
    await hono.close();
  });

  async function start(validators: Validators, fromBrowser: boolean): Promise<ServiceApi> {
    hono = await startHonoService({ token: KEY, corsOrigin: ORIGIN, corsHeaders: 'djangoDefaults', validators });
    const fetch = fromBrowser ? browserFetch({ origin: ORIGIN }) : undefined;
    return new ServiceApi({ baseUrl: hono.baseUrl, getKey: () => KEY, timeoutMs: 5000, retryLimit: 0, fetch });
  }

  /** A rename as the product makes one: read, then PATCH the version read. */
  async function rename(api: ServiceApi, id: string, name: string) {
    const read = await api.engagements.get(id);
    return api.engagements.update(id, { name }, { expectedUpdatedAt: read.updatedAt });
  }

  it('a service that tells no version: a rename from the browser carries no conditional header, passes the preflight and lands', async () => {
    const api = await start('none', true);
    const outcome = await rename(api, 'eng_003', 'Renamed past the defaults');
    assert.ok(!isAccepted(outcome));
    assert.equal(outcome.engagement.name, 'Renamed past the defaults');
    assert.equal(hono.held().find((row) => row.id === 'eng_003')?.name, 'Renamed past the defaults');
    assert.deepEqual(hono.preconditions, [{ ifMatch: undefined, ifUnmodifiedSince: undefined }]);
    assert.ok(
      hono.requests.includes('OPTIONS /v1/engagements/eng_003/ 204'),
      `the browser’s preflights were answered: ${hono.requests.join(', ')}`,
    );
  });

  it('each validator is sent back in the form the service gave it, alone: ETag → If-Match, Last-Modified → If-Unmodified-Since', async () => {
    let api = await start('etag', false);
    await rename(api, 'eng_004', 'Matched');
    assert.deepEqual(hono.preconditions, [{ ifMatch: '"eng_004-1790845200000"', ifUnmodifiedSince: undefined }]);
    await hono.close();

    api = await start('lastModified', false);
    await rename(api, 'eng_004', 'Unmodified since');
    assert.deepEqual(hono.preconditions, [{ ifMatch: undefined, ifUnmodifiedSince: 'Thu, 01 Oct 2026 09:00:00 GMT' }]);
  });

  for (const validators of ['etag', 'lastModified'] as const) {
    it(`${validators}: a change made meanwhile is refused (412) and said as a conflict, nothing overwritten`, async () => {
      const api = await start(validators, false);
      const read = await api.engagements.get('eng_005');
      const other = new ServiceApi({ baseUrl: hono.baseUrl, getKey: () => KEY });
      await rename(other, 'eng_005', 'Someone else’s name');
      const error = await rejectsWith(
        api.engagements.update('eng_005', { name: 'Mine' }, { expectedUpdatedAt: read.updatedAt }),
        'conflict',
      );
      assert.equal(error.status, 412);
      assert.match(describeError(error), /changed meanwhile/);
      assert.equal(hono.held().find((row) => row.id === 'eng_005')?.name, 'Someone else’s name');
    });
  }

  it('a service that sends ETag but whose CORS refuses If-Match: the browser’s failure names the header to allow, and offers nothing that fails the same way', async () => {
    const api = await start('etag', true);
    const error = await rejectsWith(rename(api, 'eng_006', 'Blocked by the preflight'), 'network');
    assert.equal(error.connection?.problem, 'headersRefused');
    assert.deepEqual(error.connection?.headers, ['If-Match']);
    const words = describeError(error, 'Staging');
    assert.match(words, /answers reads from this page/);
    assert.match(words, /add If-Match to Access-Control-Allow-Headers/);
    assert.doesNotMatch(words, /Retry/);
    assert.ok(failsAgain(error), 'neither Retry nor Edit is offered');
    // The chat tools and the MCP server tell an agent the same, and not to try again later.
    const told = errorResult(error, { label: 'Staging', replaceKey: 'EUS_API_KEY', place: 'vscode' }).text;
    assert.match(told, /add If-Match to Access-Control-Allow-Headers/);
    assert.doesNotMatch(told, /try again/i);
    assert.equal(error.writeOutcome, 'unknown', 'checked before anything is said of the change');
    assert.equal(hono.held().find((row) => row.id === 'eng_006')?.name, 'Engagement 6', 'nothing was sent');
    assert.deepEqual(hono.preconditions, [], 'the PATCH itself never reached the service');
  });

  it('a read the browser refuses (no answer at all yet) is told as CORS or the network, not as a header', async () => {
    hono = await startHonoService({ token: KEY, corsOrigin: 'https://another.example', validators: 'etag' });
    const api = new ServiceApi({
      baseUrl: hono.baseUrl,
      getKey: () => KEY,
      timeoutMs: 5000,
      retryLimit: 0,
      fetch: browserFetch({ origin: ORIGIN }),
    });
    const error = await rejectsWith(api.engagements.get('eng_001'), 'network');
    assert.equal(error.connection?.problem, 'refusedByBrowser');
    assert.ok(!failsAgain(error));
  });
});
