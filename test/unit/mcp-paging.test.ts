// Issue 47, item 3: an agent pages past the first 50, is told how fresh an answer is, shares one
// read with the calls it makes at once, sees progress during a long read, and can cancel one.
// The built MCP server over stdio with the SDK's client, against the reference service (its
// request log counts what reached it); freshness in-process, the clock's Date moved.
import assert from 'node:assert/strict';
import { install } from '@sinonjs/fake-timers';
import { readCommand } from '../../src/mcp/cli';
import { mcpHost } from '../../src/mcp/server';
import { Tools } from '../../src/tools/definitions';
import { runTool } from '../../src/tools/run';
import { type RunningService, startService } from '../service/server';
import { type Answer, type Session, call, connect } from './support/mcpClient';
import { until } from './support/until';

const isList = (r: { method: string; path: string }) => r.method === 'GET' && /\/v1\/engagements\/?$/.test(r.path);
const isRecords = (r: { method: string; path: string }) =>
  r.method === 'GET' && /\/v1\/usage\/details\/?$/.test(r.path);

/** Every item of a paged list, following nextCursor to the end; the answers in order. */
async function everyPage(session: Session, name: string, args: Record<string, unknown>) {
  const answers: Answer[] = [];
  let cursor: string | undefined;
  do {
    const answer = await call(session, name, cursor ? { cursor } : args);
    assert.equal(answer.isError, false, answer.text);
    answers.push(answer);
    cursor = answer.structured?.nextCursor as string | undefined;
    assert.ok(answers.length <= 200, 'the cursor moves on');
  } while (cursor);
  return answers;
}

