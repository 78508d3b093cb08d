// The forms a service may give what the contract leaves open, read in the one place that
// knows them (src/api/readings.ts): pages of records and engagements under any of the common
// names, and write answers that name the engagement without being it. Then, over real HTTP
// against the reference service: an answer that names the engagement costs exactly one GET.
import assert from 'node:assert/strict';
import {
  ShapeError,
  UnreadFields,
  parseEngagement,
  parseListedEngagement,
  parseUsageByKey,
  parseUsageSummary,
  readPage,
  readWriteAnswer,
  withoutUnlisted,
} from '../../src/api/readings';
import type { Page } from '../../src/api/types';
import { useReferenceService } from './support/referenceService';
import { done } from './support/writes';

type Item = { id: string };
const items = (from: number, n: number): Item[] => Array.from({ length: n }, (_, i) => ({ id: `r${from + i}` }));
const asItem = (item: unknown): Item => item as Item;
const REQUEST = { page: 2, pageSize: 25 };

/** A page form, and what the client reads from it (page 2 of 25 asked). */
const PAGE_FORMS: Array<{ form: string; body: unknown; expected: Omit<Page<Item>, 'data'> & { items: number } }> = [
  {
    form: 'the contract: {data, page, pageSize, totalCount}',
    body: { data: items(25, 25), page: 2, pageSize: 25, totalCount: 230 },
    expected: { items: 25, page: 2, pageSize: 25, totalCount: 230 },
  },
  {
    form: '{items, total}',
    body: { items: items(25, 25), total: 230 },
    expected: { items: 25, page: 2, pageSize: 25, totalCount: 230 },
  },
  {
    form: '{records, total_count, page, per_page}',
    body: { records: items(20, 20), total_count: 230, page: 2, per_page: 20 },
    expected: { items: 20, page: 2, pageSize: 20, totalCount: 230 },
  },
  {
    form: 'Django REST: {count, next, previous, results}',
    body: { count: 230, next: '/v1/x?page=3', previous: '/v1/x?page=1', results: items(25, 25) },
    expected: { items: 25, page: 2, pageSize: 25, totalCount: 230 },
  },
  {
    form: 'Laravel: {data, links, meta: {current_page, per_page, total}}',
    body: {
      data: items(10, 10),
      links: { first: '/v1/x?page=1', next: '/v1/x?page=3' },
      meta: { current_page: 2, from: 11, last_page: 23, per_page: 10, to: 20, total: 230 },
    },
    expected: { items: 10, page: 2, pageSize: 10, totalCount: 230 },
  },
  {
    form: '{results, pagination: {pageNumber, limit, totalCount}}',
    body: { results: items(50, 50), pagination: { pageNumber: 2, limit: 50, totalCount: 230 } },
    expected: { items: 50, page: 2, pageSize: 50, totalCount: 230 },
  },
  {
    form: '{data, meta: {page, page_size, total}}',
    body: { data: items(25, 25), meta: { page: 2, page_size: 25, total: '230' } },
    expected: { items: 25, page: 2, pageSize: 25, totalCount: 230 },
  },
  {
    form: 'the one array field, whatever its name: {engagements, total}',
    body: { engagements: items(25, 25), total: 230, generatedAt: '2026-01-01T00:00:00Z' },
    expected: { items: 25, page: 2, pageSize: 25, totalCount: 230 },
  },
  {
    form: 'a known name before any other array: {data, warnings}',
    body: { warnings: ['slow'], data: items(25, 25), totalCount: 230 },
    expected: { items: 25, page: 2, pageSize: 25, totalCount: 230 },
  },
  {
    form: 'an empty `data` beside the items: {data: null, items, total}',
    body: { data: null, items: items(25, 25), total: 230 },
    expected: { items: 25, page: 2, pageSize: 25, totalCount: 230 },
  },
  {
    form: '{items} without a total: one more assumed after a full page',
    body: { items: items(25, 25) },
    expected: { items: 25, page: 2, pageSize: 25, totalCount: 51, totalEstimated: true },
  },
  {
    form: 'a bare array',
    body: items(25, 10),
    expected: { items: 10, page: 2, pageSize: 25, totalCount: 35, totalEstimated: true },
  },
];

