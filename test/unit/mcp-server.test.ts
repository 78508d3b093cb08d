// The MCP server as an MCP client meets it (issue 35): the built dist/mcp-server.mjs started by
// the official SDK's client over stdio, the way Claude Code, Cursor or any agent starts it, with
// the base URL and key in its environment. Against the reference service and against a service
// written with Fastify (integer ids, snake_case): tools/list (names, schemas, annotations), each
// tool's answer, a write refused when writes are off, a stale update refused, errors in words,
// and the key nowhere in the transcript or on stderr, in any encoding.
import assert from 'node:assert/strict';
import { INPUT_SCHEMAS, Tools } from '../../src/tools/definitions';
import { type EngagementRow, type FastifyService, engagementRows, startFastifyService } from '../frameworks/fastify';
import { type JsonServer, jsonServerRows, startJsonServer } from '../frameworks/jsonServer';
import { type RunningService, startService } from '../service/server';
import { type Session, call, connect, data } from './support/mcpClient';

/** The key, and the forms a service might echo it in. */
function forms(key: string): string[] {
  return [
    key,
    encodeURIComponent(key),
    Buffer.from(key).toString('base64'),
    Buffer.from(key).toString('base64url'),
    JSON.stringify(key).slice(1, -1),
  ];
}

function assertNoKey(transcript: string, key: string): void {
  for (const form of forms(key)) assert.ok(!transcript.includes(form), `the key (as ${form.slice(0, 4)}…) is not sent`);
}

