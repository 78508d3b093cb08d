// The client against a service written with Fastify 5 the way Fastify's documentation writes a
// CRUD API (test/frameworks/fastify.ts): JSON-schema validation on every route, its
// own 400 body when the schema refuses, integer ids and snake_case field names as an ORM hands
// rows over (`evaluation_count`, `created_at`, `updated_at`), mounted under `/v1` (issue 38).
// What is asserted is what a user relies on: every engagement listed with its id as text and
// its values shown, a row the database holds without some column listed with "unknown" there
// (and one log line, not one per row), a create answered 201 shown as made, a refused write
// told in the service's words beside the field it names, and how many requests each path costs.
import assert from 'node:assert/strict';
import type { RequestLog } from '../../src/api/client';
import type { ApiError } from '../../src/api/errors';
import type { ServiceApi } from '../../src/api/service';
import { isAccepted } from '../../src/api/types';
import { describeEngagement, engagementMarkdown, extraFields } from '../../src/core/engagementText';
import { sortEngagements } from '../../src/core/query';
import { detailsView } from '../../src/engagements/detailsProtocol';
import { type EngagementRow, type FastifyService, engagementRows, startFastifyService } from '../frameworks/fastify';
import { DETAILS_WORDS, loggingClient } from './support/clients';

const NOW = Date.parse('2026-10-20T12:00:00Z');