describe('page forms (readPage): records and engagements under any of the common names', () => {
  for (const { form, body, expected } of PAGE_FORMS) {
    it(form, () => {
      const page = readPage(body, REQUEST, asItem);
      const { items: count, ...paging } = expected;
      assert.equal(page.data.length, count);
      assert.deepEqual({ ...page, data: undefined }, { ...paging, data: undefined });
      assert.ok(
        page.data.every((item) => /^r\d+$/.test(item.id)),
        'the items themselves',
      );
    });
  }

  it('names the item of a form in a shape error (the log says where)', () => {
    assert.throws(
      () =>
        readPage({ results: [{ id: 1 }] }, REQUEST, (item, path) => {
          throw new ShapeError(`${path}.id`, 'a string', typeof (item as { id: unknown }).id);
        }),
      /results\[0\]\.id: expected a string, got number/,
    );
  });

  for (const [what, body, message] of [
    ['several arrays and none of the known names', { warnings: [], rows: [] }, /several arrays \(warnings, rows\)/],
    ['no array at all', { page: 1 }, /data: expected an array, got nothing/],
    ['`data` that is not an array, and nothing else', { data: 'soon' }, /data: expected an array, got string/],
    ['a total that is not a whole number', { items: [], total: 'many' }, /total: expected a whole number/],
    ['not an object', 'a page', /expected a page of items/],
  ] as const) {
    it(`refuses a page with ${what}`, () => {
      assert.throws(() => readPage(body, REQUEST, asItem), message);
    });
  }
});

/** Where page 2 of 25 was answered from, for the links an answer names. */
const ANSWERED = 'https://api.example.test/v1/engagements?page=2&pageSize=25';

/** What the client follows to the next page: the list's own URL with `query`. */
const followed = (query: string) => ({ url: `https://api.example.test/v1/engagements?${query}` });