describe('Paging, freshness, shared reads, progress and cancellation over MCP (unit)', function () {
  this.timeout(60_000);

  describe('2,300 engagements', () => {
    let service: RunningService;
    const sessions: Session[] = [];
    const open = async () => {
      const session = await connect({ EUS_BASE_URL: service.baseUrl, EUS_API_KEY: service.keys.admin });
      sessions.push(session);
      return session;
    };

    before(async () => {
      service = await startService({ engagementCount: 2_300 });
    });
    afterEach(async () => {
      await Promise.all(sessions.splice(0).map((s) => s.close()));
      service.reset();
    });
    after(() => service.close());

    it('find pages by cursor to the last of 2,300: each once, how many remain said, from one read', async () => {
      const session = await open();
      service.clearRequests();
      const answers = await everyPage(session, Tools.findEngagements, { sort: 'name', direction: 'asc', limit: 50 });
      assert.equal(answers.length, 46, '2,300 in pages of 50');
      const ids = answers.flatMap((a) => (a.structured?.engagements as Array<{ id: string }>).map((e) => e.id));
      assert.equal(ids.length, 2_300);
      assert.deepEqual(new Set(ids), new Set(service.store.engagements.map((e) => e.id)), 'every engagement, once');
      const names = answers.flatMap((a) => (a.structured?.engagements as Array<{ name: string }>).map((e) => e.name));
      const sorted = [...names].sort((a, b) => a.localeCompare(b));
      assert.deepEqual(names, sorted, 'in the order asked, across pages');
      assert.deepEqual(
        answers.map((a) => a.structured?.remaining),
        answers.map((_, i) => 2_300 - 50 * (i + 1)),
      );
      assert.match(answers[0].text, /2300 of the 2300 engagements matched; listing 1 to 50/);
      assert.match(answers[0].text, /2250 more: to list them, call again with “cursor”: “[A-Za-z0-9_-]+”\./);
      assert.match(answers[45].text, /listing 2251 to 2300.*\nThat is the last of them\./);
      assert.equal(answers[45].structured?.nextCursor, undefined);
      const firstRead = service.requests.filter(isList).length;
      assert.ok(firstRead >= 23, `the whole set was read once (${firstRead} requests)`);
      assert.equal(service.requests.filter(isList).length, firstRead, 'the other 45 pages read nothing');
    });

    it('a cursor given with other inputs than its own is refused in words; page and offset are refused, naming the cursor', async () => {
      const session = await open();
      const first = await call(session, Tools.findEngagements, { status: ['active'], limit: 5 });
      const cursor = first.structured?.nextCursor as string;
      assert.ok(cursor);
      const same = await call(session, Tools.findEngagements, { status: ['active'], cursor, limit: 5 });
      assert.equal(same.isError, false, same.text);
      assert.match(same.text, /listing 6 to 10/);
      const other = await call(session, Tools.findEngagements, { status: ['completed'], cursor });
      assert.equal(other.isError, true);
      assert.match(other.text, /The cursor lists for other inputs \(“status” differs\)/);
      for (const input of [{ page: 2 }, { offset: 50 }]) {
        const refused = await call(session, Tools.findEngagements, input);
        assert.equal(refused.isError, true, JSON.stringify(input));
        assert.match(
          refused.text,
          /is not an input of this tool; its inputs are: .*cursor.*To see more, give “cursor”/,
        );
      }
      const forged = await call(session, Tools.findEngagements, { cursor: 'not-a-cursor' });
      assert.match(forged.text, /“cursor” is not one this tool gave/);
    });

    it('three finds at once send the requests of one', async () => {
      const alone = await open();
      service.clearRequests();
      await call(alone, Tools.findEngagements, {});
      const one = service.requests.filter(isList).length;

      const session = await open();
      service.clearRequests();
      const answers = await Promise.all([
        call(session, Tools.findEngagements, { sort: 'name' }),
        call(session, Tools.findEngagements, { status: ['active'] }),
        call(session, Tools.findEngagements, { text: 'Review' }),
      ]);
      const three = service.requests.filter(isList).length;
      console.log(`      requests for one find: ${one}; for three at once: ${three}`);
      assert.deepEqual(
        answers.map((a) => a.isError),
        [false, false, false],
        answers.map((a) => a.text).join('\n'),
      );
      assert.equal(three, one);
    });

    it('a cancelled find stops its reads: no page is asked after the cancel', async () => {
      const session = await open();
      service.clearRequests();
      const release = service.holdAnswers();
      const abort = new AbortController();
      const pending = call(session, Tools.findEngagements, {}, { signal: abort.signal });
      await until(() => service.requests.some(isList), 'the first page asked', 10_000);
      abort.abort();
      await assert.rejects(pending);
      await until(
        () => /findEngagements failed: .*cancelled/i.test(session.stderr()),
        'the server saw the cancel',
        10_000,
      );
      release();
      // A call after it is answered once the server has done what it does after the cancel.
      await call(session, Tools.getEngagement, { id: service.store.engagements[0].id });
      assert.equal(service.requests.filter(isList).length, 1, 'only the page asked before the cancel');
    });
  });

  describe('a slow service of 20,000 engagements', () => {
    let service: RunningService;
    before(async () => {
      service = await startService({ engagementCount: 20_000, latencyMs: 20 });
    });
    after(() => service.close());

    it('progress notifications during the long read when the client sent a progress token, none without', async () => {
      const session = await connect({ EUS_BASE_URL: service.baseUrl, EUS_API_KEY: service.keys.admin });
      try {
        const notes: Array<{ progress: number; total?: number; message?: string }> = [];
        const answer = await call(session, Tools.findEngagements, {}, { onprogress: (p) => notes.push(p) });
        assert.equal(answer.isError, false, answer.text);
        assert.equal(answer.structured?.total, 20_000);
        assert.ok(notes.length >= 10, `progress was told (${notes.length} notifications)`);
        assert.ok(
          notes.every((n, i) => i === 0 || n.progress >= notes[i - 1].progress),
          'progress never goes back',
        );
        assert.deepEqual([notes.at(-1)?.progress, notes.at(-1)?.total], [20_000, 20_000]);
        assert.match(notes[0].message ?? '', /Reading the engagements/);
        const before = session.transcript().length;
        await call(session, Tools.usage, { view: 'records' });
        assert.doesNotMatch(session.transcript().slice(before), /notifications\/progress/, 'none without a token');
      } finally {
        await session.close();
      }
    });
  });

  describe('usage records', () => {
    let service: RunningService;
    let session: Session;
    const period = '2026-03';
    const records = Array.from({ length: 260 }, (_, i) => ({
      id: `rec-${String(i).padStart(3, '0')}`,
      timestamp: `2026-03-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
      keyId: 'key_admin_0001',
      endpoint: i % 2 ? '/v1/engagements' : '/v1/usage/summary',
      method: 'GET',
      statusCode: i % 10 === 0 ? 500 : 200,
    }));

    before(async () => {
      service = await startService({ engagementCount: 10 });
    });
    beforeEach(async () => {
      service.store.setDetails(period, records);
      session = await connect({ EUS_BASE_URL: service.baseUrl, EUS_API_KEY: service.keys.admin });
    });
    afterEach(async () => {
      await session.close();
      service.reset();
    });
    after(() => service.close());

    it('the records page by cursor to the last of 260, read once', async () => {
      service.clearRequests();
      const answers = await everyPage(session, Tools.usage, { view: 'records', billingPeriod: period, limit: 50 });
      assert.equal(answers.length, 6);
      const ids = answers.flatMap((a) => (a.structured?.records as Array<{ id: string }>).map((r) => r.id));
      assert.deepEqual(ids.sort(), records.map((r) => r.id).sort());
      assert.equal(answers[0].structured?.remaining, 210);
      assert.match(answers[5].text, /listing 251 to 260.*\nThat is the last of them\./);
      assert.equal(service.requests.filter(isRecords).length, 3, 'the 260 records read once, in pages of 100');
      const filtered = await everyPage(session, Tools.usage, {
        view: 'records',
        billingPeriod: period,
        statusClass: '5xx',
        limit: 10,
      });
      assert.deepEqual(
        filtered.flatMap((a) => (a.structured?.records as Array<{ id: string }>).map((r) => r.id)).sort(),
        records.filter((r) => r.statusCode === 500).map((r) => r.id),
      );
    });

    it('a cancelled records read stops: no page is asked after the cancel', async () => {
      service.clearRequests();
      const release = service.holdAnswers();
      const abort = new AbortController();
      const pending = call(session, Tools.usage, { view: 'records', billingPeriod: period }, { signal: abort.signal });
      await until(() => service.requests.some(isRecords), 'the first page asked', 10_000);
      abort.abort();
      await assert.rejects(pending);
      await until(() => /usage failed: .*cancelled/i.test(session.stderr()), 'the server saw the cancel', 10_000);
      release();
      await call(session, Tools.usage, { view: 'byKey', billingPeriod: period });
      assert.equal(service.requests.filter(isRecords).length, 1, 'only the page asked before the cancel');
    });
  });

  describe('freshness, in-process (the clock moved)', () => {
    let service: RunningService;
    /** The MCP server's tool host in this process, set up as the server reads its environment. */
    function hostOf(running: RunningService) {
      const command = readCommand([], { EUS_BASE_URL: running.baseUrl, EUS_API_KEY: running.keys.admin });
      assert.ok(command.kind === 'serve' && command.setup.ok);
      return mcpHost(command.setup, () => undefined);
    }

    before(async () => {
      service = await startService({ engagementCount: 120 });
    });
    after(() => service.close());

    it('two finds share one read: the one cancelled stops waiting, the other gets the whole set, read once', async () => {
      const host = hostOf(service);
      service.clearRequests();
      const release = service.holdAnswers();
      const cancelled = new AbortController();
      const first = runTool(host, Tools.findEngagements, {}, { signal: cancelled.signal });
      const second = runTool(host, Tools.findEngagements, { sort: 'name' });
      await until(() => service.requests.some(isList), 'the first page asked');
      cancelled.abort();
      const stopped = await first;
      assert.equal(stopped.isError, true);
      assert.match(stopped.text, /Cancelled/);
      release();
      const answered = await second;
      assert.equal(answered.isError, false, answered.text);
      assert.equal(answered.structured?.total, 120);
      const read = service.requests.filter(isList).length;
      await runTool(host, Tools.findEngagements, {});
      assert.equal(service.requests.filter(isList).length, read, 'kept: the next find reads nothing');
    });

    it('a whole set is reused while fresh, its age said; older than 60 s it is read again', async () => {
      const host = hostOf(service);
      const clock = install({ toFake: ['Date'], now: Date.now() });
      try {
        service.clearRequests();
        const first = await runTool(host, Tools.findEngagements, {});
        assert.equal(first.structured?.readSecondsAgo, 0);
        assert.doesNotMatch(first.text, /Answered from what was read/);
        const read = service.requests.filter(isList).length;
        clock.tick(42_000);
        const again = await runTool(host, Tools.findEngagements, {});
        assert.equal(again.structured?.readSecondsAgo, 42);
        assert.match(again.text, /Answered from what was read 42 s ago/);
        assert.equal(service.requests.filter(isList).length, read, 'nothing read while fresh');
        clock.tick(20_000);
        const later = await runTool(host, Tools.findEngagements, {});
        assert.equal(later.structured?.readSecondsAgo, 0);
        assert.ok(service.requests.filter(isList).length > read, 'read again once 60 s old');
      } finally {
        clock.uninstall();
      }
    });
  });
});
