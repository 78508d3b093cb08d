import assert from 'node:assert/strict';
import { readErrorBody } from '../../src/api/errorBodies';
import { ApiError, kindForStatus, parseRetryAfter } from '../../src/api/errors';
import { describeError } from '../../src/api/errorText';
import { fetchAllPages } from '../../src/api/paging';
import type { Page } from '../../src/api/types';

describe('reading error bodies tolerantly', () => {
  it('reads the common JSON shapes', () => {
    assert.deepEqual(
      readErrorBody('{"error":{"message":"Bad name","fields":{"name":"too long"}}}', 'application/json'),
      { serverMessage: 'Bad name', fieldErrors: { name: 'too long' } },
    );
    assert.equal(
      readErrorBody('{"message":"Nope","errors":[{"field":"type","message":"unknown"}]}', null).fieldErrors?.type,
      'unknown',
    );
    assert.equal(
      readErrorBody('{"detail":"Problem detail"}', 'application/problem+json').serverMessage,
      'Problem detail',
    );
    assert.equal(readErrorBody('{"error":"plain string"}', 'application/json').serverMessage, 'plain string');
    assert.equal(
      readErrorBody('{"error":{"message":"x","requiredScope":"usage:read"}}', 'application/json').scope,
      'usage:read',
    );
    assert.equal(
      readErrorBody('{"error":{"message":"x","requiredScope":"admin:all"}}', 'application/json').scope,
      undefined,
    );
  });

  it('reads text and HTML pages without their markup', () => {
    assert.equal(
      readErrorBody('Service down for maintenance', 'text/plain').serverMessage,
      'Service down for maintenance',
    );
    const html = readErrorBody(
      '<!doctype html><html><head><title>502 Bad Gateway</title><style>b{}</style></head><body><h1>Bad Gateway</h1><script>alert(1)</script></body></html>',
      'text/html',
    );
    assert.match(html.serverMessage ?? '', /Bad Gateway/);
    assert.doesNotMatch(html.serverMessage ?? '', /<|alert/);
    assert.deepEqual(readErrorBody('   ', 'text/plain'), {});
    assert.ok((readErrorBody('x'.repeat(5000), 'text/plain').serverMessage ?? '').length <= 300);
  });

  it('maps statuses to kinds and reads Retry-After', () => {
    assert.deepEqual([401, 403, 404, 409, 422, 400, 429, 500, 503, 302].map(kindForStatus), [
      'unauthorized',
      'forbidden',
      'notFound',
      'conflict',
      'invalidRequest',
      'invalidRequest',
      'rateLimited',
      'server',
      'server',
      'redirected',
    ]);
    assert.equal(parseRetryAfter('3'), 3000);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 12:00:30 GMT', Date.parse('2026-11-22T12:00:00Z')), 30_000);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(null), undefined);
  });
});

describe('reading every page', () => {
  const pages =
    (total: number, pageSize: number, mutate?: (page: number, items: string[]) => { items: string[]; total: number }) =>
    async (page: number, size: number): Promise<Page<string>> => {
      // Later pages answer first (fewer turns of the microtask queue): the order kept is the pages'.
      for (let turn = page; turn < 10; turn++) await Promise.resolve();
      let items = Array.from(
        { length: Math.max(0, Math.min(size, total - (page - 1) * size)) },
        (_, i) => `e${(page - 1) * size + i}`,
      );
      let reported = total;
      if (mutate) ({ items, total: reported } = mutate(page, items));
      return { data: items, page, pageSize, totalCount: reported };
    };

  it('reads ceil(total / pageSize) pages and keeps page order', async () => {
    const result = await fetchAllPages(pages(250, 100), { pageSize: 100, concurrency: 4, idOf: (s) => s });
    assert.equal(result.requests, 3);
    assert.deepEqual(
      result.items,
      Array.from({ length: 250 }, (_, i) => `e${i}`),
    );
  });

  it('drops items repeated across pages and reads pages added while paging', async () => {
    const result = await fetchAllPages(
      pages(200, 100, (page, items) =>
        page === 2 ? { items: ['e0', ...items.slice(1)], total: 300 } : { items, total: page === 1 ? 200 : 300 },
      ),
      { pageSize: 100, concurrency: 4, idOf: (s) => s },
    );
    assert.equal(result.requests, 3, 'the third page, announced by page 2, was read');
    assert.equal(new Set(result.items).size, result.items.length, 'no duplicates');
  });

  it('stops at the first failure and reports it', async () => {
    let calls = 0;
    await assert.rejects(
      fetchAllPages(
        async (page) => {
          calls++;
          if (page === 3) throw new Error('page 3 broke');
          await Promise.resolve();
          return { data: ['x'], page, pageSize: 1, totalCount: 50 };
        },
        { pageSize: 1, concurrency: 2 },
      ),
      /page 3 broke/,
    );
    assert.ok(calls < 10, `stopped early (${calls} calls)`);
  });
});

describe('the reasons of a refusal, in words', () => {
  it('leaves a field’s reason out only when the service’s message says it whole', () => {
    const refused = (serverMessage: string, fieldErrors: Record<string, string>) =>
      describeError(new ApiError('invalidRequest', 'refused', { status: 422, serverMessage, fieldErrors }), 'Test');
    // "oddest" does not say "odd": both reasons are kept (found by the integration suite's scripted UI).
    assert.equal(
      refused('oddest', { constructor: 'odd', toString: 'odder' }),
      'The request was refused: oddest (constructor: odd; toString: odder)',
    );
    // A message that already says a field's reason is not repeated.
    assert.equal(refused('name: too long', { name: 'too long' }), 'The request was refused: name: too long');
  });
});