/** How a page says where the next one is (and its total outside the body), and what the client makes of it. */
const NEXT_FORMS: Array<{
  form: string;
  body: unknown;
  headers?: Record<string, string>;
  expected: Pick<Page<Item>, 'next' | 'more' | 'totalCount' | 'totalEstimated'>;
}> = [
  {
    form: 'limit/offset: {count, next: absolute URL, results}',
    body: { count: 230, next: 'https://api.example.test/v1/engagements?limit=25&offset=50', results: items(25, 25) },
    expected: { next: followed('limit=25&offset=50'), more: true, totalCount: 230 },
  },
  {
    form: 'a relative next link, resolved against the URL that answered',
    body: { results: items(25, 25), next: '?limit=25&offset=50' },
    expected: { next: followed('limit=25&offset=50'), more: true, totalCount: 51, totalEstimated: true },
  },
  {
    form: "next is the list's own page + 1: page numbers work, nothing to follow",
    body: { count: 230, next: '/v1/engagements?page=3&pageSize=25', results: items(25, 25) },
    expected: { more: true, totalCount: 230 },
  },
  {
    form: 'next: null, no total: the last page, counted',
    body: { results: items(25, 10), next: null },
    expected: { more: false, totalCount: 35, totalEstimated: true },
  },
  {
    form: 'JSON:API: links.next',
    body: { data: items(25, 25), links: { self: ANSWERED, next: '/v1/engagements?page%5Bafter%5D=xyz' } },
    expected: { next: followed('page%5Bafter%5D=xyz'), more: true, totalCount: 51, totalEstimated: true },
  },
  {
    form: 'HAL: _links.next.href',
    body: { items: items(25, 25), _links: { next: { href: '/v1/engagements?cursor=k2' } }, total: 230 },
    expected: { next: followed('cursor=k2'), more: true, totalCount: 230 },
  },
  {
    form: 'Laravel: next_page_url',
    body: {
      data: items(25, 25),
      next_page_url: 'https://api.example.test/v1/engagements?cursor=eyJpZCI6NTB9',
      total: 230,
    },
    expected: { next: followed('cursor=eyJpZCI6NTB9'), more: true, totalCount: 230 },
  },
  {
    form: 'a cursor token: {items, next_cursor}, sent back as `cursor`',
    body: { items: items(25, 25), next_cursor: 'b3BhcXVl' },
    expected: { next: { query: { cursor: 'b3BhcXVl' } }, more: true, totalCount: 51, totalEstimated: true },
  },
  {
    form: 'a page token under meta: meta.nextPageToken, sent back as `pageToken`',
    body: { data: items(25, 25), meta: { nextPageToken: 'tok-3' } },
    expected: { next: { query: { pageToken: 'tok-3' } }, more: true, totalCount: 51, totalEstimated: true },
  },
  {
    form: 'a `next` that is no URL: a cursor',
    body: { results: items(25, 25), next: 'c-51' },
    expected: { next: { query: { cursor: 'c-51' } }, more: true, totalCount: 51, totalEstimated: true },
  },
  {
    form: "Stripe: has_more, the next page after the last item's id",
    body: { object: 'list', data: items(25, 25), has_more: true },
    expected: { next: { query: { starting_after: 'r49' } }, more: true, totalCount: 51, totalEstimated: true },
  },
  {
    form: 'Stripe: has_more false, a short page',
    body: { object: 'list', data: items(25, 3), has_more: false },
    expected: { more: false, totalCount: 28, totalEstimated: true },
  },
  {
    form: 'a bare array with Link rel="next" (a cursor) and X-Total-Count',
    body: items(25, 25),
    headers: {
      Link: '<https://api.example.test/v1/engagements?after=Y3Vy&per_page=25>; rel="next", <https://api.example.test/v1/engagements?per_page=25>; rel="first"',
      'X-Total-Count': '230',
    },
    expected: { next: followed('after=Y3Vy&per_page=25'), more: true, totalCount: 230 },
  },
  {
    form: 'a bare array with Link by page number (rel="next" is page + 1): page numbers work',
    body: items(25, 25),
    headers: {
      Link: '<https://api.example.test/v1/engagements?page=3&per_page=25>; rel="next", <https://api.example.test/v1/engagements?page=10&per_page=25>; rel="last"',
    },
    expected: { more: true, totalCount: 51, totalEstimated: true },
  },
  {
    form: 'a Link header without rel="next": the last page',
    body: items(25, 7),
    headers: { Link: '<https://api.example.test/v1/engagements?page=1&per_page=25>; rel="first"' },
    expected: { more: false, totalCount: 32, totalEstimated: true },
  },
  {
    form: 'a total in a Total header, the body a bare array',
    body: items(25, 25),
    headers: { Total: '230' },
    expected: { totalCount: 230 },
  },
];

describe('next page forms (readPage): where the service says its next page is, and its total outside the body', () => {
  for (const { form, body, headers, expected } of NEXT_FORMS) {
    it(form, () => {
      const page = readPage(body, REQUEST, asItem, { headers: new Headers(headers), url: ANSWERED });
      const { next, more, totalCount, totalEstimated } = page;
      assert.deepEqual(
        JSON.parse(JSON.stringify({ next, more, totalCount, totalEstimated })),
        JSON.parse(JSON.stringify(expected)),
      );
    });
  }
});

