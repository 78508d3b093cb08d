// The reference service as a whole: start/close, routing, request recording, reset,
// determinism and the CLI. Endpoint details live in the other service-*.test.ts files.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createClock } from '@sinonjs/fake-timers';
import type { RunningService } from '../service/server';
import type { Engagement } from '../service/types';
import { READINGS, READING_NAMES, startService } from '../service/server';
import { probe } from '../service/probe';
import { useReferenceService } from './support/referenceService';
import { until } from './support/until';

const FIXED_NOW = new Date('2025-06-15T12:00:00.000Z');

describe('reference service: lifecycle and plumbing', () => {
  /** The service's latency is timed by this clock, which only the tests move. */
  const clock = createClock();
  const reference = useReferenceService({ timers: clock });
  let svc: RunningService;
  before(() => {
    svc = reference.service;
  });

  it('listens on loopback with an ephemeral port and exposes the base URL', () => {
    assert.match(svc.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(svc.url, 'http://127.0.0.1:0');
    assert.equal(svc.baseUrl, `${svc.url}/v1`);
  });

  it('has five demo keys of the form <keyId>.<secret>, matching keySpecs', () => {
    const roles = ['admin', 'readOnly', 'usageOnly', 'noUsage', 'writer'] as const;
    const ids = new Set<string>();
    for (const role of roles) {
      const key = svc.keys[role];
      const spec = svc.keySpecs.find((s) => s.key === key);
      assert.ok(spec, `spec for ${role}`);
      assert.ok(key.startsWith(`${spec.keyId}.`), key);
      ids.add(spec.keyId);
    }
    assert.equal(ids.size, 5);
    const scopes = (role: (typeof roles)[number]) =>
      svc.keySpecs
        .find((s) => s.key === svc.keys[role])
        ?.scopes.slice()
        .sort();
    assert.deepEqual(scopes('admin'), ['engagements:read', 'engagements:write', 'usage:read']);
    assert.deepEqual(scopes('writer'), ['engagements:read', 'engagements:write', 'usage:read']);
    assert.deepEqual(scopes('readOnly'), ['engagements:read', 'usage:read']);
    assert.deepEqual(scopes('usageOnly'), ['usage:read']);
    assert.deepEqual(scopes('noUsage'), ['engagements:read', 'engagements:write']);
  });

  it('answers 404 JSON for unknown paths, also outside /v1 and with a trailing slash', async () => {
    for (const p of ['/nope', '/usage', '/engagements/a/b', '/engagements/']) {
      const r = await probe<{ error: { code: string } }>(svc.baseUrl, 'GET', p, { key: svc.keys.admin });
      assert.equal(r.status, 404, p);
      assert.equal(r.json.error.code, 'not_found');
    }
    const outside = await probe(svc.url, 'GET', '/engagements', { key: svc.keys.admin });
    assert.equal(outside.status, 404);
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const cases: [string, string, string][] = [
      ['DELETE', '/engagements/eng_x', 'GET, PATCH'],
      ['PUT', '/engagements', 'GET, POST'],
      ['POST', '/usage/summary', 'GET'],
      ['PATCH', '/usage/by-key', 'GET'],
    ];
    for (const [method, p, allow] of cases) {
      const r = await probe<{ error: { code: string } }>(svc.baseUrl, method, p, { key: svc.keys.admin });
      assert.equal(r.status, 405, `${method} ${p}`);
      assert.equal(r.headers.get('allow'), allow);
      assert.equal(r.json.error.code, 'method_not_allowed');
    }
  });

  it('records every request in order, with raw path, query, header, parsed body, status and keyId', async () => {
    const sentFrom = Date.now();
    await probe(svc.baseUrl, 'GET', '/engagements', { query: { page: 2, pageSize: 5 }, key: svc.keys.readOnly });
    await probe(svc.baseUrl, 'POST', '/engagements', { key: svc.keys.admin, body: { name: 'N', type: 't' } });
    await probe(svc.baseUrl, 'GET', '/engagements/a%2Fb');
    await probe(svc.baseUrl, 'PATCH', '/engagements/x', { key: svc.keys.admin, rawBody: '{oops' });
    assert.equal(svc.requests.length, 4);
    const [list, post, unauth, bad] = svc.requests;
    assert.deepEqual(
      {
        method: list?.method,
        path: list?.path,
        query: list?.query,
        status: list?.status,
        keyId: list?.keyId,
        body: list?.body,
      },
      {
        method: 'GET',
        path: '/v1/engagements',
        query: { page: '2', pageSize: '5' },
        status: 200,
        keyId: 'key_readonly',
        body: undefined,
      },
    );
    assert.equal(list?.authorization, `Bearer ${svc.keys.readOnly}`);
    assert.deepEqual(post?.body, { name: 'N', type: 't' });
    assert.equal(post?.status, 201);
    assert.equal(post?.keyId, 'key_admin');
    assert.equal(unauth?.path, '/v1/engagements/a%2Fb');
    assert.equal(unauth?.status, 401);
    assert.equal(unauth?.authorization, undefined);
    assert.equal(unauth?.keyId, undefined);
    assert.equal(bad?.body, '{oops');
    assert.equal(bad?.status, 400);
    const answeredBy = Date.now();
    for (const r of svc.requests) assert.ok(r.at >= sentFrom && r.at <= answeredBy, 'when it arrived');
    svc.clearRequests();
    assert.equal(svc.requests.length, 0);
  });

  it('reset() restores the seeded data and removes faults, latency and recorded requests', async () => {
    const before = structuredClone(svc.store.engagements);
    await probe(svc.baseUrl, 'POST', '/engagements', {
      key: svc.keys.admin,
      body: { name: 'Extra', type: 'onboarding' },
    });
    svc.store.addKey({ key: 'k_extra.s', keyId: 'k_extra', name: 'Extra', scopes: ['usage:read'] });
    svc.faults.add({ kind: 'status', status: 503 });
    svc.setLatency(2000);
    svc.reset();
    assert.equal(svc.requests.length, 0);
    assert.deepEqual(
      svc.store.engagements.map((e) => [e.id, e.name, e.status]),
      before.map((e) => [e.id, e.name, e.status]),
    );
    assert.equal(svc.store.findKey('k_extra.s'), undefined);
    const r = await probe(svc.baseUrl, 'GET', '/engagements', { key: svc.keys.admin });
    assert.equal(r.status, 200, 'no latency after reset: answered with the clock standing still');
    assert.equal(clock.countTimers(), 0);
  });

  it('rejects oversized bodies with 413', async () => {
    const r = await probe(svc.baseUrl, 'POST', '/engagements', {
      key: svc.keys.admin,
      rawBody: 'x'.repeat(11 * 1024 * 1024),
      contentType: 'application/json',
      timeoutMs: 10_000,
    });
    assert.equal(r.status, 413);
  });
});

describe('reference service: determinism', () => {
  const open: RunningService[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  async function engagementsOf(seed: number | undefined, count?: number): Promise<Engagement[]> {
    const svc = await startService({ seed, now: () => FIXED_NOW, engagementCount: count });
    open.push(svc);
    return svc.store.engagements;
  }

  it('gives the same data for the same seed and different data for another seed', async () => {
    const a = await engagementsOf(7);
    const b = await engagementsOf(7);
    const c = await engagementsOf(8);
    assert.deepEqual(a, b);
    assert.notDeepEqual(
      a.map((e) => e.id),
      c.map((e) => e.id),
    );
  });

  it('tells one story: descriptions fit their engagement’s type, and a key never succeeds at what it has no scope for', async () => {
    const svc = await startService({ seed: 42, now: () => FIXED_NOW, engagementCount: 300 });
    open.push(svc);
    // What each type's names promise (test/service/seed.ts): the descriptions beside them say the same.
    const fits: Record<string, RegExp> = {
      'quality-review': /rubric|Baseline/,
      'sales-coaching': /account executives|sales playbook/,
      'support-audit': /escalations|refund/,
      onboarding: /new hires?/,
    };
    for (const e of svc.store.engagements.filter((e) => e.description))
      assert.match(e.description ?? '', fits[e.type] ?? /./, `${e.name} (${e.type}): ${e.description}`);
    const scopes = new Map(svc.keySpecs.map((k) => [k.keyId, k.scopes]));
    const need = (method: string, endpoint: string) =>
      endpoint.startsWith('/v1/usage') ? 'usage:read' : method === 'GET' ? 'engagements:read' : 'engagements:write';
    let refused = 0;
    for (const period of [svc.store.currentPeriod()]) {
      for (const r of svc.store.details(period)) {
        const held = scopes.get(String(r.keyId));
        if (!held || held.includes(need(String(r.method), String(r.endpoint)))) continue;
        assert.equal(r.statusCode, 403, `${String(r.keyId)} ${String(r.method)} ${String(r.endpoint)}`);
        refused++;
      }
    }
    assert.ok(refused > 0, 'the demo shows a refused call (a read-only key trying to write)');
  });

  it('seeds 60 engagements by default (seed 42) and honours engagementCount', async () => {
    assert.equal((await engagementsOf(undefined)).length, 60);
    assert.equal((await engagementsOf(undefined, 3)).length, 3);
    assert.equal((await engagementsOf(undefined, 0)).length, 0);
  });
});

describe('reference service: close()', () => {
  it('closes at once with a keep-alive socket and a request still waiting on latency: the wait is dropped', async () => {
    const clock = createClock();
    const svc = await startService({ latencyMs: 10_000, timers: clock });
    const agent = new http.Agent({ keepAlive: true });
    const pending = new Promise<string>((resolve) => {
      const req = http.get(`${svc.baseUrl}/engagements`, {
        agent,
        headers: { Authorization: `Bearer ${svc.keys.admin}` },
      });
      req.on('error', (e) => resolve(e.message));
      req.on('response', () => resolve('answered'));
      req.setTimeout(5000, () => req.destroy(new Error('client timeout')));
    });
    await until(() => clock.countTimers() === 1, 'the request waiting on the latency');
    // The clock never moves: a close that waited for the latency would never end.
    await svc.close();
    assert.equal(clock.countTimers(), 0, 'the latency wait is dropped');
    assert.notEqual(await pending, 'answered');
    await svc.close(); // idempotent
    agent.destroy();
  });

  it('honours a fixed port', async () => {
    const first = await startService();
    const port = Number(new URL(first.url).port);
    await first.close();
    const second = await startService({ port });
    try {
      assert.equal(second.url, `http://127.0.0.1:${port}`);
    } finally {
      await second.close();
    }
  });
});

describe('reference service: CORS, for VS Code for the Web', () => {
  const ORIGIN = 'https://vscode.example.dev';

  it("answers a browser's preflight and allows the origin on every answer; the noCors reading does neither", async () => {
    const service = await startService({ engagementCount: 3 });
    try {
      const preflight = await fetch(`${service.baseUrl}/engagements/e1`, {
        method: 'OPTIONS',
        headers: {
          Origin: ORIGIN,
          'Access-Control-Request-Method': 'PATCH',
          'Access-Control-Request-Headers': 'authorization,content-type',
        },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), ORIGIN);
      assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /PATCH/);
      assert.match(
        preflight.headers.get('access-control-allow-headers') ?? '',
        /^Authorization, Content-Type, If-Match, If-Unmodified-Since$/,
      );
      const read = await fetch(`${service.baseUrl}/engagements`, {
        headers: { Origin: ORIGIN, Authorization: `Bearer ${service.keys.admin}` },
      });
      assert.equal(read.status, 200);
      assert.equal(read.headers.get('access-control-allow-origin'), ORIGIN);

      service.setReading(READINGS.noCors);
      const refused = await fetch(`${service.baseUrl}/engagements`, {
        method: 'OPTIONS',
        headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'GET' },
      });
      assert.equal(refused.headers.get('access-control-allow-origin'), null);
      const unread = await fetch(`${service.baseUrl}/engagements`, {
        headers: { Origin: ORIGIN, Authorization: `Bearer ${service.keys.admin}` },
      });
      assert.equal(unread.status, 200, 'it answers; a browser would not let the page read it');
      assert.equal(unread.headers.get('access-control-allow-origin'), null);
    } finally {
      await service.close();
    }
  });
});

