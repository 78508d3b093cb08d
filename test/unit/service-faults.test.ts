// Fault injection and latency of the reference service: every fault kind, rule matching,
// `times`, and which faults still let the request be handled.
import assert from 'node:assert/strict';
import http from 'node:http';
import { createClock } from '@sinonjs/fake-timers';
import type { RunningService } from '../service/server';
import type { Engagement } from '../service/types';
import { startService } from '../service/server';
import { probe } from '../service/probe';
import { useReferenceService } from './support/referenceService';
import { until } from './support/until';

interface RawResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body has ended, or the request failed. */
  settled: boolean;
  error?: string;
}

/**
 * A plain node:http GET that reports partial bodies and errors instead of throwing: `result` as
 * it stands, `head` once the headers came, `done` once the body ended or the request failed.
 */
function rawGet(url: string, key: string, timeoutMs = 5000) {
  const result: RawResult = { status: 0, headers: {}, body: '', settled: false };
  let headersCame = (): void => {};
  const head = new Promise<RawResult>((resolve) => (headersCame = () => resolve(result)));
  const done = new Promise<RawResult>((resolve) => {
    const finish = (error?: string) => {
      if (result.settled) return;
      result.settled = true;
      if (error) result.error = error;
      headersCame();
      resolve(result);
    };
    const req = http.get(url, { headers: { Authorization: `Bearer ${key}` }, agent: false }, (res) => {
      result.status = res.statusCode ?? 0;
      result.headers = res.headers;
      headersCame();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (result.body += chunk));
      res.on('end', () => finish());
      res.on('error', (e) => finish(e.message));
      res.on('aborted', () => finish('aborted'));
    });
    req.on('error', (e) => finish(e.message));
    req.setTimeout(timeoutMs, () => req.destroy(new Error('client timeout')));
  });
  return { result, head, done };
}

