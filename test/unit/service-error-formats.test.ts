// The reference service speaks each framework's error format (test/service/errorFormats.ts):
// its own failures, on the wire, in that framework's body, content type and status code.
import assert from 'node:assert/strict';
import { FRAMEWORK_ERRORS, type FrameworkErrors, NAME_MAX_LENGTH, type RunningService } from '../service/server';
import { probe, type ProbeResult } from '../service/probe';
import { useReferenceService } from './support/referenceService';

type Item = Record<string, unknown>;
type Step = string | number | ((item: Item) => boolean);

/** The value at a path of keys, indices and list searches; undefined where the body has nothing. */
function dig(value: unknown, ...steps: Step[]): unknown {
  let current = value;
  for (const step of steps) {
    if (typeof step === 'function')
      current = Array.isArray(current)
        ? current.find((item) => typeof item === 'object' && item !== null && step(item as Item))
        : undefined;
    else current = typeof current === 'object' && current !== null ? (current as Item)[step] : undefined;
  }
  return current;
}

interface Expected {
  contentType: RegExp;
  /** The status of a create whose name is too long (the service's own: 422). */
  validation: number;
  /** Where that framework puts the reason for `name`. */
  nameReason: (body: unknown) => unknown;
  /** Where it puts the message of a failure that names no field (a 401). */
  message: (body: unknown) => unknown;
  /** The status of a PATCH whose precondition failed (the service's own: 412). */
  precondition: number;
}

const JSON_TYPE = /^application\/json/;
const PROBLEM = /^application\/problem\+json/;
const JSON_API = /^application\/vnd\.api\+json/;

/** A framework's failures: their content type, two statuses, and the paths to the name's reason and to a message. */
function form(
  contentType: RegExp,
  validation: number,
  precondition: number,
  nameAt: Step[],
  messageAt: Step[],
): Expected {
  return {
    contentType,
    validation,
    precondition,
    nameReason: (b) => dig(b, ...nameAt),
    message: (b) => dig(b, ...messageAt),
  };
}
const fieldIs =
  (field: string, ...at: Step[]) =>
  (e: Item) =>
    dig(e, ...at) === field;

/** How the forms that list their reasons find the one for `name`. */
const NAMED = {
  jsonapi: fieldIs('/data/attributes/name', 'source', 'pointer'),
  fastapi: (e: Item) => Array.isArray(e.loc) && e.loc.join('.') === 'body.name',
  google: fieldIs('engagement.name', 'field'),
};

const EXPECTED: Record<FrameworkErrors, Expected> = {
  problem: form(PROBLEM, 422, 412, ['errors', fieldIs('#/name', 'pointer'), 'detail'], ['detail']),
  jsonapi: form(JSON_API, 422, 412, ['errors', NAMED.jsonapi, 'detail'], ['errors', 0, 'detail']),
  fastapi: form(JSON_TYPE, 422, 412, ['detail', NAMED.fastapi, 'msg'], ['detail']),
  google: form(
    JSON_TYPE,
    400,
    409,
    ['error', 'details', 0, 'fieldViolations', NAMED.google, 'description'],
    ['error', 'message'],
  ),
  rails: form(JSON_TYPE, 422, 412, ['errors', 'name', 0], ['error']),
  aspnet: form(PROBLEM, 400, 412, ['errors', 'Name', 0], ['detail']),
  spring: form(JSON_TYPE, 400, 412, ['errors', fieldIs('name', 'field'), 'defaultMessage'], ['message']),
  django: form(JSON_TYPE, 400, 412, ['name', 0], ['detail']),
  graphql: form(
    JSON_TYPE,
    400,
    412,
    ['errors', fieldIs('name', 'extensions', 'field'), 'message'],
    ['errors', 0, 'message'],
  ),
};

describe('reference service: error bodies as each framework writes them', () => {
  const reference = useReferenceService();
  let svc: RunningService;
  before(() => {
    svc = reference.service;
  });
  afterEach(() => svc.setReading({}));

  it('refuses a name longer than its limit, naming the field, in its own form', async () => {
    const r = await probe<{ error: { fields: Record<string, string> } }>(svc.baseUrl, 'POST', '/engagements', {
      key: svc.keys.admin,
      body: { name: 'n'.repeat(NAME_MAX_LENGTH + 1), type: 'onboarding' },
    });
    assert.equal(r.status, 422);
    assert.deepEqual(r.json.error.fields, { name: 'name must have at most 200 characters' });
    const ok = await probe(svc.baseUrl, 'POST', '/engagements', {
      key: svc.keys.admin,
      body: { name: '😀'.repeat(NAME_MAX_LENGTH), type: 'onboarding' },
    });
    assert.equal(ok.status, 201, 'counted in characters, not UTF-16 units');
  });

  for (const format of FRAMEWORK_ERRORS) {
    it(`${format}: 422/400 naming the field, 401, 403, 404, 412 and an injected 429, each with its status and content type`, async () => {
      const expected = EXPECTED[format];
      svc.setReading({ errorBodies: format });
      const check = (r: ProbeResult<unknown>, status: number) => {
        assert.equal(r.status, status, r.text);
        assert.match(r.headers.get('content-type') ?? '', expected.contentType);
        assert.ok(r.json, 'a JSON body');
      };

      const tooLong = await probe<unknown>(svc.baseUrl, 'POST', '/engagements', {
        key: svc.keys.admin,
        body: { name: 'n'.repeat(NAME_MAX_LENGTH + 1), type: '' },
      });
      check(tooLong, expected.validation);
      assert.match(String(expected.nameReason(tooLong.json)), /at most 200 characters/);
      assert.ok(!tooLong.text.includes('"fields"'), 'not the reference form');

      const rejected = await probe<unknown>(svc.baseUrl, 'GET', '/engagements', { key: 'nope' });
      check(rejected, 401);
      assert.equal(expected.message(rejected.json), 'The API key is not valid');
      assert.equal(rejected.headers.get('www-authenticate'), 'Bearer', 'the headers stay');

      const forbidden = await probe<unknown>(svc.baseUrl, 'POST', '/engagements', {
        key: svc.keys.readOnly,
        body: { name: 'x', type: 'y' },
      });
      check(forbidden, 403);
      assert.match(forbidden.text, /lacks the scope engagements:write/);

      const missing = await probe<unknown>(svc.baseUrl, 'GET', '/engagements/eng_missing', { key: svc.keys.admin });
      check(missing, 404);

      const target = svc.store.engagements[0];
      const stale = await probe<unknown>(svc.baseUrl, 'PATCH', `/engagements/${target.id}`, {
        key: svc.keys.admin,
        body: { name: 'x' },
        headers: { 'If-Match': '"not-the-etag"' },
      });
      check(stale, expected.precondition);

      svc.faults.add({ method: 'GET', kind: 'status', status: 429, headers: { 'Retry-After': '2' }, times: 1 });
      const limited = await probe<unknown>(svc.baseUrl, 'GET', '/engagements', { key: svc.keys.admin });
      check(limited, 429);
      assert.equal(limited.headers.get('retry-after'), '2');
      assert.match(limited.text, /Injected fault: HTTP 429/);
    });
  }

  it('a fault with a body of its own keeps it, whatever the reading', async () => {
    svc.setReading({ errorBodies: 'jsonapi' });
    svc.faults.add({ method: 'GET', kind: 'status', status: 422, body: { mine: true }, times: 1 });
    const r = await probe<unknown>(svc.baseUrl, 'GET', '/engagements', { key: svc.keys.admin });
    assert.equal(r.status, 422);
    assert.deepEqual(r.json, { mine: true });
  });
});