describe('fields as frameworks write them, and fields only shown that are missing (parseEngagement)', () => {
  const complete = {
    id: 7,
    name: 'Q3 review',
    type: 'pilot',
    status: 'active',
    evaluation_count: 12,
    created_at: '2026-10-01T09:00:00Z',
    updated_at: '2026-10-02T09:00:00Z',
  };

  it('reads evaluation_count, created_at and updated_at under the contract’s names, not again as extra fields', () => {
    const engagement = parseEngagement(complete);
    assert.deepEqual(engagement, {
      id: '7',
      name: 'Q3 review',
      type: 'pilot',
      status: 'active',
      evaluationCount: 12,
      createdAt: '2026-10-01T09:00:00Z',
      updatedAt: '2026-10-02T09:00:00Z',
    });
  });

  it('a field under both names keeps the contract’s value', () => {
    const engagement = parseEngagement({ ...complete, evaluationCount: 13 });
    assert.equal(engagement.evaluationCount, 13);
    assert.equal(engagement.evaluation_count, 12);
  });

  it('a count, a time or a description missing or malformed is unknown and told once per field, however many rows', () => {
    const unread = new UnreadFields();
    const rows = [
      { ...complete, evaluation_count: 'many' },
      { ...complete, evaluation_count: undefined, created_at: 42 },
      { ...complete, description: 7 },
      { ...complete, updated_at: null },
    ];
    const page = readPage({ data: rows, total: 4 }, REQUEST, (item, path) => parseEngagement(item, path, unread));
    assert.equal(page.data.length, 4, 'every row is read');
    assert.deepEqual(
      page.data.map((e) => [e.evaluationCount, e.createdAt, e.updatedAt, e.description]),
      [
        [undefined, '2026-10-01T09:00:00Z', '2026-10-02T09:00:00Z', undefined],
        [undefined, undefined, '2026-10-02T09:00:00Z', undefined],
        [12, '2026-10-01T09:00:00Z', '2026-10-02T09:00:00Z', undefined],
        [12, '2026-10-01T09:00:00Z', undefined, undefined],
      ],
    );
    assert.equal(
      unread.summary(),
      'evaluationCount unknown on 2 items (first: data[0].evaluationCount: expected an integer, got "many"); ' +
        'createdAt unknown on 1 item (first: data[1].createdAt: expected a string, got number 42); ' +
        'description unknown on 1 item (first: data[2].description: expected a string, got number 7); ' +
        'updatedAt unknown on 1 item (first: data[3].updatedAt: expected a string, got null)',
    );
  });

  // Until issue 45 a row without its name, type or status was unreadable and failed the whole
  // list; now only a row without a usable id is (it cannot be opened or told from another).
  it('an engagement without its id is unreadable, the field named', () => {
    const row: Record<string, unknown> = { ...complete };
    delete row.id;
    assert.throws(() => parseEngagement(row, 'data[0]'), {
      name: 'ShapeError',
      message: /^data\[0\]\.id: expected a non-empty string or a whole number, got nothing$/,
    });
  });

  it('an engagement without its name, type or status is read with that field unknown, told once per field', () => {
    const unread = new UnreadFields();
    const rows = (['name', 'type', 'status'] as const).map((field) => {
      const row: Record<string, unknown> = { ...complete, id: field };
      delete row[field];
      return row;
    });
    rows.push({ ...complete, id: 'numbered', status: 3 });
    const page = readPage(rows, REQUEST, (item, path) => parseEngagement(item, path, unread));
    assert.deepEqual(
      page.data.map((e) => [e.id, e.name, e.type, e.status]),
      [
        ['name', undefined, 'pilot', 'active'],
        ['type', 'Q3 review', undefined, 'active'],
        ['status', 'Q3 review', 'pilot', undefined],
        ['numbered', 'Q3 review', 'pilot', undefined],
      ],
    );
    assert.equal(
      unread.summary(),
      'name unknown on 1 item (first: [0].name: expected a string, got nothing); ' +
        'type unknown on 1 item (first: [1].type: expected a string, got nothing); ' +
        'status unknown on 2 items (first: [2].status: expected a string, got nothing)',
    );
  });

  it('a list row without a usable id is left out, counted, and named once in the log', () => {
    const unread = new UnreadFields();
    const rows = [{ ...complete, id: 1 }, { ...complete, id: '' }, { ...complete, id: 3 }, 'not a row'];
    const page = withoutUnlisted(
      readPage({ data: rows, total: 4 }, REQUEST, (item, path) => parseListedEngagement(item, path, unread)),
    );
    assert.deepEqual(
      page.data.map((e) => e.id),
      ['1', '3'],
    );
    assert.equal(page.skipped, 2);
    assert.equal(page.totalCount, 4, 'the service’s total is kept: it counts the rows left out');
    assert.equal(
      unread.summary(),
      '2 items without a usable id left out (first: data[1].id: expected a non-empty string or a whole number, got "")',
    );
  });

  it('reads billing_period, key_id and last_used_at of the usage summary and the per-key table', () => {
    const meter = { used: 1, included: 2, overage: 0 };
    const summary = parseUsageSummary({
      billing_period: '2026-10',
      tier: 'growth',
      usage: { calls: meter, webhooks: meter, storage_gb: meter },
    });
    assert.equal(summary.billingPeriod, '2026-10');
    const byKey = parseUsageByKey({
      billing_period: '2026-10',
      keys: [{ key_id: 'k1', name: 'Prod', calls: 3, last_used_at: '2026-10-20T08:00:00Z' }],
    });
    assert.equal(byKey.billingPeriod, '2026-10');
    assert.deepEqual(byKey.keys[0], { keyId: 'k1', name: 'Prod', calls: 3, lastUsedAt: '2026-10-20T08:00:00Z' });
  });
});

