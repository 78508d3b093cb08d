import assert from 'node:assert/strict';
import {
  columnTitle,
  compactValue,
  deriveColumns,
  fullValue,
  keyIdOfApiKey,
  keyRows,
  maskKeyId,
  maskKeyIds,
  sortKeyRows,
  type KeyRow,
  type KeySort,
} from '../../src/core/records';
import { recordsShown } from '../../src/usage/sections';

describe('usage: detail record columns and values', () => {
  it('derives columns from the records, in order of first appearance, id first', () => {
    const records = [
      { timestamp: '2026-11-01T00:00:00Z', id: 'req_1', endpoint: '/v1/engagements' },
      { id: 'req_2', statusCode: 200, timestamp: '2026-11-02T00:00:00Z' },
      { id: 'req_3', meta: { region: 'eu-west-1' } },
    ];
    assert.deepEqual(deriveColumns(records), ['id', 'timestamp', 'endpoint', 'statusCode', 'meta']);
    assert.deepEqual(deriveColumns([]), []);
    assert.deepEqual(deriveColumns([{ b: 1 }, { a: 1 }]), ['b', 'a']);
  });

  it('bounds the number of columns of very wide records', () => {
    const wide = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, i]));
    assert.equal(deriveColumns([wide]).length, 40);
    assert.equal(deriveColumns([wide], 5).length, 5);
  });

  it('shows nested values compactly and whole in the tooltip', () => {
    assert.equal(compactValue({ region: 'eu-west-1', sdk: 'node/2.3.1' }), 'region: eu-west-1, sdk: node/2.3.1');
    assert.equal(compactValue([1, 'two', { three: 3 }]), '[1, two, {three: 3}]');
    assert.equal(compactValue({ a: { b: { c: { d: 1 } } } }), 'a: {b: {"c":{"d":1}}}');
    assert.equal(compactValue(null), '', 'a null cell is empty');
    assert.equal(compactValue({ a: null }), 'a: null');
    assert.equal(compactValue(undefined), '');
    assert.equal(compactValue(42), '42');
    assert.equal(compactValue(false), 'false');
    assert.equal(compactValue('line one\nline two'), 'line one line two');
    const long = compactValue('x'.repeat(200));
    assert.equal(Array.from(long).length, 80);
    assert.ok(long.endsWith('…'));
    assert.equal(fullValue({ a: 1 }), '{\n  "a": 1\n}');
    assert.equal(fullValue('<b>as text</b>'), '<b>as text</b>');
  });

  it('heads each column with its field name in words: cases split, acronyms in capitals, units in brackets', () => {
    const heads = Object.fromEntries(
      [
        'id',
        'timestamp',
        'statusCode',
        'durationMs',
        'keyId',
        'storage_gb',
        'created_at',
        'HTTPStatus',
        'request-url',
        'bytesSent',
        'latency_seconds',
        'meta',
        'apiKeyId',
        'constructor',
        '_',
      ].map((field) => [field, columnTitle(field)]),
    );
    assert.deepEqual(heads, {
      id: 'ID',
      timestamp: 'Timestamp',
      statusCode: 'Status code',
      durationMs: 'Duration (ms)',
      keyId: 'Key ID',
      storage_gb: 'Storage (GB)',
      created_at: 'Created at',
      HTTPStatus: 'HTTP status',
      'request-url': 'Request URL',
      bytesSent: 'Bytes sent',
      latency_seconds: 'Latency (s)',
      meta: 'Meta',
      apiKeyId: 'API key ID',
      constructor: 'Constructor',
      _: '_',
    });
  });

  it('shows the records’ key ids as the per-key table does; a key it does not list masked alone; other fields as sent', () => {
    const details = {
      period: '2026-11',
      page: 1,
      pageSize: 25,
      totalCount: 3,
      columns: ['id', 'keyId', 'statusCode'],
      records: [
        { id: 'r1', keyId: 'key_admin', statusCode: 200 },
        { id: 'r2', keyId: 'key_unlisted_one', statusCode: 403 },
        { id: 'r3', keyId: 7, statusCode: 200 },
      ],
    };
    const byMask = new Map([['key_…min', { keyId: 'key_admin', name: 'Admin' }]]);
    const shown = recordsShown(details, byMask);
    assert.deepEqual(
      shown.records.map((r) => r.keyId),
      ['key_…min', maskKeyId('key_unlisted_one'), 7],
    );
    assert.deepEqual(
      details.records[0].keyId,
      'key_admin',
      'the records themselves (filters, exports) are not changed',
    );
    const keyless = { ...details, columns: ['id', 'statusCode'] };
    assert.equal(recordsShown(keyless, byMask), keyless, 'records without a key column are shown as sent');
  });
});

