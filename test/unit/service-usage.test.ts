// The usage endpoints of the reference service: summary, details, per-key breakdown with
// live counting, and billingPeriod validation.
import assert from 'node:assert/strict';
import type { KeyUsage, UsageSummary } from '../service/types';
import { probe } from '../service/probe';
import { useReferenceService } from './support/referenceService';

interface DetailsPage {
  billingPeriod: string;
  data: Record<string, unknown>[];
  page: number;
  pageSize: number;
  totalCount: number;
}
interface ByKey {
  billingPeriod: string;
  keys: KeyUsage[];
}
interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

const SEEDED = ['2025-06', '2025-05', '2025-04', '2025-03', '2025-02', '2025-01'];

describe('reference service: usage', () => {
  const reference = useReferenceService({ clock: new Date('2025-06-15T12:00:00.000Z') });
  const svc = reference.service;
  const get = <T>(p: string, query?: Record<string, string | number>, key = svc.keys.usageOnly) =>
    probe<T>(svc.baseUrl, 'GET', p, { key, query });

  describe('GET /usage/summary', () => {
    it('defaults to the current period and has the three meters', async () => {
      const r = await get<UsageSummary>('/usage/summary');
      assert.equal(r.status, 200);
      assert.equal(r.json.billingPeriod, '2025-06');
      assert.equal(r.json.tier, 'Growth');
      assert.deepEqual(Object.keys(r.json.usage).sort(), ['calls', 'storage_gb', 'webhooks']);
      const { calls, storage_gb } = r.json.usage;
      const ratio = calls.used / calls.included;
      assert.ok(ratio > 0.75 && ratio < 0.9, `calls at ${ratio}`);
      assert.ok(!Number.isInteger(storage_gb.used), 'storage is fractional');
      assert.ok(storage_gb.used < storage_gb.included);
    });

    it('has overage = max(0, used − included) for all seeded periods, with overage somewhere', async () => {
      let overages = 0;
      for (const period of SEEDED) {
        const r = await get<UsageSummary>('/usage/summary', { billingPeriod: period });
        assert.equal(r.json.billingPeriod, period);
        for (const m of Object.values(r.json.usage)) {
          assert.ok(Math.abs(m.overage - Math.max(0, m.used - m.included)) < 1e-9);
          assert.ok(m.used > 0);
          if (m.overage > 0) overages++;
        }
      }
      assert.ok(overages >= 1);
      const previous = await get<UsageSummary>('/usage/summary', { billingPeriod: '2025-05' });
      assert.ok(previous.json.usage.calls.used > previous.json.usage.calls.included, 'previous month over on calls');
    });

    it('answers zero usage (not 404) for a past period without data', async () => {
      const r = await get<UsageSummary>('/usage/summary', { billingPeriod: '2019-02' });
      assert.equal(r.status, 200);
      assert.equal(r.json.billingPeriod, '2019-02');
      for (const m of Object.values(r.json.usage)) {
        assert.equal(m.used, 0);
        assert.equal(m.overage, 0);
        assert.ok(m.included > 0);
      }
    });

    it('serves a summary set through the store verbatim', async () => {
      const odd = {
        billingPeriod: '2024-12',
        tier: 'Enterprise <b>',
        usage: { calls: { used: 5, included: 0, overage: 5 } },
      };
      svc.store.setSummary('2024-12', odd as unknown as UsageSummary);
      assert.deepEqual((await get('/usage/summary', { billingPeriod: '2024-12' })).json, odd);
    });
  });

  describe('billingPeriod validation', () => {
    const endpoints = ['/usage/summary', '/usage/details', '/usage/by-key'];
    it('rejects malformed periods with 400 and a field error', async () => {
      for (const p of endpoints) {
        for (const value of [
          '2025-13',
          '2025-00',
          '2025-6',
          '25-06',
          '2025/06',
          'June',
          '',
          '2025-06-01',
          ' 2025-06',
        ]) {
          const r = await get<ErrorBody>(p, { billingPeriod: value });
          assert.equal(r.status, 400, `${p} ${JSON.stringify(value)}`);
          assert.equal(r.json.error.code, 'invalid_parameter');
          assert.ok(r.json.error.fields?.billingPeriod);
        }
      }
    });

    it('rejects a period after the current one', async () => {
      for (const p of endpoints) {
        for (const value of ['2025-07', '2026-01']) {
          const r = await get<ErrorBody>(p, { billingPeriod: value });
          assert.equal(r.status, 400);
          assert.match(r.json.error.message, /billingPeriod is in the future/);
        }
      }
    });

    it('follows the service clock across a year boundary', async () => {
      reference.clock = new Date('2026-01-01T00:00:05.000Z');
      const r = await get<UsageSummary>('/usage/summary');
      assert.equal(r.json.billingPeriod, '2026-01');
      assert.equal((await get('/usage/summary', { billingPeriod: '2025-12' })).status, 200);
      assert.equal((await get('/usage/summary', { billingPeriod: '2026-02' })).status, 400);
    });
  });

  describe('GET /usage/details', () => {
    it('returns the paged envelope with ~120 open-shaped records per seeded period', async () => {
      const r = await get<DetailsPage>('/usage/details');
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.json).sort(), ['billingPeriod', 'data', 'page', 'pageSize', 'totalCount']);
      assert.equal(r.json.billingPeriod, '2025-06');
      assert.equal(r.json.page, 1);
      assert.equal(r.json.pageSize, 25);
      assert.equal(r.json.data.length, 25);
      assert.ok(r.json.totalCount >= 100 && r.json.totalCount <= 140, String(r.json.totalCount));
      for (const record of r.json.data) {
        assert.equal(typeof record.id, 'string');
        assert.equal(typeof record.timestamp, 'string');
        assert.ok((record.timestamp as string).startsWith('2025-06'));
        assert.equal(typeof record.statusCode, 'number');
        const meta = record.meta as { region: string; sdk: string };
        assert.equal(typeof meta.region, 'string');
        assert.equal(typeof meta.sdk, 'string');
      }
    });

    it('pages to the end and beyond, and validates page and pageSize', async () => {
      const { totalCount } = (await get<DetailsPage>('/usage/details', { billingPeriod: '2025-03' })).json;
      const lastPage = Math.ceil(totalCount / 100);
      const last = await get<DetailsPage>('/usage/details', {
        billingPeriod: '2025-03',
        page: lastPage,
        pageSize: 100,
      });
      assert.equal(last.json.data.length, totalCount - (lastPage - 1) * 100);
      const past = await get<DetailsPage>('/usage/details', {
        billingPeriod: '2025-03',
        page: lastPage + 1,
        pageSize: 100,
      });
      assert.deepEqual(past.json.data, []);
      assert.equal(past.json.totalCount, totalCount);
      const bad: Record<string, string | number>[] = [{ pageSize: 101 }, { pageSize: 0 }, { page: 0 }, { page: 'two' }];
      for (const query of bad) {
        const r = await get<ErrorBody>('/usage/details', query);
        assert.equal(r.status, 400, JSON.stringify(query));
        assert.ok(r.json.error.fields);
      }
    });

    it('is empty for a period without data and serves records set through the store', async () => {
      const empty = await get<DetailsPage>('/usage/details', { billingPeriod: '2020-01' });
      assert.deepEqual(empty.json, { billingPeriod: '2020-01', data: [], page: 1, pageSize: 25, totalCount: 0 });
      const records = Array.from({ length: 10_000 }, (_, i) => ({ n: i, nested: { deep: [i] } }));
      svc.store.setDetails('2020-01', records);
      const page = await get<DetailsPage>('/usage/details', { billingPeriod: '2020-01', page: 100, pageSize: 100 });
      assert.equal(page.json.totalCount, 10_000);
      assert.deepEqual(page.json.data[99], { n: 9999, nested: { deep: [9999] } });
    });
  });

  describe('GET /usage/by-key', () => {
    it('lists about five keys, including one that only exists in usage data', async () => {
      const r = await get<ByKey>('/usage/by-key', { billingPeriod: '2025-05' });
      assert.equal(r.status, 200);
      assert.equal(r.json.billingPeriod, '2025-05');
      assert.ok(r.json.keys.length >= 5 && r.json.keys.length <= 7, String(r.json.keys.length));
      for (const k of r.json.keys) {
        assert.deepEqual(Object.keys(k).sort(), ['calls', 'keyId', 'lastUsedAt', 'name']);
        assert.ok(Number.isInteger(k.calls) && k.calls >= 0);
        assert.ok(k.lastUsedAt.startsWith('2025-05'), k.lastUsedAt);
      }
      const ids = r.json.keys.map((k) => k.keyId);
      assert.ok(ids.includes('key_ci'));
      assert.ok(!svc.keySpecs.some((s) => s.keyId === 'key_ci'), 'key_ci cannot call the service');
      const total = r.json.keys.reduce((sum, k) => sum + k.calls, 0);
      const summary = await get<UsageSummary>('/usage/summary', { billingPeriod: '2025-05' });
      assert.equal(total, summary.json.usage.calls.used, 'per-key calls add up to the summary');
    });

    it('counts every authenticated call live for the calling key in the current period', async () => {
      const rowOf = async (keyId: string) =>
        (await get<ByKey>('/usage/by-key', {}, svc.keys.admin)).json.keys.find((k) => k.keyId === keyId);
      const before = (await rowOf('key_readonly'))!;
      reference.clock = new Date('2025-06-15T13:00:00.000Z');
      for (let i = 0; i < 3; i++) await get('/engagements', {}, svc.keys.readOnly);
      await probe(svc.baseUrl, 'POST', '/engagements', { key: svc.keys.readOnly, body: { name: 'n', type: 't' } }); // 403, still authenticated
      await probe(svc.baseUrl, 'GET', '/engagements', { key: 'key_readonly.wrong-secret' }); // 401: not counted
      await probe(svc.baseUrl, 'GET', '/engagements'); // 401: not counted
      const after = (await rowOf('key_readonly'))!;
      assert.equal(after.calls, before.calls + 4);
      assert.equal(after.lastUsedAt, reference.clock.toISOString());
    });

    it('counts its own request and adds a row for a key first used this period', async () => {
      svc.store.addKey({ key: 'key_new.s3cret', keyId: 'key_new', name: 'New key', scopes: ['usage:read'] });
      const first = await get<ByKey>('/usage/by-key', {}, 'key_new.s3cret');
      assert.deepEqual(
        first.json.keys.find((k) => k.keyId === 'key_new'),
        { keyId: 'key_new', name: 'New key', calls: 1, lastUsedAt: reference.clock.toISOString() },
      );
      const second = await get<ByKey>('/usage/by-key', {}, 'key_new.s3cret');
      assert.equal(second.json.keys.find((k) => k.keyId === 'key_new')?.calls, 2);
      const past = await get<ByKey>('/usage/by-key', { billingPeriod: '2025-05' }, 'key_new.s3cret');
      assert.equal(
        past.json.keys.find((k) => k.keyId === 'key_new'),
        undefined,
        'past periods untouched',
      );
    });

    it('is empty for a period without data and serves rows set through the store', async () => {
      assert.deepEqual((await get<ByKey>('/usage/by-key', { billingPeriod: '2018-08' })).json, {
        billingPeriod: '2018-08',
        keys: [],
      });
      const rows = [{ keyId: 'k<1>', name: '"quoted" ✓', calls: 0, lastUsedAt: '2018-08-31T23:59:59.000Z' }];
      svc.store.setByKey('2018-08', rows);
      assert.deepEqual((await get<ByKey>('/usage/by-key', { billingPeriod: '2018-08' })).json.keys, rows);
    });
  });
});