describe('write answers that name the engagement (readWriteAnswer)', () => {
  const engagement = {
    id: 'eng_1',
    name: 'Q3 review',
    type: 'quality-review',
    status: 'active',
    evaluationCount: 0,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  };
  const headers = (values: Record<string, string> = {}) => ({ get: (name: string) => values[name] ?? null });
  // A write's answer is the engagement only with its name and type (as EngagementsApi reads it):
  // a bare id or a pending body names the engagement to read back.
  const written = (body: unknown) => parseEngagement(body, '', undefined, ['name', 'type']);
  const read = (status: number, text: string) => readWriteAnswer(status, text, headers(), written, 'id');

  for (const [what, body, named] of [
    ['the whole engagement', engagement, undefined],
    // json-server keeps a create as it was sent: the engagement, its status unknown (issue 45).
    ['the whole engagement without its status', { ...engagement, status: undefined }, undefined],
    ['only its id', { id: 'eng_1' }, 'eng_1'],
    ['only its id, wrapped', { data: { id: 'eng_1' } }, 'eng_1'],
    ['some of its fields', { id: 'eng_1', name: 'Q3 review', status: 'active' }, 'eng_1'],
    ['some of its fields, wrapped', { data: { id: 'eng_1', name: 'Q3 review' } }, 'eng_1'],
    ['a pending body', { status: 'pending', id: 'eng_1' }, 'eng_1'],
    ['a pending body, wrapped', { data: { status: 'pending', id: 'eng_1' } }, 'eng_1'],
    // Integer ids, as json-server, Rails, Django and Spring number records (issue 38): their decimal text.
    ['an id that is a whole number', { id: 7 }, '7'],
    ['a pending body with a whole-number id', { status: 'pending', id: 0 }, '0'],
    ['an id beyond 2^53 (JSON lost its digits)', { id: 2 ** 53 + 2 }, undefined],
    ['an id that is a fraction', { id: 7.5 }, undefined],
    ['an empty id', { id: '  ' }, undefined],
    ['no id', { status: 'pending' }, undefined],
  ] as const) {
    it(`${what}: ${named ? `names ${named}` : what.startsWith('the whole engagement') ? 'is the engagement' : 'names nothing'}`, () => {
      const answer = read(202, JSON.stringify(body));
      assert.equal(answer.namedId, named);
      if (what.startsWith('the whole engagement')) assert.equal(answer.resource?.id, 'eng_1');
      else {
        assert.equal(answer.resource, undefined);
        assert.ok(answer.unreadable, 'why it is not the engagement, for the log');
      }
    });
  }

  it('keeps the Location and the Date the service answered with', () => {
    const answer = readWriteAnswer(
      201,
      '',
      headers({ Location: '/v1/engagements/eng_1', Date: 'Tue, 24 Nov 2026 10:00:00 GMT' }),
      parseEngagement,
      'id',
    );
    assert.deepEqual(
      { location: answer.location, date: answer.date, unreadable: answer.unreadable },
      { location: '/v1/engagements/eng_1', date: 'Tue, 24 Nov 2026 10:00:00 GMT', unreadable: 'an empty body' },
    );
  });
});

