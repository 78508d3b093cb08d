// The one reader of error bodies (src/api/errorBodies.ts), as a table: one row per form a
// service's framework answers its failures in, and hostile rows. Each row is the raw body and
// its content type → what the user is told (`serverMessage`) and which input box gets which
// reason (`fieldErrors`, keyed by the contract's field names).
import assert from 'node:assert/strict';
import { fieldName, readErrorBody, type ErrorBodyInfo } from '../../src/api/errorBodies';
import { ServiceApi } from '../../src/api/service';
import { rejectsWith } from './support/apiErrors';
import { useReferenceService } from './support/referenceService';
import FORMS from './error-bodies.json';

interface Row {
  format: string;
  contentType: string | null;
  /** The body: a string as sent, anything else as its JSON. */
  body: unknown;
  expected: ErrorBodyInfo;
}

const JSON_TYPE = 'application/json';

/**
 * The rows of every framework's form and most hostile ones, by the kind of service that answers
 * so (error-bodies.json: each body as sent, or as the JSON it is sent as); then the hostile rows
 * too large to write out.
 */
const ROWS: Row[] = [
  // JSON types each field by its values; a row is what `Row` says.
  ...Object.values(FORMS as unknown as Record<string, Row[]>).flat(),
  {
    format: 'hostile: 10,000 errors: three shown, the rest counted',
    contentType: JSON_TYPE,
    body: { errors: Array.from({ length: 10_000 }, (_, i) => ({ detail: `reason ${i}` })) },
    expected: { serverMessage: 'reason 0; reason 1; reason 2 (and 9,997 more)' },
  },
  {
    format: 'hostile: 10,000 fields: eight kept, the rest counted',
    contentType: JSON_TYPE,
    body: { errors: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}`, ['bad']])) },
    expected: {
      serverMessage: 'the service gave 10,000 reasons',
      fieldErrors: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, 'bad'])),
    },
  },
  {
    format: 'hostile: one field with 1,000 messages',
    contentType: JSON_TYPE,
    body: { errors: { name: Array.from({ length: 1000 }, (_, i) => `m${i}`) } },
    expected: { fieldErrors: { name: 'm0; m1; m2' } },
  },
  {
    format: 'hostile: a 5,000-character message is cut to 300',
    contentType: JSON_TYPE,
    body: { detail: 'x'.repeat(5000) },
    expected: { serverMessage: `${'x'.repeat(299)}…` },
  },
  {
    format: 'hostile: a 1,000-character field name is cut to 60',
    contentType: JSON_TYPE,
    body: { errors: { ['k'.repeat(1000)]: ['bad'] } },
    expected: { fieldErrors: { [`${'k'.repeat(59)}…`]: 'bad' } },
  },
];

describe('error bodies of every framework (one reader, a table)', () => {
  for (const row of ROWS) {
    it(row.format, () => {
      const text = typeof row.body === 'string' ? row.body : JSON.stringify(row.body);
      const read = readErrorBody(text, row.contentType);
      assert.deepEqual(read, row.expected);
      // Never raw JSON, never more than a few lines' worth.
      for (const message of [read.serverMessage ?? '', ...Object.values(read.fieldErrors ?? {})]) {
        assert.doesNotMatch(message, /[{[]\s*"/, 'no JSON in what is shown');
        assert.ok(message.length <= 400, `${message.length} characters`);
        assert.doesNotMatch(message, /\n/);
      }
      if (read.fieldErrors) assert.equal(Object.getPrototypeOf(read.fieldErrors), Object.prototype);
    });
  }

  it('field names are matched by their last path segment and case-insensitively', () => {
    const cases: Array<[unknown, string | undefined]> = [
      ['/data/attributes/name', 'name'],
      ['#/name', 'name'],
      ['body.name', 'name'],
      ['$.Name', 'name'],
      ['Name', 'name'],
      ['NAME', 'name'],
      [['body', 'name'], 'name'],
      ['engagement.description', 'description'],
      ['page_size', 'pageSize'],
      ['BILLING_PERIOD', 'billingPeriod'],
      ['items[0].status', 'status'],
      [['body', 'tags', 0], 'tags'],
      ['priority', 'priority'],
      ['/data', undefined],
      [['body'], undefined],
      ['', undefined],
      ['$', undefined],
      [5, undefined],
      [null, undefined],
    ];
    assert.deepEqual(
      cases.map(([raw]) => fieldName(raw)),
      cases.map(([, expected]) => expected),
    );
  });
});

describe('error bodies through the client: the key never shows', () => {
  const reference = useReferenceService();

  it('a key echoed in any form’s message or field name is redacted, escaped or not', async () => {
    const service = reference.service;
    const key = service.keys.admin;
    const escaped = JSON.stringify(key)
      .slice(1, -1)
      .replace(/[a-z]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
    const bodies = [
      JSON.stringify({ errors: [{ detail: `Key ${key} is malformed`, source: { pointer: '/data/attributes/name' } }] }),
      JSON.stringify({ detail: [{ loc: ['body', 'name'], msg: `bad key ${key}` }] }),
      JSON.stringify({ title: 'Invalid', errors: { [`$.${key}`]: [`the key ${key}`] } }),
      `{"error": {"code": 400, "message": "key ${escaped}", "details": [{"fieldViolations": [{"field": "name", "description": "${escaped}"}]}]}}`,
      JSON.stringify({ message: JSON.stringify({ detail: `Unknown key ${key}` }) }),
    ];
    const api = new ServiceApi({ baseUrl: service.baseUrl, getKey: () => key, retryLimit: 0 });
    for (const rawBody of bodies) {
      service.faults.add({ method: 'POST', kind: 'status', status: 422, rawBody, times: 1 });
      const error = await rejectsWith(api.engagements.create({ name: 'x', type: 'y' }), 'invalidRequest');
      const shown = JSON.stringify([error.message, error.serverMessage, error.fieldErrors]);
      assert.ok(!shown.includes(key), `the key shows in ${shown}`);
      assert.ok(!shown.includes(key.slice(key.indexOf('.') + 1)), 'nor its secret part');
      assert.match(shown, /\[redacted\]/, `redacted where it was: ${shown}`);
    }
  });
});