describe('The MCP server over stdio, with the SDK client (unit)', function () {
  this.timeout(30_000);

  describe('against the reference service', () => {
    let service: RunningService;
    const sessions: Session[] = [];
    const open = async (env: Record<string, string>, args: string[] = []) => {
      const session = await connect(env, args);
      sessions.push(session);
      return session;
    };
    const config = (key = service.keys.admin) => ({
      EUS_BASE_URL: service.baseUrl,
      EUS_API_KEY: key,
      EUS_ENVIRONMENT: 'Staging',
    });

    before(async () => {
      service = await startService({ engagementCount: 30 });
    });
    afterEach(async () => {
      await Promise.all(sessions.splice(0).map((s) => s.close()));
      service.reset();
    });
    after(() => service.close());

    it('read-only by default: lists the three read tools with their schemas and read-only annotations', async () => {
      const session = await open(config());
      const { tools } = await session.client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        [Tools.findEngagements, Tools.getEngagement, Tools.usage],
      );
      for (const tool of tools) {
        assert.deepEqual(tool.inputSchema, INPUT_SCHEMAS[tool.name as keyof typeof INPUT_SCHEMAS], tool.name);
        assert.equal(tool.annotations?.readOnlyHint, true, `${tool.name} is read-only`);
        assert.equal(tool.annotations?.destructiveHint, false);
        assert.ok(tool.description && tool.description.length > 40, `${tool.name} says what it does`);
      }
      assert.match(session.client.getInstructions() ?? '', /Staging.*read-only/);
      assert.match(session.transcript(), /"method":"tools\/list"/, 'the transcript is kept');
      assertNoKey(session.transcript(), service.keys.admin);
    });

    it('with --allow-writes: the write tools too, create not read-only, update destructive but idempotent', async () => {
      const session = await open(config(), ['--allow-writes']);
      const { tools } = await session.client.listTools();
      assert.equal(tools.length, 5);
      const create = tools.find((t) => t.name === Tools.createEngagement);
      const update = tools.find((t) => t.name === Tools.updateEngagements);
      assert.deepEqual(
        [create?.annotations?.readOnlyHint, create?.annotations?.destructiveHint],
        [false, false],
        'a create adds, it destroys nothing',
      );
      assert.deepEqual(
        [update?.annotations?.readOnlyHint, update?.annotations?.destructiveHint, update?.annotations?.idempotentHint],
        [false, true, true],
        'an update overwrites, the same one twice changes nothing more',
      );
      assert.deepEqual(update?.inputSchema.required, ['ids']);
    });

    it('find, read one and usage answer with the heading, the words and the data between markers', async () => {
      const session = await open(config());
      const all = service.store.engagements;
      const found = await call(session, Tools.findEngagements, { sort: 'name', direction: 'asc', limit: 5 });
      assert.equal(found.isError, false);
      assert.match(found.text, /^Environment: “Staging”\./);
      assert.match(found.text, new RegExp(`${all.length} of the ${all.length} engagements matched; listing 1 to 5`));
      const rows = data(found.text) as Array<{ id: string; name: string; link?: string }>;
      const names = all.map((e) => e.name).sort((a, b) => a.localeCompare(b));
      assert.deepEqual(
        rows.map((r) => r.name),
        names.slice(0, 5),
      );
      assert.equal(rows[0].link, undefined, 'no VS Code link outside VS Code');

      const one = await call(session, Tools.getEngagement, { id: all[3].id });
      const fields = data(one.text) as Record<string, unknown>;
      assert.equal(fields.id, all[3].id);
      assert.equal(fields.updatedAt, all[3].updatedAt);

      const summary = await call(session, Tools.usage, {});
      const meters = (data(summary.text) as { meters: Record<string, { used: number }> }).meters;
      const period = service.store.currentPeriod();
      assert.equal(meters.calls.used, service.store.summary(period).usage.calls.used);
      assert.match(summary.text, new RegExp(`Usage of ${period}\\. At the current pace \\(an estimate\\)`));

      const byKey = await call(session, Tools.usage, { view: 'byKey' });
      assert.match(byKey.text, /Calls by API key in \d{4}-\d{2}: \d+ keys/);
      const keys = data(byKey.text) as Array<{ keyId: string }>;
      assert.ok(keys.length > 0 && keys.every((k) => k.keyId.includes('…')), 'key ids masked');

      const records = await call(session, Tools.usage, { view: 'records', statusClass: '2xx', limit: 3 });
      assert.equal(records.isError, false, records.text);
      assert.equal((data(records.text) as unknown[]).length, 3);
      assertNoKey(session.transcript(), service.keys.admin);
    });

    it('a write when writes are off is refused in words, and nothing is sent', async () => {
      const session = await open(config());
      service.clearRequests();
      const created = await call(session, Tools.createEngagement, { name: 'Not made', type: 'pilot' });
      assert.equal(created.isError, true);
      assert.match(created.text, /read-only: nothing was sent.*--allow-writes/);
      assert.deepEqual(
        service.requests.filter((r) => r.method !== 'GET'),
        [],
      );
      assert.ok(!service.store.engagements.some((e) => e.name === 'Not made'));
    });

    it('with writes allowed: creates, updates on the version read, and refuses a stale update without sending it', async () => {
      const session = await open(config(), ['--allow-writes']);
      const created = await call(session, Tools.createEngagement, {
        name: 'Made over MCP',
        type: 'pilot',
        description: 'from an agent',
      });
      assert.equal(created.isError, false, created.text);
      assert.match(created.text, /Created the engagement\./);
      const made = service.store.engagements.find((e) => e.name === 'Made over MCP');
      assert.ok(made, 'the service holds it');

      const changed = await call(session, Tools.updateEngagements, {
        ids: [made.id],
        status: 'completed',
        basedOn: { [made.id]: made.updatedAt },
      });
      assert.match(changed.text, /Changed 1,/);
      assert.equal(service.store.getEngagement(made.id)?.status, 'completed');

      // An update that does not say which version it was based on is not sent.
      service.clearRequests();
      const unbased = await call(session, Tools.updateEngagements, { ids: [made.id], status: 'archived' });
      assert.equal(unbased.isError, true);
      assert.match(unbased.text, /Nothing was sent: give in “basedOn” the updatedAt/);
      assert.equal(service.requests.length, 0, 'no request');

      // Someone changes it after the agent read it: the agent's update is not written over it.
      const read = service.store.getEngagement(made.id)?.updatedAt;
      service.store.updateEngagement(made.id, { name: 'Renamed by a person' });
      service.clearRequests();
      const stale = await call(session, Tools.updateEngagements, {
        ids: [made.id],
        name: 'Renamed by the agent',
        basedOn: { [made.id]: read },
      });
      assert.match(stale.text, /changed by someone else since it was read or confirmed \(nothing sent\) 1/);
      assert.deepEqual(
        service.requests.filter((r) => r.method === 'PATCH'),
        [],
      );
      assert.equal(service.store.getEngagement(made.id)?.name, 'Renamed by a person');
    });

    it('errors in words: a rejected key, an environment it does not serve, a service that cannot be reached', async () => {
      const rejected = await open(config('not-a-key-of-this-service'));
      const refused = await call(rejected, Tools.findEngagements, {});
      assert.equal(refused.isError, true);
      assert.match(refused.text, /rejected the API key of Staging \(401\)/);
      assert.match(refused.text, /in the MCP server’s configuration \(EUS_API_KEY\)/);
      assertNoKey(rejected.transcript(), 'not-a-key-of-this-service');

      const session = await open(config());
      const other = await call(session, Tools.findEngagements, { environment: 'Production' });
      assert.match(other.text, /serves one environment, “Staging”/);

      const closed = await open({ ...config(), EUS_BASE_URL: 'http://127.0.0.1:9/v1' });
      const unreachable = await call(closed, Tools.usage, {});
      assert.equal(unreachable.isError, true);
      assert.match(unreachable.text, /could not be reached|Cannot reach|refused/i);
    });

    // An argument (never taken as a key) is refused before the server starts: test/unit/mcp-cli.test.ts.
    it('not configured: every call says what to set', async () => {
      const noKey = await open({ EUS_BASE_URL: service.baseUrl });
      assert.match((await call(noKey, Tools.findEngagements)).text, /not configured: No API key: set EUS_API_KEY/);
      const insecure = await open({ EUS_BASE_URL: 'http://example.com/v1', EUS_API_KEY: service.keys.admin });
      assert.match((await call(insecure, Tools.usage)).text, /EUS_BASE_URL: Use https/);
    });

    it('a key the service echoes back, in any encoding, or a redirect elsewhere carrying it: never in the transcript', async () => {
      const key = service.keys.admin;
      const id = service.store.engagements[0].id;
      service.faults.add({
        path: `/engagements/${id}`,
        kind: 'status',
        status: 400,
        body: {
          error: { message: `Bad key ${key} / ${encodeURIComponent(key)} / ${Buffer.from(key).toString('base64')}` },
        },
        times: 1,
      });
      service.faults.add({
        path: '/usage',
        kind: 'redirect',
        status: 302,
        location: `http://127.0.0.2:9/steal?k=${key}`,
      });
      const session = await open(config());
      const echoed = await call(session, Tools.getEngagement, { id });
      assert.equal(echoed.isError, true);
      assert.match(echoed.text, /What the service said:/);
      const redirected = await call(session, Tools.usage, {});
      assert.equal(redirected.isError, true);
      assert.match(redirected.text, /redirect/i);
      assert.ok(
        !service.requests.some((r) => r.path.includes('steal')),
        'nothing followed the redirect to another address',
      );
      assertNoKey(session.transcript(), key);
    });
  });

  describe('against json-server holding a create as it was sent (no status) and a row without an id (issue 45)', () => {
    let js: JsonServer;

    beforeEach(async () => {
      const [kept, other, third] = jsonServerRows(3);
      const withoutStatus: Record<string, unknown> = { ...kept };
      delete withoutStatus.status;
      const withoutId: Record<string, unknown> = { ...third };
      delete withoutId.id;
      js = await startJsonServer({ engagements: [withoutStatus, other, withoutId] });
    });
    afterEach(() => js.close());

    it('finds and reads the engagement, its status said to be unknown; a row without an id is said to be left out', async () => {
      const session = await connect({ EUS_BASE_URL: js.baseUrl, EUS_API_KEY: 'json-mcp-key', EUS_ENVIRONMENT: 'Json' });
      try {
        const found = await call(session, Tools.findEngagements, {});
        assert.equal(found.isError, false, found.text);
        assert.match(
          found.text,
          /^1 engagement the service sent without an id is left out: it cannot be read or changed\.$/m,
        );
        const listed = data(found.text) as Array<{ id: string; status: string }>;
        assert.deepEqual(listed.map((e) => [e.id, e.status]).sort(), [
          ['1', 'unknown'],
          ['2', 'active'],
        ]);
        const one = await call(session, Tools.getEngagement, { id: '1' });
        assert.equal(one.isError, false, one.text);
        assert.equal((data(one.text) as { status: string }).status, 'unknown');
      } finally {
        await session.close();
      }
    });
  });

  describe('against a service written with Fastify (integer ids, snake_case)', () => {
    let fastify: FastifyService;
    let rows: EngagementRow[];

    beforeEach(async () => {
      rows = engagementRows(40);
      fastify = await startFastifyService(rows);
    });
    afterEach(() => fastify.close());

    it('finds, reads and changes engagements whose ids are integers and whose fields are snake_case', async () => {
      const session = await connect(
        { EUS_BASE_URL: fastify.baseUrl, EUS_API_KEY: 'fastify-mcp-key', EUS_ENVIRONMENT: 'Fastify' },
        ['--allow-writes'],
      );
      try {
        const found = await call(session, Tools.findEngagements, { text: 'Engagement 17' });
        const listed = data(found.text) as Array<{ id: string; evaluationCount: number }>;
        assert.deepEqual(listed[0], { ...listed[0], id: '17', evaluationCount: 48 });
        const one = data((await call(session, Tools.getEngagement, { id: '17' })).text) as { updatedAt: string };
        const changed = await call(session, Tools.updateEngagements, {
          ids: ['17'],
          status: 'archived',
          basedOn: { '17': one.updatedAt },
        });
        assert.match(changed.text, /Changed 1,/, changed.text);
        assert.equal(rows.find((r) => r.id === 17)?.status, 'archived');
        assertNoKey(session.transcript(), 'fastify-mcp-key');
      } finally {
        await session.close();
      }
    });
  });
});