describe('a write answer that names the engagement is completed by reading that one engagement', function () {
  const reference = useReferenceService();
  const service = reference.service;
  afterEach(() => service.setReading({}));
  const api = () => reference.api({ retryLimit: 0 });
  const log = () => service.requests.map((r) => `${r.method} ${r.path}`);

  for (const [what, transform] of [
    ['only its id', (e: { id: string }) => ({ id: e.id })],
    ['only its id, wrapped', (e: { id: string }) => ({ data: { id: e.id } })],
    ['some of its fields', (e: { id: string; name: string }) => ({ id: e.id, name: e.name })],
    ['some of its fields, wrapped', (e: { id: string; status: string }) => ({ data: { id: e.id, status: e.status } })],
  ] as const) {
    it(`a create answered with ${what}: exactly 2 requests (POST, GET of it), and the answer is said to have named it`, async () => {
      // A service that answers with some fields and no Location; the body rewritten to each form.
      service.setReading({ writes: 'partial' });
      service.faults.add({
        method: 'POST',
        kind: 'transform',
        times: 1,
        transform: (body) => transform(body as never),
      });
      const before = service.store.engagements.length;
      const created = done(await api().engagements.create({ name: 'Named back', type: 'onboarding' }));
      const made = service.store.engagements[0];
      assert.equal(service.store.engagements.length, before + 1);
      assert.deepEqual(created.engagement, made, 'the whole engagement, as the service holds it');
      assert.equal(created.source, 'named', 'not a search: nothing says "did not name the engagement"');
      assert.deepEqual(log(), ['POST /v1/engagements', `GET /v1/engagements/${made.id}`]);
    });
  }

  it('the same under the readings idOnlyWrites and partialWrapped, for creates and updates', async () => {
    for (const reading of [{ writes: 'idOnly' }, { writes: 'partial', wrapSingle: true }] as const) {
      service.setReading(reading);
      service.clearRequests();
      const created = done(await api().engagements.create({ name: `Named ${reading.writes}`, type: 'onboarding' }));
      assert.equal(created.source, 'named');
      assert.deepEqual(log(), ['POST /v1/engagements', `GET /v1/engagements/${created.engagement.id}`]);
      service.clearRequests();
      const updated = done(await api().engagements.update(created.engagement.id, { status: 'paused' }));
      assert.equal(updated.engagement.status, 'paused');
      assert.deepEqual(log(), [
        `PATCH /v1/engagements/${created.engagement.id}`,
        `GET /v1/engagements/${created.engagement.id}`,
      ]);
    }
  });

  it('a Location alone: the same 2 requests', async () => {
    service.setReading({ writes: 'location' });
    const created = done(await api().engagements.create({ name: 'Located', type: 'onboarding' }));
    assert.equal(created.source, 'location');
    assert.deepEqual(log(), ['POST /v1/engagements', `GET /v1/engagements/${created.engagement.id}`]);
  });

  it('an answer that names nothing: the list is searched (the only case)', async () => {
    service.setReading({ writes: 'silent' });
    const created = done(await api().engagements.create({ name: 'Unnamed', type: 'onboarding' }));
    assert.equal(created.source, 'search');
    assert.equal(log()[0], 'POST /v1/engagements');
    assert.ok(
      log()
        .slice(1)
        .every((line) => line === 'GET /v1/engagements'),
      log().join(', '),
    );
  });
});
