// The one reader of error bodies (src/api/errorBodies.ts), as a table: one row per form a
// service's framework answers its failures in, and hostile rows. Each row is the raw body and
// its content type → what the user is told (`serverMessage`) and which input box gets which
// reason (`fieldErrors`, keyed by the contract's field names).
import assert from 'node:assert/strict';
import { ERROR_BODY_LIMITS, fieldName, readErrorBody, type ErrorBodyInfo } from '../../src/api/errorBodies';
import { ServiceApi } from '../../src/api/service';
import { rejectsWith } from './support/apiErrors';
import { useReferenceService } from './support/referenceService';

interface Row {
  format: string;
  contentType: string | null;
  /** The body: a string as sent, anything else as its JSON. */
  body: unknown;
  expected: ErrorBodyInfo;
}

const JSON_TYPE = 'application/json';
const PROBLEM = 'application/problem+json';
const JSON_API = 'application/vnd.api+json';
const NAME_TOO_LONG = 'name must have at most 200 characters';

const ROWS: Row[] = [
  // This service's reference form, and what was read before.
  {
    format: 'reference {error: {code, message, fields}}',
    contentType: JSON_TYPE,
    body: { error: { code: 'validation_failed', message: NAME_TOO_LONG, fields: { name: NAME_TOO_LONG } } },
    expected: { serverMessage: NAME_TOO_LONG, fieldErrors: { name: NAME_TOO_LONG } },
  },
  {
    format: 'reference 403 naming the scope',
    contentType: JSON_TYPE,
    body: {
      error: {
        code: 'insufficient_scope',
        message: 'This API key lacks the scope engagements:write',
        requiredScope: 'engagements:write',
      },
    },
    expected: { serverMessage: 'This API key lacks the scope engagements:write', scope: 'engagements:write' },
  },
  {
    format: 'reference 403 naming a scope the contract does not know',
    contentType: JSON_TYPE,
    body: { error: { message: 'x', requiredScope: 'admin:all' } },
    expected: { serverMessage: 'x' },
  },
  {
    format: '{message, errors: [{field, message}]}',
    contentType: null,
    body: { message: 'Nope', errors: [{ field: 'type', message: 'unknown' }] },
    expected: { serverMessage: 'Nope', fieldErrors: { type: 'unknown' } },
  },
  // RFC 9457 / 7807 problem details.
  {
    format: 'problem details with an `errors` extension [{detail, pointer}]',
    contentType: PROBLEM,
    body: {
      type: 'https://example.test/problems/validation',
      title: 'Unprocessable Content',
      status: 422,
      detail: 'The engagement is not valid',
      instance: '/v1/engagements',
      errors: [{ detail: 'must have at most 200 characters', pointer: '#/name' }],
    },
    expected: {
      serverMessage: 'The engagement is not valid',
      fieldErrors: { name: 'must have at most 200 characters' },
    },
  },
  {
    format: 'problem details with `invalid-params` [{name, reason}] (RFC 7807’s example)',
    contentType: PROBLEM,
    body: {
      type: 'https://example.net/validation-error',
      title: "Your request parameters didn't validate.",
      'invalid-params': [
        { name: 'page_size', reason: 'must be a positive integer' },
        { name: 'color', reason: "must be 'green', 'red' or 'blue'" },
      ],
    },
    expected: {
      serverMessage: "Your request parameters didn't validate.",
      fieldErrors: { pageSize: 'must be a positive integer', color: "must be 'green', 'red' or 'blue'" },
    },
  },
  {
    format: 'problem details of a 401: `detail` before `title`',
    contentType: PROBLEM,
    body: { type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'The API key has expired' },
    expected: { serverMessage: 'The API key has expired' },
  },
  {
    format: 'problem details with a title only',
    contentType: PROBLEM,
    body: { type: 'about:blank', title: 'Not Found', status: 404 },
    expected: { serverMessage: 'Not Found' },
  },
  // JSON:API.
  {
    format: 'JSON:API errors[] with source.pointer',
    contentType: JSON_API,
    body: {
      jsonapi: { version: '1.1' },
      errors: [
        {
          status: '422',
          title: 'Invalid Attribute',
          detail: 'Name must have at most 200 characters',
          source: { pointer: '/data/attributes/name' },
        },
        {
          status: '422',
          title: 'Invalid Attribute',
          detail: 'must not be empty',
          source: { pointer: '/data/attributes/type' },
        },
      ],
    },
    expected: { fieldErrors: { name: 'Name must have at most 200 characters', type: 'must not be empty' } },
  },
  {
    format: 'JSON:API errors[] with source.parameter',
    contentType: JSON_API,
    body: {
      errors: [
        {
          status: '400',
          title: 'Invalid Query Parameter',
          detail: 'pageSize must be at most 100',
          source: { parameter: 'pageSize' },
        },
      ],
    },
    expected: { fieldErrors: { pageSize: 'pageSize must be at most 100' } },
  },
  {
    format: 'JSON:API 401 without a source',
    contentType: JSON_API,
    body: {
      errors: [{ status: '401', code: 'unauthorized', title: 'Unauthorized', detail: 'The API key is not valid' }],
    },
    expected: { serverMessage: 'The API key is not valid' },
  },
  {
    format: 'JSON:API with a title only, and a pointer to the whole document',
    contentType: JSON_API,
    body: { errors: [{ status: '403', title: 'Forbidden', source: { pointer: '/data' } }] },
    expected: { serverMessage: 'Forbidden' },
  },
  // FastAPI / pydantic.
  {
    format: 'FastAPI detail[] with loc and msg',
    contentType: JSON_TYPE,
    body: {
      detail: [
        {
          type: 'string_too_long',
          loc: ['body', 'name'],
          msg: 'String should have at most 200 characters',
          input: 'x'.repeat(201),
          ctx: { max_length: 200 },
        },
        { type: 'missing', loc: ['body', 'type'], msg: 'Field required', input: {} },
      ],
    },
    expected: { fieldErrors: { name: 'String should have at most 200 characters', type: 'Field required' } },
  },
  {
    format: 'FastAPI detail[] about the whole body, and a query parameter',
    contentType: JSON_TYPE,
    body: {
      detail: [
        { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary', input: 'x' },
        { type: 'less_than_equal', loc: ['query', 'page_size'], msg: 'Input should be less than or equal to 100' },
      ],
    },
    expected: {
      serverMessage: 'Input should be a valid dictionary',
      fieldErrors: { pageSize: 'Input should be less than or equal to 100' },
    },
  },
  {
    format: 'FastAPI {detail: "…"}',
    contentType: JSON_TYPE,
    body: { detail: 'Not authenticated' },
    expected: { serverMessage: 'Not authenticated' },
  },
  // Google APIs.
  {
    format: 'Google error.details[] BadRequest fieldViolations (other details not shown)',
    contentType: JSON_TYPE,
    body: {
      error: {
        code: 400,
        message: 'Request contains an invalid argument.',
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [
              { field: 'engagement.name', description: 'Name must have at most 200 characters', reason: 'TOO_LONG' },
            ],
          },
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'FIELD_INVALID', domain: 'example.test' },
        ],
      },
    },
    expected: {
      serverMessage: 'Request contains an invalid argument.',
      fieldErrors: { name: 'Name must have at most 200 characters' },
    },
  },
  {
    format: 'Google 401 UNAUTHENTICATED',
    contentType: JSON_TYPE,
    body: {
      error: { code: 401, message: 'API key not valid. Please pass a valid API key.', status: 'UNAUTHENTICATED' },
    },
    expected: { serverMessage: 'API key not valid. Please pass a valid API key.' },
  },
  // Rails.
  {
    format: 'Rails {errors: {field: [..]}}',
    contentType: 'application/json; charset=utf-8',
    body: { errors: { name: ["can't be blank", 'is too short (minimum is 3 characters)'], type: ["can't be blank"] } },
    expected: {
      fieldErrors: { name: "can't be blank; is too short (minimum is 3 characters)", type: "can't be blank" },
    },
  },
  {
    format: 'Rails {errors: [..]} (full messages)',
    contentType: 'application/json; charset=utf-8',
    body: { errors: ["Name can't be blank", "Type can't be blank"] },
    expected: { serverMessage: "Name can't be blank; Type can't be blank" },
  },
  {
    format: 'Rails {error: "…"}',
    contentType: 'application/json; charset=utf-8',
    body: { error: 'You need to sign in or sign up before continuing.' },
    expected: { serverMessage: 'You need to sign in or sign up before continuing.' },
  },
  // ASP.NET.
  {
    format: 'ASP.NET validation problem: capitalised and `$.` field names',
    contentType: 'application/problem+json; charset=utf-8',
    body: {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: {
        Name: ['The field Name must be a string with a maximum length of 200.'],
        '$.type': ['The JSON value could not be converted to System.String. Path: $.type | LineNumber: 0.'],
      },
      traceId: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00',
    },
    expected: {
      serverMessage: 'One or more validation errors occurred.',
      fieldErrors: {
        name: 'The field Name must be a string with a maximum length of 200.',
        type: 'The JSON value could not be converted to System.String. Path: $.type | LineNumber: 0.',
      },
    },
  },
  {
    format: 'ASP.NET: one field named two ways, and a body-level error',
    contentType: PROBLEM,
    body: {
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: {
        Name: ['The Name field is required.'],
        '$.name': ['Path: $.name'],
        request: ['The request field is required.'],
      },
    },
    expected: {
      serverMessage: 'One or more validation errors occurred.; The request field is required.',
      fieldErrors: { name: 'The Name field is required.; Path: $.name' },
    },
  },
  // Spring Boot.
  {
    format: 'Spring Boot {timestamp, status, error, message, path}',
    contentType: JSON_TYPE,
    body: {
      timestamp: '2026-11-24T10:00:00.000+00:00',
      status: 401,
      error: 'Unauthorized',
      message: 'The API key is not valid',
      path: '/v1/engagements',
    },
    expected: { serverMessage: 'The API key is not valid' },
  },
  {
    format: 'Spring Boot validation errors[] with field and defaultMessage',
    contentType: JSON_TYPE,
    body: {
      timestamp: '2026-11-24T10:00:00.000+00:00',
      status: 400,
      error: 'Bad Request',
      message: "Validation failed for object='engagementRequest'. Error count: 1",
      errors: [
        {
          codes: ['Size.engagementRequest.name', 'Size'],
          arguments: null,
          defaultMessage: 'size must be between 1 and 200',
          objectName: 'engagementRequest',
          field: 'name',
          rejectedValue: 'x'.repeat(201),
          bindingFailure: false,
          code: 'Size',
        },
      ],
      path: '/v1/engagements',
    },
    expected: {
      serverMessage: "Validation failed for object='engagementRequest'. Error count: 1",
      fieldErrors: { name: 'size must be between 1 and 200' },
    },
  },
  {
    format: 'Spring Boot without a message: the reason phrase',
    contentType: JSON_TYPE,
    body: {
      timestamp: '2026-11-24T10:00:00Z',
      status: 404,
      error: 'Not Found',
      message: 'No message available',
      path: '/v1/x',
    },
    expected: { serverMessage: 'Not Found' },
  },
  // Fastify: its schema validation names the field only inside its message.
  {
    format: 'Fastify FST_ERR_VALIDATION on a body field',
    contentType: JSON_TYPE,
    body: {
      statusCode: 400,
      code: 'FST_ERR_VALIDATION',
      error: 'Bad Request',
      message: 'body/type must be equal to one of the allowed values',
    },
    expected: {
      serverMessage: 'body/type must be equal to one of the allowed values',
      fieldErrors: { type: 'must be equal to one of the allowed values' },
    },
  },
  {
    format: 'Fastify FST_ERR_VALIDATION on a missing body field',
    contentType: JSON_TYPE,
    body: {
      statusCode: 400,
      code: 'FST_ERR_VALIDATION',
      error: 'Bad Request',
      message: "body must have required property 'name'",
    },
    expected: {
      serverMessage: "body must have required property 'name'",
      fieldErrors: { name: "must have required property 'name'" },
    },
  },
  {
    format: 'Fastify FST_ERR_VALIDATION on a query parameter, written in snake case',
    contentType: JSON_TYPE,
    body: {
      statusCode: 400,
      code: 'FST_ERR_VALIDATION',
      error: 'Bad Request',
      message: 'querystring/page_size must be <= 100',
    },
    expected: { serverMessage: 'querystring/page_size must be <= 100', fieldErrors: { pageSize: 'must be <= 100' } },
  },
  // Django REST framework.
  {
    format: 'Django REST {field: [..]}',
    contentType: JSON_TYPE,
    body: { name: ['Ensure this field has no more than 200 characters.'], type: ['This field may not be blank.'] },
    expected: {
      fieldErrors: { name: 'Ensure this field has no more than 200 characters.', type: 'This field may not be blank.' },
    },
  },
  {
    format: 'Django REST non_field_errors',
    contentType: JSON_TYPE,
    body: { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] },
    expected: { serverMessage: 'Invalid data. Expected a dictionary, but got list.' },
  },
  {
    format: 'Django REST {detail: "…"}',
    contentType: JSON_TYPE,
    body: { detail: 'Invalid token.' },
    expected: { serverMessage: 'Invalid token.' },
  },
  {
    format: 'Django REST refusing a status (a field named like an envelope key)',
    contentType: JSON_TYPE,
    body: { status: ['"paused" is not a valid choice.'] },
    expected: { fieldErrors: { status: '"paused" is not a valid choice.' } },
  },
  // GraphQL behind a REST gateway.
  {
    format: 'GraphQL errors[] with extensions.field',
    contentType: JSON_TYPE,
    body: {
      errors: [
        {
          message: NAME_TOO_LONG,
          locations: [{ line: 1, column: 10 }],
          path: ['createEngagement'],
          extensions: { code: 'BAD_USER_INPUT', field: 'name' },
        },
      ],
      data: null,
    },
    expected: { fieldErrors: { name: NAME_TOO_LONG } },
  },
  {
    format: 'GraphQL errors[] with an input path, and one without a field',
    contentType: JSON_TYPE,
    body: {
      errors: [
        { message: 'description must be a string', path: ['input', 'description'] },
        { message: 'Unauthenticated', extensions: { code: 'UNAUTHENTICATED' } },
      ],
    },
    expected: { serverMessage: 'Unauthenticated', fieldErrors: { description: 'description must be a string' } },
  },
  // Others seen in the wild.
  {
    format: 'NestJS {message: [..], error}',
    contentType: JSON_TYPE,
    body: { statusCode: 400, message: ['name must be shorter than or equal to 200 characters'], error: 'Bad Request' },
    expected: { serverMessage: 'Bad Request; name must be shorter than or equal to 200 characters' },
  },
  {
    format: 'OAuth {error, error_description}',
    contentType: JSON_TYPE,
    body: { error: 'invalid_token', error_description: 'The access token expired' },
    expected: { serverMessage: 'The access token expired' },
  },
  // Text and pages.
  {
    format: 'plain text',
    contentType: 'text/plain',
    body: 'Service down for maintenance',
    expected: { serverMessage: 'Service down for maintenance' },
  },
  {
    format: 'an HTML page: its text, no markup, no script',
    contentType: 'text/html',
    body: '<!doctype html><html><head><title>502 Bad Gateway</title><style>b{}</style></head><body><h1>Bad Gateway</h1><script>alert(1)</script></body></html>',
    expected: { serverMessage: '502 Bad Gateway Bad Gateway' },
  },
  {
    format: 'an XML problem',
    contentType: 'application/problem+xml',
    body: '<?xml version="1.0"?><problem><title>Forbidden</title><detail>No access</detail></problem>',
    expected: { serverMessage: 'Forbidden No access' },
  },
  {
    format: 'text that starts like a list but is not JSON',
    contentType: 'text/plain',
    body: '[WARN] upstream timed out',
    expected: { serverMessage: '[WARN] upstream timed out' },
  },
  // Hostile bodies.
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
    format: 'hostile: nested past any envelope',
    contentType: JSON_TYPE,
    body: { error: { error: { error: { error: { message: 'deep' } } } } },
    expected: {},
  },
  {
    format: 'hostile: values that are not strings',
    contentType: JSON_TYPE,
    body: {
      message: 42,
      detail: { a: 1 },
      title: null,
      errors: [null, 5, true, { field: 7, message: 9 }, { field: 'name', message: { x: 1 } }, [['nested']]],
    },
    expected: {},
  },
  {
    format: 'hostile: JSON inside a message is read, not shown',
    contentType: JSON_TYPE,
    body: { message: '{"detail":"Not authenticated"}' },
    expected: { serverMessage: 'Not authenticated' },
  },
  {
    format: 'hostile: broken JSON is not shown',
    contentType: JSON_TYPE,
    body: '{"error": {"message": "trunc',
    expected: {},
  },
  {
    format: 'hostile: broken JSON labelled as text is not shown either',
    contentType: 'text/plain',
    body: '{"error": {"message": "trunc',
    expected: {},
  },
  {
    format: 'hostile: a 5,000-character message is cut',
    contentType: JSON_TYPE,
    body: { detail: 'x'.repeat(5000) },
    expected: { serverMessage: `${'x'.repeat(ERROR_BODY_LIMITS.messageChars - 1)}…` },
  },
  {
    format: 'hostile: line breaks, control and bidirectional characters',
    contentType: JSON_TYPE,
    body: { detail: 'line one\n\nline two\u202e evil\u0000\u200b' },
    expected: { serverMessage: 'line one line two evil' },
  },
  {
    format: 'hostile: __proto__ and constructor as field names',
    contentType: JSON_TYPE,
    body: '{"errors": {"__proto__": ["p"], "constructor": ["c"], "toString": ["t"]}}',
    expected: { serverMessage: 'p', fieldErrors: { constructor: 'c', toString: 't' } },
  },
  {
    format: 'hostile: a 1,000-character field name is cut',
    contentType: JSON_TYPE,
    body: { errors: { ['k'.repeat(1000)]: ['bad'] } },
    expected: { fieldErrors: { [`${'k'.repeat(ERROR_BODY_LIMITS.fieldChars - 1)}…`]: 'bad' } },
  },
  {
    format: 'hostile: a bare JSON string, an empty object, a list of strings',
    contentType: JSON_TYPE,
    body: '"Just a string"',
    expected: { serverMessage: 'Just a string' },
  },
  { format: 'hostile: an empty object', contentType: JSON_TYPE, body: {}, expected: {} },
  {
    format: 'hostile: a list of strings',
    contentType: JSON_TYPE,
    body: ['a', 'b'],
    expected: { serverMessage: 'a; b' },
  },
  { format: 'hostile: white space only', contentType: 'text/plain', body: '   \n ', expected: {} },
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
