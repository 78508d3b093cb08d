import assert from 'node:assert/strict';
import { install } from '@sinonjs/fake-timers';
import { type RequestLog, userAgent } from '../../src/api/client';
import { redact } from '../../src/api/redact';
import { ServiceApi } from '../../src/api/service';
import { compactValue, toCsv, toJsonExport } from '../../src/core/records';
import { safeText, shortLabel } from '../../src/core/text';
import { probe } from '../service/probe';
import { NAME_MAX_LENGTH, type RunningService } from '../service/server';
import { done } from './support/writes';
import { rejectsWith } from './support/apiErrors';
import { closedPort, startLoopbackServer } from './support/loopback';
import { INVISIBLES, jsonEscaped, splitKey } from './support/invisibles';
import { useReferenceService } from './support/referenceService';
import { until } from './support/until';

describe('API client against the reference service', function () {
  let service: RunningService;
  let key: string | undefined;
  let logs: RequestLog[];
  let api: ServiceApi;

  const make = (options: Partial<ConstructorParameters<typeof ServiceApi>[0]> = {}) =>
    new ServiceApi({
      baseUrl: service.baseUrl,
      getKey: () => key,
      onRequest: (entry) => logs.push(entry),
      timeoutMs: 5000,
      backoffLimitMs: 50,
      ...options,
    });
  const hits = (method: string, pathPrefix: string) =>
    service.requests.filter((r) => r.method === method && r.path.startsWith(`/v1${pathPrefix}`)).length;

  const reference = useReferenceService();
  beforeEach(() => {
    service = reference.service;
    key = service.keys.admin;
    logs = [];
    api = make();
  });

  describe('endpoints', () => {
    it('lists one page with its envelope', async () => {
      const page = await api.engagements.list({ page: 2, pageSize: 10 });
      assert.equal(page.page, 2);
      assert.equal(page.pageSize, 10);
      assert.equal(page.totalCount, 60);
      assert.equal(page.data.length, 10);
      assert.deepEqual(service.requests.at(-1)?.query, { page: '2', pageSize: '10' });
      assert.equal(service.requests.at(-1)?.authorization, `Bearer ${service.keys.admin}`);
    });

    it('names the extension and its version in the User-Agent of every request, reads and writes alike', async () => {
      const agent = userAgent('eus-tools.engagement-usage', '0.1.0', 'VS Code 1.100.3');
      assert.equal(agent, 'eus-tools.engagement-usage/0.1.0 (VS Code 1.100.3)');
      const named = make({ userAgent: agent });
      const created = done(await named.engagements.create({ name: 'Agent check', type: 'evaluation' }));
      await named.engagements.get(created.engagement.id);
      await named.usage.summary();
      const sent = service.requests.map((r) => r.userAgent);
      assert.equal(sent.length, 3);
      assert.deepEqual(sent, [agent, agent, agent]);
    });

    it('lists every engagement concurrently, each once, in order', async () => {
      service.store.seedEngagements(1234);
      const all = await api.engagements.listAll({ pageSize: 100 });
      assert.equal(all.items.length, 1234);
      assert.equal(new Set(all.items.map((e) => e.id)).size, 1234);
      assert.equal(all.requests, 13);
      assert.equal(hits('GET', '/engagements'), 13);
      assert.deepEqual(
        all.items.map((e) => e.id),
        service.store.engagements.map((e) => e.id),
      );
    });

    it('keeps at most the configured number of requests in flight', async () => {
      service.store.seedEngagements(2000);
      service.setLatency(30);
      let inFlight = 0;
      let peak = 0;
      const counting: typeof fetch = async (input, init) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        try {
          return await fetch(input, init);
        } finally {
          inFlight--;
        }
      };
      const all = await make({ concurrency: 4, fetch: counting }).engagements.listAll({ pageSize: 100 });
      assert.equal(all.items.length, 2000);
      assert.ok(peak <= 4, `peak ${peak} requests in flight`);
      assert.ok(peak >= 2, 'pages after the first are read concurrently');
    });

    it('gets, creates and updates an engagement; PATCH carries only the given fields', async () => {
      const { engagement: created, source } = done(
        await api.engagements.create({
          name: '  Churn calls  ',
          type: 'quality-review',
          description: 'Why customers leave',
        }),
      );
      assert.equal(source, 'answer');
      assert.equal(created.name, 'Churn calls');
      assert.equal(created.status, 'active');
      assert.equal(created.evaluationCount, 0);
      const post = service.requests.find((r) => r.method === 'POST');
      assert.deepEqual(post?.body, { name: 'Churn calls', type: 'quality-review', description: 'Why customers leave' });

      const got = await api.engagements.get(created.id);
      assert.equal(got.id, created.id);

      const { engagement: updated } = done(await api.engagements.update(created.id, { status: 'completed' }));
      assert.equal(updated.status, 'completed');
      assert.equal(updated.name, 'Churn calls');
      assert.ok((updated.updatedAt ?? '') > (created.updatedAt ?? ''));
      const patch = service.requests.find((r) => r.method === 'PATCH');
      assert.deepEqual(patch?.body, { status: 'completed' });
    });

    it('never sends a type in a PATCH, even when a caller slips one in', async () => {
      const target = service.store.engagements[0];
      await api.engagements.update(target.id, { name: 'Renamed', type: 'other' } as never);
      assert.deepEqual(service.requests.find((r) => r.method === 'PATCH')?.body, { name: 'Renamed' });
    });

    it('reads the usage summary, details and by-key for a period', async () => {
      const summary = await api.usage.summary();
      assert.match(summary.billingPeriod, /^\d{4}-\d{2}$/);
      for (const meter of ['calls', 'webhooks', 'storage_gb'] as const) {
        assert.equal(typeof summary.usage[meter].used, 'number');
        assert.equal(typeof summary.usage[meter].included, 'number');
      }
      const details = await api.usage.details({ billingPeriod: summary.billingPeriod, page: 1, pageSize: 100 });
      assert.equal(details.data.length, Math.min(100, details.totalCount));
      const byKey = await api.usage.byKey(summary.billingPeriod);
      assert.ok(byKey.keys.some((k) => service.keys.admin.startsWith(`${k.keyId}.`)));
      const all = await api.usage.detailsAll(summary.billingPeriod);
      assert.equal(all.items.length, details.totalCount);
    });

    it('takes the key from the provider at each request', async () => {
      await api.engagements.list();
      key = service.keys.readOnly;
      await api.engagements.list();
      const auth = service.requests.map((r) => r.authorization);
      assert.deepEqual(auth, [`Bearer ${service.keys.admin}`, `Bearer ${service.keys.readOnly}`]);
    });
  });

  describe('input checks before sending', () => {
    it('invents no limits the contract does not state: long names and large list pages are sent', async () => {
      // The list's page size has no bound in the contract: the service decides (ours answers 400).
      await rejectsWith(api.engagements.list({ pageSize: 101 }), 'invalidRequest');
      assert.equal(service.requests.at(-1)?.query.pageSize, '101', 'sent, not refused before sending');
      // The reference service takes names of up to 200 characters: a longer one is sent, and it refuses it.
      const name = 'N'.repeat(NAME_MAX_LENGTH);
      const description = 'd'.repeat(5000);
      const { engagement } = done(await api.engagements.create({ name, type: 't'.repeat(300), description }));
      assert.equal(engagement.name, name);
      const refused = await rejectsWith(api.engagements.create({ name: 'N'.repeat(600), type: 'x' }), 'invalidRequest');
      assert.equal(refused.status, 422, 'sent, and refused by the service');
      assert.equal(refused.fieldErrors?.name, 'name must have at most 200 characters');
      const { engagement: renamed } = done(
        await api.engagements.update(engagement.id, {
          status: 'completed',
          description: 'e'.repeat(3000),
        }),
      );
      assert.equal(renamed.description?.length, 3000);
    });

    it('refuses bad input without a request', async () => {
      await rejectsWith(api.engagements.create({ name: '   ', type: 'x' }), 'invalidRequest');
      await rejectsWith(api.engagements.list({ page: 0 }), 'invalidRequest');
      await rejectsWith(api.usage.details({ pageSize: 0 }), 'invalidRequest');
      await rejectsWith(api.usage.summary('2026-13'), 'invalidRequest');
      await rejectsWith(api.usage.byKey('26-01'), 'invalidRequest');
      await rejectsWith(api.engagements.update('eng_1', {}), 'invalidRequest');
      assert.equal(service.requests.length, 0);
    });

    it('refuses base URLs that are not https (except loopback) or lack /v1', () => {
      assert.throws(() => new ServiceApi({ baseUrl: 'http://example.com/v1', getKey: () => 'k' }), /https/);
      assert.throws(() => new ServiceApi({ baseUrl: 'https://example.com/api', getKey: () => 'k' }), /\/v1/);
      assert.doesNotThrow(() => new ServiceApi({ baseUrl: 'http://localhost:8080/v1/', getKey: () => 'k' }));
      assert.doesNotThrow(() => new ServiceApi({ baseUrl: 'https://example.com/base/v1', getKey: () => 'k' }));
    });

    it('encodes path parameters so an id cannot reach another endpoint', async () => {
      await rejectsWith(api.engagements.get('../usage/summary'), 'notFound');
      assert.equal(service.requests.at(-1)?.path, '/v1/engagements/..%2Fusage%2Fsummary');
      await rejectsWith(api.engagements.get('a?b#c'), 'notFound');
      assert.equal(service.requests.at(-1)?.path, '/v1/engagements/a%3Fb%23c');
      await rejectsWith(api.engagements.get('..'), 'invalidRequest');
      await rejectsWith(api.engagements.get(''), 'invalidRequest');
      assert.ok(service.requests.every((r) => r.path.startsWith('/v1/engagements/')));
    });
  });

  describe('error kinds', () => {
    it('unauthorized: no key, and a rejected key', async () => {
      key = undefined;
      await rejectsWith(api.engagements.list(), 'unauthorized');
      assert.equal(service.requests.length, 0, 'nothing is sent without a key');
      key = 'key_nobody.wrong';
      const error = await rejectsWith(api.engagements.list(), 'unauthorized');
      assert.equal(error.status, 401);
    });

    it('forbidden names the missing scope', async () => {
      key = service.keys.readOnly;
      const error = await rejectsWith(api.engagements.create({ name: 'x', type: 'y' }), 'forbidden');
      assert.equal(error.scope, 'engagements:write');
      key = service.keys.noUsage;
      assert.equal((await rejectsWith(api.usage.summary(), 'forbidden')).scope, 'usage:read');
      key = service.keys.usageOnly;
      assert.equal((await rejectsWith(api.engagements.list(), 'forbidden')).scope, 'engagements:read');
    });

    it('notFound for an unknown id', async () => {
      const error = await rejectsWith(api.engagements.get('eng_missing'), 'notFound');
      assert.equal(error.status, 404);
    });

    it('invalidRequest carries the server message and field errors', async () => {
      const error = await rejectsWith(api.usage.summary('2999-01'), 'invalidRequest');
      assert.match(error.serverMessage ?? '', /future/i);
      service.faults.add({
        method: 'POST',
        kind: 'status',
        status: 422,
        body: { error: { message: 'Name taken', fields: { name: 'already used' } } },
      });
      const invalid = await rejectsWith(api.engagements.create({ name: 'x', type: 'y' }), 'invalidRequest');
      assert.equal(invalid.serverMessage, 'Name taken');
      assert.deepEqual(invalid.fieldErrors, { name: 'already used' });
    });

    it('conflict on 409', async () => {
      service.faults.add({ method: 'PATCH', kind: 'status', status: 409 });
      await rejectsWith(api.engagements.update(service.store.engagements[0].id, { name: 'n' }), 'conflict');
    });

    it('server on 500 (not retried) and on an HTML error page', async () => {
      service.faults.add({ kind: 'status', status: 500, times: 1 });
      const error = await rejectsWith(api.engagements.list(), 'server');
      assert.equal(error.status, 500);
      assert.equal(hits('GET', '/engagements'), 1);
      service.faults.add({ kind: 'html', times: 5 });
      const html = await rejectsWith(api.engagements.list(), 'server');
      assert.equal(html.status, 502);
      assert.doesNotMatch(html.message, /<html|<body/i);
    });

    it('badResponse says so in words for people, and names what is wrong in its detail (for the log)', async () => {
      service.faults.add({ kind: 'notJson', times: 1 });
      const notJson = await rejectsWith(api.engagements.list(), 'badResponse');
      assert.match(notJson.message, /in a form this extension does not understand; details are in the log/);
      assert.doesNotMatch(notJson.message, /contract|expected/);
      assert.match(notJson.detail ?? '', /not JSON/);
      assert.match(logs.at(-1)?.message ?? '', /not JSON/, 'the detail reaches the log');
      // The log holds the details it was promised, not the promise again.
      assert.doesNotMatch(logs.at(-1)?.message ?? '', /details are in the log/);
      assert.match(logs.at(-1)?.message ?? '', /does not understand: .*not JSON/);
      service.faults.add({ kind: 'empty200', times: 1 });
      assert.match((await rejectsWith(api.engagements.list(), 'badResponse')).detail ?? '', /empty/);
      service.faults.add({ kind: 'body', body: [1, 2, 3], times: 1 });
      await rejectsWith(api.usage.summary(), 'badResponse');
      // A row without its name no longer fails the list (issue 45: it is listed, its name
      // unknown); a page whose total is not a number still does, and names the field.
      const first = service.store.engagements[0];
      service.faults.add({
        kind: 'body',
        body: { data: [first], page: 1, pageSize: 25, totalCount: 'several' },
        times: 1,
      });
      const missing = await rejectsWith(api.engagements.list(), 'badResponse');
      assert.match(missing.detail ?? '', /totalCount: expected a whole number, got "several"/);
      assert.deepEqual(Object.keys(missing.fieldErrors ?? {}), ['totalCount']);
    });

    it('keeps extra fields and unknown statuses; reads numbers sent as strings', async () => {
      const first = { ...service.store.engagements[0], status: 'on-hold', owner: 'dana', evaluationCount: '12' };
      service.faults.add({ kind: 'body', body: { data: [first], page: 1, pageSize: 25, totalCount: 1 }, times: 1 });
      const page = await api.engagements.list();
      assert.equal(page.data[0].status, 'on-hold');
      assert.equal(page.data[0].owner, 'dana');
      assert.equal(page.data[0].evaluationCount, 12);
    });

    it('network: a dropped connection, retried for GET and then reported', async () => {
      service.faults.add({ kind: 'drop' });
      const error = await rejectsWith(api.engagements.list(), 'network');
      assert.equal(hits('GET', '/engagements'), 3, 'one request and two retries');
      assert.equal(logs.at(-1)?.retries, 2);
      assert.match(error.message, /GET \/engagements/);
    });

    it('network: a truncated body', async () => {
      service.faults.add({ kind: 'truncated', times: 1 });
      await rejectsWith(api.engagements.list(), 'network');
    });

    it('network: nothing listening', async () => {
      const port = await closedPort();
      const offline = new ServiceApi({ baseUrl: `http://127.0.0.1:${port}/v1`, getKey: () => 'k', retryLimit: 0 });
      const error = await rejectsWith(offline.engagements.list(), 'network');
      assert.equal(error.detail, 'ECONNREFUSED', 'the system’s reason, the same in every language');
      assert.equal(
        error.message,
        `GET /engagements could not reach the service (connectionRefused, ECONNREFUSED at 127.0.0.1:${port}).`,
      );
    });

    it('timeout when the answer is late, and when the body is slow', async () => {
      const quick = make({ timeoutMs: 200 });
      service.faults.add({ kind: 'latency', ms: 1000, times: 1 });
      await rejectsWith(quick.engagements.list(), 'timeout');
      assert.equal(hits('GET', '/engagements'), 1, 'a timeout is not retried');
      service.faults.add({ kind: 'slowBody', ms: 1500, times: 1 });
      await rejectsWith(quick.engagements.list(), 'timeout');
    });

    it('cancelled through an AbortSignal, before and during the request', async () => {
      const early = new AbortController();
      early.abort();
      await rejectsWith(api.engagements.list({}, { signal: early.signal }), 'cancelled');
      const release = service.holdAnswers();
      const late = new AbortController();
      const listing = api.engagements.list({}, { signal: late.signal });
      await until(() => service.requests.length === 1, 'the request at the service');
      late.abort();
      await rejectsWith(listing, 'cancelled');
      release();
    });

    it('cancelling listAll stops every page', async () => {
      // More pages than requests in flight at once: the cancel has pages left to spare.
      service.store.seedEngagements(10_000);
      const controller = new AbortController();
      // Counted where the client sends, not where the service receives. The answers from the
      // second page on are held, so every worker is waiting on its page when the cancel comes.
      let pagesSent = 0;
      let sentAfter = 0;
      let release: (() => void) | undefined;
      const counting: typeof fetch = (input, init) => {
        const page = Number(new URL(input instanceof Request ? input.url : String(input)).searchParams.get('page'));
        if (controller.signal.aborted) sentAfter++;
        else if (page >= 2) {
          release ??= service.holdAnswers();
          pagesSent++;
        }
        return fetch(input, init);
      };
      const cancellable = make({ fetch: counting });
      const reading = cancellable.engagements.listAll({ signal: controller.signal });
      const workers = cancellable.client.concurrency;
      await until(() => pagesSent === workers, `${workers} pages asked at once`);
      controller.abort();
      await rejectsWith(reading, 'cancelled');
      release?.();
      // listAll ends only once every worker has: nothing it started can send after this.
      assert.equal(sentAfter, 0, 'no request is started after the cancel');
      assert.equal(pagesSent, workers, 'one page per concurrent worker (of 99 pages left), none more');
    });

    it('a redirect within the base URL is followed; one that never ends stops after a few with a clear error', async () => {
      service.faults.add({
        kind: 'redirect',
        status: 307,
        location: `${service.baseUrl}/engagements?page=1&pageSize=25`,
        times: 1,
      });
      const page = await api.engagements.list();
      assert.ok(page.data.length > 0, 'the list is shown after one redirect');
      service.faults.add({ kind: 'redirect' });
      const error = await rejectsWith(api.engagements.list(), 'redirected');
      assert.equal(error.redirect, 'tooMany');
      assert.match(error.message, /redirected GET \/engagements\?page=1&pageSize=25 more than 5 times/);
    });

    it('redirected to another host: refused with the whole address, the key never sent there', async () => {
      const other = await startLoopbackServer();
      try {
        const location = `${other.origin}/v1/engagements`;
        service.faults.add({ kind: 'redirect', location, times: 1 });
        const error = await rejectsWith(api.engagements.list(), 'redirected');
        assert.equal(error.location, location);
        assert.match(error.message, /redirected GET \/engagements\?page=1&pageSize=25 to http:/);
        assert.deepEqual(other.received, [], 'the other host received nothing');
      } finally {
        await other.close();
      }
    });
  });

  describe('retries', () => {
    it('GET retried on 503 and 429 honouring Retry-After, then succeeds', async () => {
      // The service's three answers, the last its real page; the waits between them are timed by
      // a fake clock (the client's only timers are setTimeout's), which only this test moves.
      const listed = await probe(service.baseUrl, 'GET', '/engagements', { key: service.keys.admin });
      const json = { 'Content-Type': 'application/json' };
      const answers = [
        () => new Response('{"error":{"code":"unavailable","message":"Try later"}}', { status: 503, headers: json }),
        () =>
          new Response('{"error":{"code":"rate_limited","message":"Slow down"}}', {
            status: 429,
            headers: { ...json, 'Retry-After': '1' },
          }),
        () => new Response(listed.text, { status: 200, headers: json }),
      ];
      let asked = 0;
      const scripted: typeof fetch = () => Promise.resolve(answers[asked++]());
      const clock = install({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const listing = make({ fetch: scripted }).engagements.list();
        await clock.tickAsync(49);
        assert.equal(asked, 1, 'the backoff after the 503 (its limit here, 50 ms) has not passed');
        await clock.tickAsync(1);
        assert.equal(asked, 2, 'asked again after the backoff');
        await clock.tickAsync(999);
        assert.equal(asked, 2, 'not before the second the 429 asked for');
        await clock.tickAsync(1);
        const page = await listing;
        assert.equal(asked, 3);
        assert.equal(page.data.length, 25);
      } finally {
        clock.uninstall();
      }
      assert.equal(logs.at(-1)?.retries, 2);
      assert.equal(logs.at(-1)?.outcome, 'ok');
    });

    it('GET retried a bounded number of times on 502/504', async () => {
      service.faults.add({ method: 'GET', kind: 'status', status: 504 });
      await rejectsWith(api.engagements.list(), 'server');
      assert.equal(hits('GET', '/engagements'), 3);
    });

    it('a Retry-After beyond the cap is not waited for: rateLimited with the time', async () => {
      service.faults.add({ method: 'GET', kind: 'status', status: 429, headers: { 'Retry-After': '120' } });
      const error = await rejectsWith(api.engagements.list(), 'rateLimited');
      assert.equal(error.retryAfterMs, 120_000);
      assert.equal(hits('GET', '/engagements'), 1);
    });

    it('POST and PATCH are never retried', async () => {
      service.faults.add({ kind: 'status', status: 503, headers: { 'Retry-After': '0' } });
      await rejectsWith(api.engagements.create({ name: 'Once', type: 't' }), 'server');
      await rejectsWith(api.engagements.update(service.store.engagements[0].id, { name: 'Once' }), 'server');
      service.faults.clear();
      service.faults.add({ kind: 'drop' });
      await rejectsWith(api.engagements.create({ name: 'Once', type: 't' }), 'network');
      service.faults.add({ kind: 'status', status: 429, headers: { 'Retry-After': '0' } });
      assert.equal(hits('POST', '/engagements'), 2);
      assert.equal(hits('PATCH', '/engagements'), 1);
    });
  });

  describe('redaction', () => {
    it('never puts the key in an error message or a log entry, even when the service echoes it', async () => {
      service.faults.add({
        kind: 'status',
        status: 400,
        body: { error: { message: `Key ${service.keys.admin} is malformed (Bearer ${service.keys.admin})` } },
      });
      const error = await rejectsWith(api.engagements.list(), 'invalidRequest');
      assert.ok(!error.message.includes(service.keys.admin), error.message);
      assert.ok(!(error.serverMessage ?? '').includes(service.keys.admin));
      assert.match(error.message, /\[redacted\]/);
      for (const entry of logs) assert.ok(!JSON.stringify(entry).includes(service.keys.admin));
    });

    // What any display path could show at most: the text with every invisible character gone.
    const seen = (text: string) => text.replace(/\p{Cc}|\p{Cf}|\p{Default_Ignorable_Code_Point}/gu, '');

    it('an error body echoing the key split by any invisible character, raw or escaped: no message, field error or log line shows it (issue 34)', async () => {
      const admin = service.keys.admin;
      const secret = admin.slice(admin.indexOf('.') + 1);
      for (const [name, ch] of INVISIBLES)
        for (const [form, split] of [
          ['raw', JSON.stringify(splitKey(admin, ch)).slice(1, -1)],
          ['escaped', splitKey(admin, jsonEscaped(ch))],
        ]) {
          logs = [];
          service.faults.add({
            kind: 'status',
            status: 400,
            times: 1,
            rawBody: `{"error":{"message":"Key ${split} is malformed","fields":{"key":"Bearer ${split}"}}}`,
          });
          const error = await rejectsWith(api.engagements.list(), 'invalidRequest');
          const texts = [
            error.message,
            error.serverMessage ?? '',
            JSON.stringify(error.fieldErrors),
            ...logs.map((entry) => entry.message ?? ''),
          ];
          assert.match(error.serverMessage ?? '', /Key \[redacted\] is malformed/, `${name}, ${form}`);
          for (const text of texts.flatMap((t) => [t, safeText(t), shortLabel(t, '-'), redact(t)]))
            assert.ok(!seen(text).includes(secret), `${name}, ${form}: ${JSON.stringify(text)}`);
        }
    });

    it('a usage record carrying the key, its Authorization value, or the key encoded: the records, their CSV and JSON hold [redacted] (issue 34)', async () => {
      const admin = service.keys.admin;
      const secret = admin.slice(admin.indexOf('.') + 1);
      const pct = Array.from(admin, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
      const carried: Record<string, string> = {
        header: `Authorization: Bearer ${admin}`,
        basic: `Basic ${Buffer.from(`user:${admin}`).toString('base64')}`,
        url: `https://x.invalid/?key=${pct}`,
        escaped: jsonEscaped(admin),
      };
      for (const [name, ch] of INVISIBLES) carried[name] = JSON.stringify(splitKey(admin, ch)).slice(1, -1);
      const records = Object.entries(carried).map(
        ([what, text], i) =>
          `{"id":"rec_${i}","keyId":"key_admin","endpoint":"GET /v1/engagements","what":"${what}","note":"${text}","meta":{"auth":"${text}"}}`,
      );
      service.faults.add({
        path: '/usage/details',
        kind: 'status',
        status: 200,
        times: 1,
        rawBody: `{"data":[${records.join(',')}],"page":1,"pageSize":100,"totalCount":${records.length}}`,
      });
      const page = await api.usage.details({ page: 1, pageSize: 100 });
      assert.equal(page.data.length, records.length, 'every record read');
      const exported = [
        JSON.stringify(page.data),
        toCsv(page.data),
        toJsonExport(page.data, { billingPeriod: '2026-11', exportedAt: '2026-11-20T00:00:00Z' }),
        ...page.data.map((record) => compactValue(record.meta)),
      ];
      for (const text of exported) assert.ok(!seen(text).includes(secret), text);
      for (const record of page.data) {
        assert.match(String(record.note), /\[redacted\]/, `${String(record.what)}: ${String(record.note)}`);
        assert.equal(record.endpoint, 'GET /v1/engagements', 'the rest of the record is as sent');
      }
      assert.equal(page.data[0].note, 'Authorization: Bearer [redacted]');
    });

    it('logs each request: method, path, status, duration, retries', async () => {
      // The duration is read by the client's clock; it moves 1,234 ms while the answer is held.
      let now = Date.parse('2026-11-16T09:00:00Z');
      const release = service.holdAnswers();
      const listing = make({ now: () => now }).engagements.list({ page: 1, pageSize: 5 });
      await until(() => service.requests.length === 1, 'the request at the service');
      now += 1234;
      release();
      await listing;
      assert.equal(logs.length, 1);
      const [entry] = logs;
      assert.equal(entry.method, 'GET');
      assert.equal(entry.path, '/engagements?page=1&pageSize=5');
      assert.equal(entry.status, 200);
      assert.equal(entry.outcome, 'ok');
      assert.equal(entry.retries, 0);
      assert.equal(entry.scope, 'engagements:read');
      assert.equal(entry.durationMs, 1234);
    });
  });
});
