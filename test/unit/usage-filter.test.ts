import assert from 'node:assert/strict';
import {
  deriveColumns,
  filterRecords,
  isFilterActive,
  keyColumn,
  statusClassOf,
  statusColumn,
} from '../../src/core/records';
import { parseFilter, parseViewState, parseWebviewMessage } from '../../src/usage/protocol';

const records = [
  { id: 'r1', keyId: 'key_admin', endpoint: '/v1/engagements', statusCode: 200, meta: { region: 'eu-west-1' } },
  { id: 'r2', keyId: 'key_ci', endpoint: '/v1/usage/summary', statusCode: 429, meta: { region: 'us-east-1' } },
  { id: 'r3', keyId: 'key_admin', endpoint: '/v1/engagements/eng_1', statusCode: '404', meta: null },
  { id: 'r4', keyId: 'key_admin', endpoint: '/v1/engagements', statusCode: 503 },
];
const columns = deriveColumns(records);
const ids = (list: Array<Record<string, unknown>>) => list.map((r) => r.id);

describe('usage: filtering the records of a period', () => {
  it('finds the key and status columns by their names', () => {
    assert.equal(keyColumn(columns), 'keyId');
    assert.equal(keyColumn(['api_key_id']), 'api_key_id');
    assert.equal(statusColumn(columns), 'statusCode');
    assert.equal(statusColumn(['http_status', 'status']), 'http_status');
    assert.equal(statusColumn(['id']), undefined);
  });

  it('classes status codes, numbers or digits in text', () => {
    assert.equal(statusClassOf(201), '2xx');
    assert.equal(statusClassOf('404'), '4xx');
    assert.equal(statusClassOf(599), '5xx');
    for (const odd of [99, 600, '4o4', null, 200.5, 'ok']) assert.equal(statusClassOf(odd), undefined, String(odd));
  });

  it("filters by key, status class and a column's text (or any column), all together", () => {
    assert.deepEqual(ids(filterRecords(records, columns, { keyId: 'key_admin' })), ['r1', 'r3', 'r4']);
    assert.deepEqual(ids(filterRecords(records, columns, { status: '4xx' })), ['r2', 'r3']);
    assert.deepEqual(ids(filterRecords(records, columns, { keyId: 'key_admin', status: '4xx' })), ['r3']);
    assert.deepEqual(
      ids(filterRecords(records, columns, { column: 'endpoint', text: 'ENGAGEMENTS' })),
      ['r1', 'r3', 'r4'],
      'case-insensitive',
    );
    assert.deepEqual(
      ids(filterRecords(records, columns, { text: 'us-east' })),
      ['r2'],
      'any column, nested values too',
    );
    assert.deepEqual(
      ids(filterRecords(records, columns, { column: 'meta', text: 'null' })),
      [],
      'a null cell is empty, not "null"',
    );
    assert.deepEqual(
      ids(filterRecords(records, ['id'], { status: '2xx' })),
      [],
      'no status column: nothing matches a status filter',
    );
  });

  it('knows an empty filter from an active one', () => {
    assert.equal(isFilterActive(undefined), false);
    assert.equal(isFilterActive({ column: 'endpoint', text: '  ' }), false);
    assert.equal(isFilterActive({ status: '5xx' }), true);
  });

  it('takes from the webview only well-formed filters', () => {
    assert.deepEqual(
      parseWebviewMessage({ type: 'setFilter', filter: { keyId: 'key_ci', status: '4xx', text: 'x', extra: 1 } }),
      { type: 'setFilter', filter: { keyId: 'key_ci', status: '4xx', text: 'x' } },
    );
    assert.deepEqual(parseWebviewMessage({ type: 'setFilter', filter: {} }), { type: 'setFilter', filter: {} });
    for (const filter of [null, 'x', { status: '6xx' }, { text: 5 }, { column: 'c'.repeat(201) }])
      assert.equal(parseWebviewMessage({ type: 'setFilter', filter }), undefined, JSON.stringify(filter));
    assert.deepEqual(parseWebviewMessage({ type: 'filterKey', maskedKeyId: 'key…min' }), {
      type: 'filterKey',
      maskedKeyId: 'key…min',
    });
    assert.equal(parseWebviewMessage({ type: 'filterKey' }), undefined);
    assert.deepEqual(parseWebviewMessage({ type: 'cancelScan', junk: true }), { type: 'cancelScan' });
    assert.equal(parseFilter({ status: 'all' }), undefined);
  });

  it('restores a filter with the view after a reload, and drops a broken one', () => {
    const view = {
      environmentId: 'e',
      period: '2026-10',
      sort: { column: 'name', direction: 'asc' },
      page: 1,
      pageSize: 25,
    };
    assert.deepEqual(parseViewState({ ...view, filter: { status: '5xx' } }, '2026-11')?.filter, { status: '5xx' });
    assert.equal(parseViewState({ ...view, filter: { status: 7 } }, '2026-11')?.filter, undefined);
  });
});