describe('reference service: CLI', () => {
  it('accepts every named reading (npm run service -- --reading NAME)', async function () {
    this.timeout(60_000);
    const cli = path.join(__dirname, '..', 'service', 'cli.js');
    for (const name of READING_NAMES) {
      // --help after the reading: the name is read (an unknown one exits 2), then the usage printed.
      const child = spawn(process.execPath, [cli, '--reading', name, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (c: string) => (out += c));
      const code = await Promise.race([
        new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c))),
        new Promise<string>((resolve) => setTimeout(() => resolve('timeout'), 5000)),
      ]);
      if (code === 'timeout') child.kill('SIGKILL');
      assert.equal(code, 0, name);
      assert.ok(out.includes(name), `the usage lists ${name}`);
    }
  });

  it('starts with the readings asked, prints the keys and a READY line, serves, and exits cleanly on SIGTERM', async function () {
    this.timeout(15_000);
    const cli = path.join(__dirname, '..', 'service', 'cli.js');
    const readings = [
      '--ignore-page-size',
      '--ignore-page',
      '--no-paging',
      '--wrap',
      '--writes',
      'location',
      '--errors=jsonapi',
    ];
    const child = spawn(process.execPath, [cli, '--port', '0', '--seed', '3', '--engagements', '7', ...readings], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      const ready = await new Promise<{ baseUrl: string; keys: Record<string, string> }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no READY line within 10 s; got: ${output}`)), 10_000);
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (chunk: string) => {
          output += chunk;
          const line = output.split('\n').find((l) => l.startsWith('READY '));
          if (line && output.includes(`${line}\n`)) {
            clearTimeout(timer);
            resolve(JSON.parse(line.slice('READY '.length)) as { baseUrl: string; keys: Record<string, string> });
          }
        });
        child.on('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`CLI exited early with ${code}: ${output}`));
        });
      });
      assert.match(ready.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      assert.match(output, new RegExp(`Reference service listening at ${ready.baseUrl.replace(/[.]/g, '\\.')}`));
      const reading = {
        ignorePageSize: true,
        ignorePage: true,
        noPaging: true,
        wrapSingle: true,
        writes: 'location',
        errorBodies: 'jsonapi',
      };
      assert.ok(output.includes(`Reading: ${JSON.stringify(reading)}\n`), output);
      for (const role of ['admin', 'readOnly', 'usageOnly', 'noUsage', 'writer']) {
        assert.ok(ready.keys[role], role);
        assert.ok(output.includes(`${role}: ${ready.keys[role]}\n`), `line for ${role}`);
      }
      const r = await probe<{ totalCount: number }>(ready.baseUrl, 'GET', '/engagements', { key: ready.keys.admin });
      assert.equal(r.status, 200);
      assert.equal(r.json.totalCount, 7);
      const refused = await probe(ready.baseUrl, 'GET', '/engagements', { key: 'not-a-key' });
      assert.equal(refused.status, 401);
      assert.match(refused.headers.get('content-type') ?? '', /^application\/vnd\.api\+json/, 'errors as JSON:API');
      const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      const code = await Promise.race([
        exit,
        new Promise<string>((resolve) => setTimeout(() => resolve('timeout'), 5000)),
      ]);
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it('rejects an invalid argument with a usage message and exit code 2', async function () {
    this.timeout(20_000);
    const cli = path.join(__dirname, '..', 'service', 'cli.js');
    for (const [args, message] of [
      [['--port', 'abc'], /--port needs a non-negative integer/],
      [['--writes', 'nope'], /--writes takes body, location, accepted, silent/],
      [
        ['--errors=xml'],
        /--errors takes json, text, html, problem, jsonapi, fastapi, google, rails, aspnet, spring, django, graphql/,
      ],
      [['--pages', 'xml'], /--pages takes envelope, items, results, meta/],
      [['--accepted-delay', 'soon'], /--accepted-delay needs a whole number of milliseconds/],
      [['--reading', 'nope'], /Unknown reading "nope"; known: reference, /],
    ] as const) {
      const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (c: string) => (stderr += c));
      const code = await Promise.race([
        new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c))),
        new Promise<string>((resolve) => setTimeout(() => resolve('timeout'), 5000)),
      ]);
      if (code === 'timeout') child.kill('SIGKILL');
      assert.equal(code, 2, args.join(' '));
      assert.match(stderr, message);
      assert.match(stderr, /Usage: npm run service/);
    }
  });
});