describe('Fastify: schema validation, integer ids, snake_case fields (unit)', function () {
  this.timeout(20_000);
  let service: FastifyService;
  let api: ServiceApi;
  /** Every request's log entry, as the extension's log receives it. */
  let logged: RequestLog[];

  async function start(rows: EngagementRow[]): Promise<void> {
    service = await startFastifyService(rows);
    ({ api, logged } = loggingClient(service.baseUrl, 'fastify-test-key'));
  }

  /** The log lines that say some engagement shows a field as unknown. */
  const unknownLines = () => logged.filter((entry) => entry.unknownFields !== undefined);

  beforeEach(() => start(engagementRows(230)));
  afterEach(() => service.close());

  it('lists every engagement with its id as decimal text and its snake_case values shown, each once', async () => {
    const all = await api.engagements.listAll();
    assert.equal(all.items.length, 230);
    assert.equal(new Set(all.items.map((e) => e.id)).size, 230, 'each once');
    const second = all.items[1];
    assert.equal(second.id, '2');
    assert.equal(second.evaluationCount, 3);
    assert.equal(second.createdAt, '2026-09-01T09:01:00.000Z');
    assert.equal(second.updatedAt, '2026-10-01T09:01:00.000Z');
    // What the tree row and its tooltip say; the snake_case names are not shown again as extra fields.
    assert.equal(describeEngagement(second, NOW), 'pilot · 3 evaluations · updated 19 days ago');
    assert.match(engagementMarkdown(second, { now: NOW }), /\| Created \| Sep 1, 2026, 9:01 AM UTC/);
    assert.deepEqual(extraFields(second), []);
    assert.deepEqual(unknownLines(), [], 'nothing is unknown');
    // Fastify's schema refuses a page of 1,000 (400, `querystring/pageSize must be <= 100`):
    // the client asks 100 and reads the other two pages of the total it was told.
    assert.deepEqual(service.requests.slice(0, 2), [
      'GET /v1/engagements?page=1&pageSize=1000',
      'GET /v1/engagements?page=1&pageSize=100',
    ]);
    assert.deepEqual(service.requests.slice(2).sort(), [
      'GET /v1/engagements?page=2&pageSize=100',
      'GET /v1/engagements?page=3&pageSize=100',
    ]);
  });

  it('shows the first page at once with the total Fastify counted', async () => {
    const page = await api.engagements.list({ page: 1, pageSize: 50 });
    assert.equal(page.data.length, 50);
    assert.equal(page.totalCount, 230);
    assert.equal(page.totalEstimated, undefined);
    assert.deepEqual(service.requests, ['GET /v1/engagements?page=1&pageSize=50']);
  });

  it('lists a row the database holds without evaluation_count and created_at: the list is whole, that row says unknown, one log line', async () => {
    const rows = engagementRows(60);
    delete rows[6].evaluation_count;
    delete rows[6].created_at;
    await service.close();
    await start(rows);

    const all = await api.engagements.listAll();
    assert.equal(all.items.length, 60, 'no engagement is hidden');
    const old = all.items.find((e) => e.id === '7');
    assert.ok(old);
    assert.equal(old.evaluationCount, undefined);
    assert.equal(old.createdAt, undefined);
    assert.equal(old.updatedAt, '2026-10-01T09:06:00.000Z', 'what it has is shown');
    assert.equal(describeEngagement(old, NOW), 'evaluation · evaluations unknown · updated 19 days ago');
    const tooltip = engagementMarkdown(old, { now: NOW, heading: false });
    assert.match(tooltip, /\| Evaluations \| unknown \|/);
    assert.match(tooltip, /\| Created \| unknown \|/);
    const details = detailsView(old, {
      environment: 'Fastify',
      words: DETAILS_WORDS,
      readAt: NOW,
      now: NOW,
      canWrite: true,
    });
    assert.deepEqual(
      details.fields.filter((f) => f.label === 'Evaluations' || f.label === 'Created'),
      [
        { label: 'Evaluations', value: 'unknown' },
        { label: 'Created', value: 'unknown', note: undefined },
      ],
    );
    // Sorting by evaluations or by creation still sorts, the unknown row last either way.
    for (const direction of ['asc', 'desc'] as const) {
      assert.equal(sortEngagements(all.items, 'evaluations', direction).at(-1)?.id, '7');
      assert.equal(sortEngagements(all.items, 'created', direction).at(-1)?.id, '7');
    }
    // One line in the log for the answer, each field named once.
    const lines = unknownLines();
    assert.equal(lines.length, 1);
    assert.equal(
      lines[0].unknownFields,
      'evaluationCount unknown on 1 item (first: data[6].evaluationCount: expected an integer, got nothing); ' +
        'createdAt unknown on 1 item (first: data[6].createdAt: expected a string, got nothing)',
    );
  });

  it('2,000 rows without created_at: every one listed, one log line per page read, not one per row', async () => {
    const rows = engagementRows(2_000);
    for (const row of rows) delete row.created_at;
    await service.close();
    await start(rows);

    const all = await api.engagements.listAll();
    assert.equal(all.items.length, 2_000);
    assert.ok(all.items.every((e) => e.createdAt === undefined && e.updatedAt !== undefined));
    const pagesRead = logged.filter((entry) => entry.outcome === 'ok').length;
    assert.equal(pagesRead, 20, 'pages of 100');
    const lines = unknownLines();
    assert.equal(lines.length, pagesRead);
    assert.ok(lines.every((entry) => /^createdAt unknown on 100 items \(first: /.test(entry.unknownFields ?? '')));
  });

  it('opens the details of one engagement by the id it listed, with one GET', async () => {
    const engagement = await api.engagements.get('42');
    assert.equal(engagement.id, '42');
    assert.equal(engagement.name, 'Engagement 42');
    assert.equal(engagement.evaluationCount, 123);
    assert.equal(engagement.createdAt, '2026-09-01T09:41:00.000Z');
    assert.deepEqual(service.requests, ['GET /v1/engagements/42']);
  });

  it('shows a create answered 201 with snake_case fields as made, with one POST and no GET', async () => {
    const outcome = await api.engagements.create({
      name: 'Made on Fastify',
      type: 'pilot',
      description: 'Through the schema',
    });
    assert.ok(!isAccepted(outcome), 'made, not pending');
    assert.equal(outcome.source, 'answer');
    const made = outcome.engagement;
    assert.equal(made.id, '231');
    assert.equal(made.name, 'Made on Fastify');
    assert.equal(made.status, 'active');
    assert.equal(made.evaluationCount, 0);
    assert.equal(typeof made.createdAt, 'string');
    assert.equal(made.updatedAt, made.createdAt);
    assert.deepEqual(service.requests, ['POST /v1/engagements']);
    assert.equal(service.rows.at(-1)?.name, 'Made on Fastify');
  });

  it('a rename is one PATCH to /v1/engagements/<id>, and Fastify holds the new name', async () => {
    const outcome = await api.engagements.update('7', { name: 'Renamed on Fastify' });
    assert.ok(!isAccepted(outcome));
    assert.equal(outcome.engagement.id, '7');
    assert.equal(outcome.engagement.name, 'Renamed on Fastify');
    assert.notEqual(outcome.engagement.updatedAt, '2026-10-01T09:06:00.000Z', 'its new update time is shown');
    assert.deepEqual(service.requests, ['PATCH /v1/engagements/7']);
    assert.equal(service.rows[6].name, 'Renamed on Fastify');
  });

  it('a status change is one PATCH, and a row without created_at is still shown as changed', async () => {
    delete service.rows[7].created_at;
    const outcome = await api.engagements.update('8', { status: 'completed' });
    assert.ok(!isAccepted(outcome));
    assert.equal(outcome.engagement.status, 'completed');
    assert.equal(outcome.engagement.createdAt, undefined);
    assert.deepEqual(service.requests, ['PATCH /v1/engagements/8']);
    assert.equal(service.rows[7].status, 'completed');
    assert.equal(unknownLines().length, 1);
  });

  it('reads the usage summary and the per-key table from their snake_case names', async () => {
    const summary = await api.usage.summary('2026-10');
    assert.equal(summary.billingPeriod, '2026-10');
    assert.equal(summary.tier, 'growth');
    assert.equal(summary.usage.storage_gb.used, 7.35);
    assert.equal(summary.usage.webhooks.overage, 200);
    const byKey = await api.usage.byKey('2026-10');
    assert.equal(byKey.billingPeriod, '2026-10');
    assert.deepEqual(
      byKey.keys.map((k) => [k.keyId, k.name, k.calls, k.lastUsedAt]),
      [
        ['key_prod', 'Production', 61_000, '2026-10-20T08:00:00.000Z'],
        ['key_stage', 'Staging', 21_000, '2026-10-19T17:30:00.000Z'],
      ],
    );
    assert.deepEqual(service.requests, [
      'GET /v1/usage/summary?billingPeriod=2026-10',
      'GET /v1/usage/by-key?billingPeriod=2026-10',
    ]);
  });

  it('reads every usage record, as the service wrote them, in pages of 100', async () => {
    const all = await api.usage.detailsAll('2026-10');
    assert.equal(all.items.length, 130);
    assert.equal(all.items[0].key_id, 'key_prod', 'records are shown as they come');
    assert.deepEqual(service.requests.sort(), [
      'GET /v1/usage/details?billingPeriod=2026-10&page=1&pageSize=100',
      'GET /v1/usage/details?billingPeriod=2026-10&page=2&pageSize=100',
    ]);
  });

  it('a create the schema refuses: the user reads Fastify’s reason beside the type, nothing was made', async () => {
    const before = service.rows.length;
    await assert.rejects(api.engagements.create({ name: 'Workshop', type: 'workshop' }), (error: ApiError) => {
      assert.equal(error.kind, 'invalidRequest');
      assert.equal(error.status, 400);
      assert.equal(error.serverMessage, 'body/type must be equal to one of the allowed values');
      // The create flow shows this beside the type the user typed, and keeps what they typed.
      assert.deepEqual(error.fieldErrors, { type: 'must be equal to one of the allowed values' });
      assert.equal(error.writeOutcome, undefined, 'certainly not made: Retry may send it again');
      return true;
    });
    assert.equal(service.rows.length, before);
    assert.deepEqual(service.requests, ['POST /v1/engagements']);
  });

  it('a status the schema refuses: Fastify’s reason beside the status, the engagement unchanged', async () => {
    await assert.rejects(api.engagements.update('5', { status: 'paused' }), (error: ApiError) => {
      assert.equal(error.kind, 'invalidRequest');
      assert.deepEqual(error.fieldErrors, { status: 'must be equal to one of the allowed values' });
      return true;
    });
    assert.equal(service.rows[4].status, 'active');
    assert.deepEqual(service.requests, ['PATCH /v1/engagements/5']);
  });
});
