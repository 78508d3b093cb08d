// The MCP server's resources and prompts (issue 47), as a client meets them with the SDK's
// client over stdio against the reference service: the URI templates listed, one engagement
// and one period's usage read as the service holds them, URIs and periods it does not serve
// refused in words, and the two prompts (explain a period's usage, triage stale engagements)
// naming the tools to call, the period's meters attached.
import assert from 'node:assert/strict';
import { Tools } from '../../src/tools/definitions';
import { connect, type Session } from './support/mcpClient';
import { useReferenceService } from './support/referenceService';

describe('The MCP server’s resources and prompts (unit)', function () {
  this.timeout(20_000);
  const reference = useReferenceService({ engagementCount: 12 });
  const service = reference.service;
  let session: Session;

  beforeEach(async () => {
    session = await connect({
      EUS_BASE_URL: service.baseUrl,
      EUS_API_KEY: service.keys.admin,
      EUS_ENVIRONMENT: 'Staging',
    });
  });
  afterEach(() => session.close());

  /** The JSON text of one resource. */
  async function read(uri: string): Promise<unknown> {
    const { contents } = await session.client.readResource({ uri });
    assert.equal(contents.length, 1);
    assert.equal(contents[0].mimeType, 'application/json');
    return JSON.parse((contents[0] as { text: string }).text);
  }

  it('lists the templates of an engagement and of a period’s usage, and the current period’s usage', async () => {
    const { resourceTemplates } = await session.client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      ['eus://engagements/{id}', 'eus://usage/{period}'],
    );
    const { resources } = await session.client.listResources();
    assert.deepEqual(
      resources.map((r) => r.uri),
      ['eus://usage/current'],
    );
    assert.match(resources[0].title ?? '', /Staging/);
  });

  it('reads one engagement and a period’s usage as the service holds them', async () => {
    const held = service.store.engagements[4];
    const engagement = (await read(`eus://engagements/${encodeURIComponent(held.id)}`)) as Record<string, unknown>;
    assert.deepEqual([engagement.id, engagement.name, engagement.updatedAt], [held.id, held.name, held.updatedAt]);

    const period = service.store.currentPeriod();
    for (const uri of ['eus://usage/current', `eus://usage/${period}`]) {
      const summary = (await read(uri)) as { billingPeriod: string; usage: { calls: { used: number } } };
      assert.equal(summary.billingPeriod, period, uri);
      assert.equal(summary.usage.calls.used, service.store.summary(period).usage.calls.used, uri);
    }
  });

  it('refuses in words: a URI it does not serve, a period not begun or not a period, an engagement that is not there', async () => {
    await assert.rejects(
      session.client.readResource({ uri: 'file:///etc/passwd' }),
      /serves eus:\/\/engagements\/\{id\}/,
    );
    await assert.rejects(session.client.readResource({ uri: 'eus://usage/2999-01' }), /2999-01 has not begun/);
    await assert.rejects(
      session.client.readResource({ uri: 'eus://usage/last-month' }),
      /not a billing period: use YYYY-MM/,
    );
    await assert.rejects(
      session.client.readResource({ uri: 'eus://engagements/eng_none' }),
      /not found|no longer exists|404/i,
    );
  });

  it('explain-usage: names the usage tool’s views for the period and attaches its meters', async () => {
    const { prompts } = await session.client.listPrompts();
    assert.deepEqual(
      prompts.map((p) => p.name),
      ['explain-usage', 'triage-stale-engagements'],
    );
    const period = service.store.currentPeriod();
    const { messages } = await session.client.getPrompt({ name: 'explain-usage', arguments: {} });
    const [instructions, attached] = messages;
    assert.equal(instructions.content.type, 'text');
    const text = (instructions.content as { text: string }).text;
    assert.match(text, new RegExp(`Staging in the billing period ${period}`));
    for (const view of ['summary', 'byKey', 'records']) assert.ok(text.includes(`view "${view}"`), view);
    assert.ok(text.includes(Tools.usage));
    assert.equal(attached.content.type, 'resource');
    const resource = (attached.content as { resource: { uri: string; text: string } }).resource;
    assert.equal(resource.uri, `eus://usage/${period}`);
    const summary = JSON.parse(resource.text) as { usage: { calls: { used: number } } };
    assert.equal(summary.usage.calls.used, service.store.summary(period).usage.calls.used);

    await assert.rejects(session.client.getPrompt({ name: 'explain-usage', arguments: { period: 'May' } }), /YYYY-MM/);
  });

  it('triage-stale-engagements: finds active ones not updated since the date the days give, and changes nothing unasked', async () => {
    const { messages } = await session.client.getPrompt({
      name: 'triage-stale-engagements',
      arguments: { days: '45' },
    });
    const text = (messages[0].content as { text: string }).text;
    // The date 45 days ago, as the test computes it (either side of a midnight passing meanwhile).
    const dates = [0, 1].map((d) => new Date(Date.now() - (45 + d) * 86_400_000).toISOString().slice(0, 10));
    assert.ok(
      dates.some((d) => text.includes(`updatedBefore "${d}"`)),
      text,
    );
    assert.ok(text.includes(Tools.findEngagements) && text.includes('status ["active"]'));
    assert.match(text, /Change nothing unless the user says so/);
    await assert.rejects(
      session.client.getPrompt({ name: 'triage-stale-engagements', arguments: { days: 'many' } }),
      /days: a whole number/,
    );
    await assert.rejects(session.client.getPrompt({ name: 'summarise', arguments: {} }), /No prompt “summarise”/);
  });
});
