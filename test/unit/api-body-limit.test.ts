// Issue 47, item 6: an answer's body is bounded in size and in time by the one client the
// extension host and the MCP server share. An endless answer, as fast as the client reads it, is
// cut at MAX_BODY_BYTES with words that say so, the connection closed and nothing of it kept; a
// slower endless one is cut by the body's deadline. (Memory while reading one: `npm run bench`.)
import assert from 'node:assert/strict';
import { MAX_BODY_BYTES } from '../../src/api/client';
import { describeError } from '../../src/api/errorText';
import { ServiceApi } from '../../src/api/service';
import { rejectsWith } from './support/apiErrors';
import { type EndlessService, startEndlessService } from './support/endlessBody';

describe('An answer’s body, bounded in size and time (unit)', function () {
  this.timeout(60_000);
  let endless: EndlessService | undefined;
  afterEach(async () => {
    await endless?.close();
    endless = undefined;
  });
  const api = (baseUrl: string, timeoutMs = 30_000) =>
    new ServiceApi({ baseUrl, getKey: () => 'body-limit-key', timeoutMs, retryLimit: 0 });

  it('an endless answer, as fast as it is read, is cut past 64 MB: a clear error, the connection closed', async () => {
    endless = await startEndlessService();
    const error = await rejectsWith(api(endless.baseUrl).engagements.list({ page: 1 }), 'badResponse');
    assert.match(error.message, /The answer to GET \/engagements was larger than 64 MB; it was not read further\./);
    assert.equal(error.tooLargeMb, 64);
    assert.match(describeError(error, 'Staging'), /larger than 64 MB.*nothing of it was kept/);
    assert.match(describeError(error, 'Staging', 'agent'), /larger than 64 MB/);
    await endless.closed;
    const sent = endless.sent;
    assert.ok(sent > MAX_BODY_BYTES, 'the service sent more than the limit');
    assert.ok(
      sent < MAX_BODY_BYTES + 32 * 2 ** 20,
      `it stopped soon after the limit (${(sent / 2 ** 20).toFixed(0)} MB sent)`,
    );
  });

  it('an answer that declares more than 64 MB is not read at all', async () => {
    endless = await startEndlessService({ declareLength: 256 * 2 ** 20 });
    const error = await rejectsWith(api(endless.baseUrl).usage.details({ billingPeriod: '2026-03' }), 'badResponse');
    assert.match(error.message, /larger than 64 MB/);
    await endless.closed;
  });

  it('an endless answer slower than that is cut by the body’s deadline', async () => {
    endless = await startEndlessService({ paceMs: 20 });
    const error = await rejectsWith(api(endless.baseUrl, 300).engagements.list({ page: 1 }), 'timeout');
    assert.match(describeError(error, 'Staging'), /did not answer in time/);
    await endless.closed;
    assert.ok(endless.sent < MAX_BODY_BYTES, 'cut long before the size limit');
  });
});
