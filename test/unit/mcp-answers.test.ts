// Issue 47, items 4 and 6: answers a model can trust, over MCP with the SDK's client against the
// reference service. Inputs are read strictly against each tool's schema (the wrong type said,
// nothing done); every answer's structuredContent is checked by the SDK's client against the
// tool's outputSchema (ajv); isError whenever nothing asked for was done; words for an agent
// outside VS Code; the statuses seen; a future period; a padded id held to its version.
import assert from 'node:assert/strict';
import { Tools } from '../../src/tools/definitions';
import { type RunningService, startService } from '../service/server';
import { type Session, call, connect } from './support/mcpClient';

describe('Answers a model can trust, over MCP (unit)', function () {
  this.timeout(30_000);
  let service: RunningService;
  let session: Session;

  before(async () => {
    service = await startService({ engagementCount: 40 });
  });
  beforeEach(async () => {
    session = await connect(
      { EUS_BASE_URL: service.baseUrl, EUS_API_KEY: service.keys.admin, EUS_ENVIRONMENT: 'Staging' },
      ['--allow-writes'],
    );
  });
  afterEach(async () => {
    await session.close();
    service.reset();
  });
  after(() => service.close());

  const writes = () => service.requests.filter((r) => r.method !== 'GET');

  it('every tool lists an outputSchema, and each answer’s structuredContent fits it (the SDK client validates it)', async () => {
    const { tools } = await session.client.listTools();
    for (const tool of tools) assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema`);
    const e = service.store.engagements.find((x) => x.status === 'active');
    assert.ok(e);
    const answers = {
      find: await call(session, Tools.findEngagements, { limit: 3 }),
      get: await call(session, Tools.getEngagement, { id: e.id }),
      create: await call(session, Tools.createEngagement, { name: 'Structured', type: 'pilot' }),
      update: await call(session, Tools.updateEngagements, {
        ids: [e.id],
        status: 'completed',
        basedOn: { [e.id]: e.updatedAt },
      }),
      summary: await call(session, Tools.usage, {}),
      byKey: await call(session, Tools.usage, { view: 'byKey' }),
      records: await call(session, Tools.usage, { view: 'records', limit: 2 }),
    };
    for (const [what, answer] of Object.entries(answers)) {
      assert.equal(answer.isError, false, `${what}: ${answer.text}`);
      assert.ok(answer.structured, `${what} answers structuredContent`);
      assert.equal(answer.structured.environment, 'Staging');
    }
    assert.equal(answers.find.structured?.total, 40);
    assert.equal((answers.get.structured?.engagement as { id: string }).id, e.id);
    assert.equal(answers.create.structured?.result, 'created');
    assert.equal(answers.update.structured?.changed, 1);
    const period = service.store.currentPeriod();
    assert.equal(
      (answers.summary.structured?.meters as { calls: { used: number } }).calls.used,
      service.store.summary(period).usage.calls.used,
    );
    assert.equal(answers.records.structured?.listed, 2);
  });

  it('a value of the wrong type is refused, saying which and what it must be; nothing is created', async () => {
    service.clearRequests();
    const numbered = await call(session, Tools.createEngagement, { name: 42, type: true });
    assert.equal(numbered.isError, true);
    assert.match(numbered.text, /^Nothing was done: “name” must be a string, not a number \(42\)\./);
    assert.deepEqual(writes(), []);
    assert.ok(!service.store.engagements.some((e) => e.name === '42'), 'no engagement named "42"');
    const typed = await call(session, Tools.createEngagement, { name: 'Fine', type: true });
    assert.match(typed.text, /“type” must be a string, not a boolean \(true\)/);
    const id = await call(session, Tools.getEngagement, { id: 17 });
    assert.equal(id.isError, true);
    assert.match(
      id.text,
      /“id” must be a string, not a number \(17\)\. Ids are strings: give it in quotes, e\.g\. "17"\./,
    );
    const limit = await call(session, Tools.findEngagements, { limit: 2.5 });
    assert.match(limit.text, /“limit” must be a whole number from 1 to 50, not a number \(2\.5\)/);
    const view = await call(session, Tools.usage, { view: 'daily' });
    assert.match(view.text, /“view” is one of summary, byKey, records, breakdown, not “daily”/);
    const ids = await call(session, Tools.updateEngagements, { ids: 'e1', status: 'completed', basedOn: {} });
    assert.match(ids.text, /“ids” must be an array, not a string/);
    assert.deepEqual(writes(), [], 'nothing was sent');
  });

  it('isError when an update changed nothing asked for; not when one of two was changed', async () => {
    const a = service.store.engagements.find((x) => x.status === 'active');
    assert.ok(a);
    const none = await call(session, Tools.updateEngagements, {
      ids: ['no-such-1', 'no-such-2'],
      status: 'completed',
      basedOn: { 'no-such-1': 'x', 'no-such-2': 'y' },
    });
    assert.equal(none.isError, true, none.text);
    assert.match(none.text, /Changed 0, .* failed 2\./);
    assert.equal(none.structured?.failed, 2);
    assert.doesNotMatch(none.text, /Refresh the view/);
    const some = await call(session, Tools.updateEngagements, {
      ids: [a.id, 'no-such-3'],
      status: 'completed',
      basedOn: { [a.id]: a.updatedAt, 'no-such-3': 'z' },
    });
    assert.equal(some.isError, false, some.text);
    assert.deepEqual([some.structured?.changed, some.structured?.failed], [1, 1]);
  });

  it('words for an agent: no view to refresh, no VS Code setting', async () => {
    const missing = await call(session, Tools.getEngagement, { id: 'no-such-engagement' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /That engagement does not exist \(404\)\./);
    assert.doesNotMatch(missing.text, /Refresh the view|VS Code|setting/);
  });

  it('a status no engagement has: the statuses they have are listed', async () => {
    const seen = [...new Set(service.store.engagements.map((e) => e.status))].sort();
    const typo = await call(session, Tools.findEngagements, { status: ['actve'] });
    assert.equal(typo.isError, false);
    assert.equal(typo.structured?.matched, 0);
    assert.deepEqual(typo.structured?.statusesSeen, seen);
    assert.match(
      typo.text,
      new RegExp(`No engagement has the status actve; the statuses they have: ${seen.join(', ')}\\.`),
    );
    const known = await call(session, Tools.findEngagements, { status: ['active'] });
    assert.equal(known.structured?.statusesSeen, undefined);
  });

  it('a billing period not begun yet is said so, not "a closed period"', async () => {
    // A service whose clock runs 40 days ahead answers the period after this one.
    const ahead = await startService({ engagementCount: 5, now: () => new Date(Date.now() + 40 * 86_400_000) });
    const other = await connect({ EUS_BASE_URL: ahead.baseUrl, EUS_API_KEY: ahead.keys.admin });
    try {
      const next = ahead.store.currentPeriod();
      const future = await call(other, Tools.usage, { billingPeriod: next });
      assert.equal(future.isError, false, future.text);
      assert.match(future.text, new RegExp(`Usage of ${next} \\(a period that has not begun: no estimate\\)\\.`));
      assert.doesNotMatch(future.text, /closed/);
      assert.equal(future.structured?.period, 'future');
      const [year] = next.split('-').map(Number);
      const past = await call(other, Tools.usage, { billingPeriod: `${year - 1}-06` });
      assert.match(past.text, /a closed period: no estimate/);
      assert.equal(past.structured?.period, 'past');
    } finally {
      await other.close();
      await ahead.close();
    }
  });

  it('an id padded with spaces, keyed so in basedOn, is held to that version: a newer change is not written over', async () => {
    const e = service.store.engagements[5];
    const read = e.updatedAt;
    service.store.updateEngagement(e.id, { name: 'Renamed by a person' });
    service.clearRequests();
    const padded = ` ${e.id} `;
    const stale = await call(session, Tools.updateEngagements, {
      ids: [padded],
      name: 'Renamed by the agent',
      basedOn: { [padded]: read },
    });
    assert.equal(stale.isError, true, stale.text);
    assert.match(stale.text, /changed by someone else since it was read or confirmed \(nothing sent\) 1/);
    assert.deepEqual(writes(), [], 'no PATCH');
    assert.equal(service.store.getEngagement(e.id)?.name, 'Renamed by a person');

    const current = service.store.getEngagement(e.id)?.updatedAt;
    const fresh = await call(session, Tools.updateEngagements, {
      ids: [padded],
      name: 'Renamed by the agent',
      basedOn: { [padded]: current },
    });
    assert.equal(fresh.isError, false, fresh.text);
    assert.equal(writes().length, 1, 'one PATCH, on the version read');
    assert.equal(service.store.getEngagement(e.id)?.name, 'Renamed by the agent');

    const twice = await call(session, Tools.updateEngagements, {
      ids: [e.id],
      status: 'completed',
      basedOn: { [e.id]: 'a', [padded]: 'b' },
    });
    assert.match(twice.text, /“basedOn” gives two versions of “/);
  });
});