describe('reference service: faults and latency', () => {
  /** The service's waits (latency, a slow body) are timed by this clock, which only the tests move. */
  const clock = createClock();
  const reference = useReferenceService({ timers: clock });
  let svc: RunningService;
  before(() => {
    svc = reference.service;
  });
  const list = () => probe<{ data: Engagement[] }>(svc.baseUrl, 'GET', '/engagements', { key: svc.keys.admin });

  /** `ask`'s answer waits until the service's clock has moved `ms`, not a moment less; then it comes. */
  async function answeredAfter<T>(ms: number, ask: () => Promise<T>): Promise<T> {
    const answer = ask();
    await until(() => clock.countTimers() === 1, 'the service waiting on its clock');
    clock.tick(ms - 1);
    assert.equal(clock.countTimers(), 1, `still waiting ${ms - 1} ms on`);
    clock.tick(1);
    return answer;
  }

  it("'status' answers the status with a JSON error and headers, `times` times, then normally", async () => {
    svc.faults.add({ kind: 'status', status: 503, headers: { 'Retry-After': '2' }, times: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await list();
      assert.equal(r.status, 503);
      assert.equal(r.headers.get('retry-after'), '2');
      assert.match(r.headers.get('content-type') ?? '', /application\/json/);
      assert.equal((r.json as unknown as { error: { code: string } }).error.code, 'injected_fault');
    }
    assert.equal((await list()).status, 200);
    assert.deepEqual(
      svc.requests.map((r) => r.status),
      [503, 503, 200],
    );
  });

  it("'status' with a custom body, e.g. 429 with a rate-limit error", async () => {
    const body = { error: { code: 'rate_limited', message: 'Slow down' } };
    svc.faults.add({ kind: 'status', status: 429, body, times: 1 });
    const r = await list();
    assert.equal(r.status, 429);
    assert.deepEqual(r.json, body);
  });

  it("'status' replaces the answer: a faulted POST creates nothing and is not counted", async () => {
    svc.faults.add({ kind: 'status', status: 500, method: 'POST' });
    const before = svc.store.byKey(svc.store.currentPeriod()).find((k) => k.keyId === 'key_admin')!.calls;
    const r = await probe(svc.baseUrl, 'POST', '/engagements', { key: svc.keys.admin, body: { name: 'n', type: 't' } });
    assert.equal(r.status, 500);
    assert.equal(svc.store.engagements.length, 60);
    assert.equal(svc.store.byKey(svc.store.currentPeriod()).find((k) => k.keyId === 'key_admin')!.calls, before);
    assert.equal(svc.requests[0]?.status, 500);
    assert.equal(svc.requests[0]?.keyId, 'key_admin', 'the key is recorded even for a faulted request');
  });

  it("'latency' delays the answer by ms, then answers normally", async () => {
    svc.faults.add({ kind: 'latency', ms: 500, times: 1 });
    assert.equal((await answeredAfter(500, list)).status, 200);
    assert.equal((await list()).status, 200, 'only once: the next answer comes with the clock standing still');
  });

  it('setLatency() adds to every request and the latencyMs option sets it from the start', async () => {
    svc.setLatency(400);
    assert.equal((await answeredAfter(400, list)).status, 200);
    assert.equal((await answeredAfter(400, list)).status, 200, 'every request');
    svc.setLatency(0);
    assert.equal((await list()).status, 200, 'none: the answer comes with the clock standing still');
    const other = await startService({ latencyMs: 150, timers: clock });
    try {
      const o = await answeredAfter(150, () =>
        probe(other.baseUrl, 'GET', '/usage/summary', { key: other.keys.admin }),
      );
      assert.equal(o.status, 200);
    } finally {
      await other.close();
    }
  });

  it("'drop' destroys the socket without answering", async () => {
    svc.faults.add({ kind: 'drop', times: 1 });
    await assert.rejects(list());
    const raw = await rawGet(`${svc.baseUrl}/engagements`, svc.keys.admin).done;
    assert.equal(raw.status, 200, 'only once');
    assert.equal(svc.requests[0]?.status, 0);
  });

  it("'notJson' answers 200 application/json with a body that is not JSON", async () => {
    svc.faults.add({ kind: 'notJson' });
    const r = await list();
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(r.text, 'this is not json');
  });

  it("'truncated' announces the full Content-Length, sends half and cuts the connection", async () => {
    svc.faults.add({ kind: 'truncated' });
    const raw = await rawGet(`${svc.baseUrl}/engagements`, svc.keys.admin).done;
    assert.equal(raw.status, 200);
    const announced = Number(raw.headers['content-length']);
    assert.ok(announced > 100);
    assert.ok(Buffer.byteLength(raw.body) < announced, 'body is short');
    assert.ok(Buffer.byteLength(raw.body) > 0);
    assert.ok(raw.error, 'the client sees an error');
    await assert.rejects(list());
  });

  it("'truncated' still handles the request: the POST is done, only the answer is lost", async () => {
    svc.faults.add({ kind: 'truncated', method: 'POST', times: 1 });
    await assert.rejects(
      probe(svc.baseUrl, 'POST', '/engagements', { key: svc.keys.admin, body: { name: 'Lost answer', type: 't' } }),
    );
    assert.equal(svc.store.engagements[0]?.name, 'Lost answer');
  });

  it("'slowBody' sends the headers at once and dribbles the body over ms", async () => {
    svc.faults.add({ kind: 'slowBody', ms: 600, times: 1 });
    const raw = rawGet(`${svc.baseUrl}/engagements`, svc.keys.admin);
    assert.equal((await raw.head).status, 200, 'the headers come with the clock standing still');
    clock.tick(599);
    await until(() => raw.result.body.length > 0, 'part of the body');
    assert.equal(raw.result.settled, false, 'the rest waits for the last step of the clock');
    clock.tick(1);
    const whole = await raw.done;
    assert.equal(whole.error, undefined);
    assert.equal((JSON.parse(whole.body) as { data: unknown[] }).data.length, 25);
  });

  it("'wrongContentType' answers the normal body as text/plain", async () => {
    svc.faults.add({ kind: 'wrongContentType' });
    const r = await list();
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(r.json.data.length, 25);
  });

  it("'html' answers 502 with an HTML error page", async () => {
    svc.faults.add({ kind: 'html' });
    const r = await list();
    assert.equal(r.status, 502);
    assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(r.text, /<html>[\s\S]*502 Bad Gateway/);
  });

  it("'empty200' answers 200 with an empty body", async () => {
    svc.faults.add({ kind: 'empty200' });
    const r = await list();
    assert.equal(r.status, 200);
    assert.equal(r.text, '');
    assert.equal(r.headers.get('content-length'), '0');
  });

  it("'body' answers 200 with exactly the given JSON", async () => {
    const body = { data: [{ id: 42, name: null }], page: '1', totalCount: -1 };
    svc.faults.add({ kind: 'body', body });
    const r = await list();
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, body);
  });

  it("'redirect' answers 302 with Location", async () => {
    svc.faults.add({ kind: 'redirect', location: 'http://127.0.0.1:9/elsewhere' });
    const r = await list();
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), 'http://127.0.0.1:9/elsewhere');
  });

  it("'transform' rewrites the handled 2xx answer's body (given the query); errors pass unchanged", async () => {
    svc.faults.add({
      kind: 'transform',
      path: '/engagements',
      transform: (body, query) => ({ ...(body as object), totalCount: 999, page: Number(query.page ?? '1') * 10 }),
    });
    const r = await probe<{ data: Engagement[]; totalCount: number; page: number }>(
      svc.baseUrl,
      'GET',
      '/engagements',
      { key: svc.keys.admin, query: { page: 2 } },
    );
    assert.equal(r.status, 200);
    assert.equal(r.json.totalCount, 999);
    assert.equal(r.json.page, 20);
    assert.equal(r.json.data.length, 25, 'the rest of the answer is the handled one');
    const denied = await probe(svc.baseUrl, 'GET', '/engagements', { key: 'key_unknown.x' });
    assert.equal(denied.status, 401, 'an error answer is not transformed');
  });

  it('matches by method, path prefix (after /v1) and RegExp; first matching rule wins', async () => {
    svc.faults.add({ kind: 'status', status: 418, method: 'get', path: '/usage' });
    svc.faults.add({ kind: 'status', status: 503, path: /^\/engagements\/[^/]+$/ });
    svc.faults.add({ kind: 'status', status: 500, path: '/usage/summary' });
    svc.faults.add({ kind: 'status', status: 504, path: /\/v1\/engagements$/ });
    const id = svc.store.engagements[0].id;
    const status = async (method: string, p: string, body?: unknown) =>
      (await probe(svc.baseUrl, method, p, { key: svc.keys.admin, body })).status;
    assert.equal(await status('GET', '/usage/summary'), 418, 'first rule wins');
    assert.equal(await status('GET', '/usage/by-key'), 418);
    assert.equal(await status('GET', `/engagements/${id}`), 503);
    assert.equal(await status('PATCH', `/engagements/${id}`, { name: 'x' }), 503);
    assert.equal(await status('GET', '/engagements'), 504, 'RegExp may also match the full path');
    svc.faults.clear();
    assert.equal(await status('GET', '/usage/summary'), 200);
  });

  it('rejects an unknown fault kind', () => {
    assert.throws(() => svc.faults.add({ kind: 'explode' as 'drop' }), /Unknown fault kind/);
  });
});