describe('usage: per-key rows', () => {
  const keys = [
    { keyId: 'key_admin', name: 'Admin (demo)', calls: 600, lastUsedAt: '2026-11-18T10:00:00Z' },
    { keyId: 'key_ci', name: 'CI pipeline', calls: 300, lastUsedAt: '2026-11-19T10:00:00Z' },
    { keyId: 'key_billing', name: 'billing reporter', calls: 100, lastUsedAt: '' },
  ];

  it('masks key ids: start and end only, never the whole id', () => {
    assert.equal(maskKeyId('key_admin'), 'key…min');
    assert.equal(maskKeyId('key_0123456789abcdef'), 'key_…cdef');
    assert.equal(maskKeyId('abcd'), 'a…d');
    assert.equal(maskKeyId('abc'), '…');
    for (const id of ['key_admin', 'key_0123456789abcdef', 'abcd']) assert.notEqual(maskKeyId(id), id);
  });

  it('masks the ids of one table so that no two look the same, never showing a whole id', () => {
    const ids = ['key_prod_0001', 'key_prod_0002', 'key_stag_0001', 'key_all', 'key_ill'];
    const masks = maskKeyIds(ids);
    assert.equal(new Set(masks).size, ids.length, `distinct: ${masks.join(', ')}`);
    masks.forEach((mask, i) => {
      assert.ok(mask.includes('…') && mask !== ids[i], `${ids[i]} is masked (${mask})`);
      const [start, end] = mask.split('…');
      assert.ok(ids[i].startsWith(start) && ids[i].endsWith(end), `${mask} shows the ends of ${ids[i]}`);
    });
    // Alone, the same id keeps its usual mask.
    assert.deepEqual(maskKeyIds(['key_admin']), [maskKeyId('key_admin')]);
  });

  it('masks the ids of one table evenly: as many characters at each end of every id', () => {
    const shapes = (masks: string[]) => masks.map((m) => m.split('…').map((part) => Array.from(part).length));
    const ids = ['k_ab01', 'kx863', 'key_0123456789abcdef', 'key_admin'];
    const masks = maskKeyIds(ids);
    assert.equal(new Set(masks).size, ids.length, masks.join(', '));
    assert.deepEqual(new Set(shapes(masks).map((s) => s.join('/'))).size, 1, `one shape: ${masks.join(', ')}`);
    // Widened to tell two apart, every id shows the same number of characters.
    const wide = maskKeyIds(['key_prod_0001', 'key_prod_0002', 'key_stag_0003']);
    assert.equal(new Set(wide).size, 3, wide.join(', '));
    assert.equal(new Set(shapes(wide).map((s) => s.join('/'))).size, 1, `one shape: ${wide.join(', ')}`);
    for (const [i, id] of ['key_prod_0001', 'key_prod_0002', 'key_stag_0003'].entries())
      assert.ok(Array.from(wide[i].replace('…', '')).length <= (id.length * 2) / 3, `a third of ${id} hidden`);
  });

  it('tells the key id of a `<keyId>.<secret>` key, and nothing for other forms', () => {
    assert.equal(keyIdOfApiKey('key_admin.demo-admin-7f3a9c'), 'key_admin');
    assert.equal(keyIdOfApiKey('a.b.c'), 'a');
    for (const key of [undefined, '', 'plainsecret', '.secret', 'key_admin.', 'key admin.secret'])
      assert.equal(keyIdOfApiKey(key), undefined, String(key));
  });

  it("computes each key's share of all calls and marks the current key", () => {
    const rows = keyRows(keys, 'key_ci');
    assert.deepEqual(
      rows.map(({ share, current, maskedKeyId }) => ({ share, current, maskedKeyId })),
      [
        // One shape for the table: two characters at each end, as the shortest id allows.
        { share: 0.6, current: false, maskedKeyId: 'ke…in' },
        { share: 0.3, current: true, maskedKeyId: 'ke…ci' },
        { share: 0.1, current: false, maskedKeyId: 'ke…ng' },
      ],
    );
    assert.ok(
      rows.every((r) => !('keyId' in r)),
      'the full key id does not leave the host',
    );
    assert.deepEqual(
      keyRows(keys).map((r) => r.current),
      [false, false, false],
    );
    assert.deepEqual(
      keyRows([{ keyId: 'k', name: 'n', calls: 0, lastUsedAt: '' }]).map((r) => r.share),
      [0],
    );
  });

  const names = (rows: KeyRow[]) => rows.map((r) => r.name);
  const ADMIN = 'Admin (demo)';
  const CI = 'CI pipeline';
  const BILLING = 'billing reporter';
  /** Each sort and the order of names it gives. */
  const expectOrders = (rows: KeyRow[], orders: Array<[KeySort, string[]]>) => {
    for (const [sort, expected] of orders)
      assert.deepEqual(names(sortKeyRows(rows, sort)), expected, `${sort.column} ${sort.direction}`);
  };

  it('sorts by each column, both ways', () => {
    expectOrders(keyRows(keys), [
      [{ column: 'calls', direction: 'desc' }, [ADMIN, CI, BILLING]],
      [{ column: 'calls', direction: 'asc' }, [BILLING, CI, ADMIN]],
      [{ column: 'share', direction: 'asc' }, [BILLING, CI, ADMIN]],
      // Case-insensitive, as people read names.
      [{ column: 'name', direction: 'asc' }, [ADMIN, BILLING, CI]],
      [{ column: 'name', direction: 'desc' }, [CI, BILLING, ADMIN]],
      // Key ids sort as they are shown (masked): ke…ci, ke…in, ke…ng.
      [{ column: 'keyId', direction: 'asc' }, [CI, ADMIN, BILLING]],
      [{ column: 'keyId', direction: 'desc' }, [BILLING, ADMIN, CI]],
    ]);
  });

  it('sorts by last use with unknown dates last in both directions', () => {
    expectOrders(keyRows(keys), [
      [{ column: 'lastUsedAt', direction: 'desc' }, [CI, ADMIN, BILLING]],
      [{ column: 'lastUsedAt', direction: 'asc' }, [ADMIN, CI, BILLING]],
    ]);
  });

  it('breaks ties by name and leaves the input untouched', () => {
    const tied = keyRows([
      { keyId: 'k2', name: 'Zed', calls: 5, lastUsedAt: '' },
      { keyId: 'k1', name: 'Amy', calls: 5, lastUsedAt: '' },
    ]);
    const before = names(tied);
    assert.deepEqual(names(sortKeyRows(tied, { column: 'calls', direction: 'desc' })), ['Amy', 'Zed']);
    assert.deepEqual(names(sortKeyRows(tied, { column: 'calls', direction: 'asc' })), ['Amy', 'Zed']);
    assert.deepEqual(names(tied), before);
  });
});
