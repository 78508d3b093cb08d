// The engagement endpoints of the reference service: shapes, paging, create and patch.
import assert from 'node:assert/strict';
import type { RunningService } from '../service/server';
import type { Engagement } from '../service/types';
import { probe } from '../service/probe';
import { useReferenceService } from './support/referenceService';

interface ListPage {
  data: Engagement[];
  page: number;
  pageSize: number;
  totalCount: number;
}
interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

const DAY = 86_400_000;

type Role = keyof RunningService['keys'];

/** GET any path, POST an engagement, PATCH one: straight to `svc` (not through the client), each with the key of the role named. */
function requests(svc: RunningService, roles: Record<'get' | 'post' | 'patch', Role>) {
  return {
    get: <T>(p: string, query?: Record<string, string | number>) =>
      probe<T>(svc.baseUrl, 'GET', p, { key: svc.keys[roles.get], query }),
    post: <T>(body: unknown) => probe<T>(svc.baseUrl, 'POST', '/engagements', { key: svc.keys[roles.post], body }),
    patch: <T>(id: string, body: unknown) =>
      probe<T>(svc.baseUrl, 'PATCH', `/engagements/${encodeURIComponent(id)}`, { key: svc.keys[roles.patch], body }),
  };
}

describe('reference service: engagements', () => {
  const reference = useReferenceService({ clock: new Date('2025-06-15T12:00:00.000Z') });
  const svc = reference.service;
  const { get, post, patch } = requests(svc, { get: 'readOnly', post: 'admin', patch: 'writer' });

  describe('GET /engagements', () => {
    it('returns the envelope with defaults page 1, pageSize 25 and the real totalCount', async () => {
      const r = await get<ListPage>('/engagements');
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(Object.keys(r.json).sort(), ['data', 'page', 'pageSize', 'totalCount']);
      assert.equal(r.json.page, 1);
      assert.equal(r.json.pageSize, 25);
      assert.equal(r.json.totalCount, 60);
      assert.equal(r.json.data.length, 25);
    });

    it('serves well-formed, varied seeded engagements', async () => {
      const r = await get<ListPage>('/engagements', { pageSize: 100 });
      const all = r.json.data;
      assert.equal(all.length, 60);
      assert.equal(new Set(all.map((e) => e.id)).size, 60);
      for (const e of all) {
        assert.match(e.id, /^eng_[0-9a-z]{8}$/);
        assert.ok(e.name.length > 0);
        assert.ok(['quality-review', 'sales-coaching', 'support-audit', 'onboarding'].includes(e.type), e.type);
        assert.ok(Number.isInteger(e.evaluationCount) && e.evaluationCount >= 0 && e.evaluationCount <= 400);
        assert.match(e.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        const created = Date.parse(e.createdAt);
        const updated = Date.parse(e.updatedAt);
        assert.ok(updated >= created, `${e.id} updatedAt before createdAt`);
        assert.ok(created > reference.clock.getTime() - 201 * DAY && updated <= reference.clock.getTime());
        if (e.description !== undefined) assert.equal(typeof e.description, 'string');
      }
      const statuses = new Set(all.map((e) => e.status));
      for (const s of ['active', 'completed', 'paused', 'archived']) assert.ok(statuses.has(s), `has ${s}`);
      assert.ok(
        all.some((e) => !('description' in e)),
        'some without description',
      );
      assert.ok(
        all.some((e) => e.description === ''),
        'some with an empty description',
      );
      const created = all.map((e) => e.createdAt);
      assert.deepEqual(created, [...created].sort().reverse(), 'newest first');
    });

    it('pages through to a short last page and an empty page past the end', async () => {
      const third = await get<ListPage>('/engagements', { page: 3 });
      assert.equal(third.json.data.length, 10);
      assert.equal(third.json.page, 3);
      const past = await get<ListPage>('/engagements', { page: 9, pageSize: 10 });
      assert.equal(past.status, 200);
      assert.deepEqual(past.json, { data: [], page: 9, pageSize: 10, totalCount: 60 });
      const pages = await Promise.all([1, 2, 3].map((page) => get<ListPage>('/engagements', { page })));
      const ids = pages.flatMap((p) => p.json.data.map((e) => e.id));
      assert.deepEqual(
        ids,
        svc.store.engagements.map((e) => e.id),
      );
    });

    it('rejects bad page and pageSize with 400 naming the field', async () => {
      const bad: [string, string][] = [
        ['pageSize', '0'],
        ['pageSize', '101'],
        ['pageSize', 'abc'],
        ['pageSize', '2.5'],
        ['pageSize', ''],
        ['page', '0'],
        ['page', '-1'],
        ['page', 'x'],
        ['page', '1e3'],
      ];
      for (const [name, value] of bad) {
        const r = await get<ErrorBody>('/engagements', { [name]: value });
        assert.equal(r.status, 400, `${name}=${value}`);
        assert.equal(r.json.error.code, 'invalid_parameter');
        assert.ok(r.json.error.fields?.[name], `field error on ${name}`);
      }
      assert.equal((await get('/engagements', { pageSize: 100 })).status, 200);
      assert.equal((await get('/engagements', { pageSize: 1 })).status, 200);
    });

    it('pages 10,000 items and keeps hostile strings intact', async () => {
      const hostile = '<img src=x onerror=alert(1)> "quotes" \\ \u202e ünïcødé 🚀 \n newline';
      const many: Engagement[] = Array.from({ length: 10_000 }, (_, i) => ({
        id: `e${i}`,
        name: i === 0 ? hostile : `n${i}`,
        type: 'x',
        status: 'active',
        evaluationCount: i,
        createdAt: reference.clock.toISOString(),
        updatedAt: reference.clock.toISOString(),
      }));
      svc.store.setEngagements(many);
      const last = await get<ListPage>('/engagements', { page: 100, pageSize: 100 });
      assert.equal(last.json.totalCount, 10_000);
      assert.equal(last.json.data.at(-1)?.id, 'e9999');
      const first = await get<ListPage>('/engagements', { pageSize: 1 });
      assert.equal(first.json.data[0]?.name, hostile);
    });
  });

  describe('GET /engagements/{id}', () => {
    it('returns one engagement', async () => {
      const target = svc.store.engagements[5];
      const r = await get<Engagement>(`/engagements/${target.id}`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.json, target);
    });

    it('URL-decodes the id (slashes, spaces, unicode)', async () => {
      const base = svc.store.engagements[0];
      svc.store.setEngagements([{ ...base, id: 'a/b c?d#é' }]);
      const r = await get<Engagement>(`/engagements/${encodeURIComponent('a/b c?d#é')}`);
      assert.equal(r.status, 200);
      assert.equal(r.json.id, 'a/b c?d#é');
    });

    it('answers 404 JSON for an unknown or malformed id', async () => {
      for (const id of ['eng_missing', '%E0%A4%A']) {
        const r = await get<ErrorBody>(`/engagements/${id}`);
        assert.equal(r.status, 404);
        assert.equal(r.json.error.code, 'not_found');
        assert.equal(typeof r.json.error.message, 'string');
      }
    });
  });

  describe('POST /engagements', () => {
    it('creates an active engagement with a fresh id and answers 201', async () => {
      const r = await post<Engagement>({ name: 'Q3 Support Quality Review', type: 'quality-review', description: 'd' });
      assert.equal(r.status, 201);
      assert.match(r.json.id, /^eng_[0-9a-z]{8}$/);
      assert.deepEqual(
        { ...r.json, id: 'x' },
        {
          id: 'x',
          name: 'Q3 Support Quality Review',
          type: 'quality-review',
          description: 'd',
          status: 'active',
          evaluationCount: 0,
          createdAt: reference.clock.toISOString(),
          updatedAt: reference.clock.toISOString(),
        },
      );
      assert.ok(!svc.store.engagements.slice(1).some((e) => e.id === r.json.id), 'id is new');
      const list = await get<ListPage>('/engagements');
      assert.equal(list.json.totalCount, 61);
      assert.equal(list.json.data[0]?.id, r.json.id, 'newest first');
      assert.deepEqual((await get<Engagement>(`/engagements/${r.json.id}`)).json, r.json);
    });

    it('treats description as optional and keeps the name exactly as sent', async () => {
      const r = await post<Engagement>({ name: '  spaced  ', type: 'onboarding' });
      assert.equal(r.status, 201);
      assert.equal(r.json.name, '  spaced  ');
      assert.ok(!('description' in r.json));
    });

    it('answers 422 validation_failed with field errors', async () => {
      const cases: [unknown, string[]][] = [
        [{ type: 'x' }, ['name']],
        [{ name: '   ', type: 'x' }, ['name']],
        [{ name: 5, type: 'x' }, ['name']],
        [{ name: 'n' }, ['type']],
        [{ name: 'n', type: '' }, ['type']],
        [{ name: 'n', type: 7 }, ['type']],
        [{ name: 'n', type: 'x', description: null }, ['description']],
        [{ name: 'n', type: 'x', status: 'completed' }, ['status']],
        [{}, ['name', 'type']],
      ];
      for (const [body, fields] of cases) {
        const r = await post<ErrorBody>(body);
        assert.equal(r.status, 422, JSON.stringify(body));
        assert.equal(r.json.error.code, 'validation_failed');
        assert.ok(r.json.error.message.length > 0);
        assert.deepEqual(Object.keys(r.json.error.fields ?? {}).sort(), fields, JSON.stringify(body));
      }
      assert.equal(svc.store.engagements.length, 60, 'nothing created');
    });

    it('answers 400 for invalid JSON, a non-JSON content type or a non-object body', async () => {
      const raw = (rawBody: string, contentType = 'application/json') =>
        probe<ErrorBody>(svc.baseUrl, 'POST', '/engagements', { key: svc.keys.admin, rawBody, contentType });
      assert.equal((await raw('{"name":')).status, 400);
      assert.equal((await raw('')).status, 400);
      assert.equal((await raw('{"name":"n","type":"t"}', 'text/plain')).status, 400);
      assert.equal((await raw('[1,2]')).status, 400);
      assert.equal((await raw('null')).status, 400);
      assert.equal((await raw('{"name":"n","type":"t"}', 'application/json; charset=utf-8')).status, 201);
    });
  });

  describe('PATCH /engagements/{id}', () => {
    it('changes only the fields given and moves updatedAt', async () => {
      const target = structuredClone(svc.store.engagements[3]);
      reference.clock = new Date(reference.clock.getTime() + 5000);
      const r = await patch<Engagement>(target.id, { name: 'Renamed' });
      assert.equal(r.status, 200);
      assert.deepEqual(r.json, { ...target, name: 'Renamed', updatedAt: reference.clock.toISOString() });
      const s = await patch<Engagement>(target.id, { status: 'completed', description: '' });
      assert.equal(s.json.status, 'completed');
      assert.equal(s.json.description, '');
      assert.equal(s.json.name, 'Renamed');
    });

    it('moves updatedAt strictly later even within the same millisecond', async () => {
      const id = svc.store.engagements[0].id;
      svc.store.engagements[0].updatedAt = reference.clock.toISOString();
      const a = await patch<Engagement>(id, { name: 'a' });
      const b = await patch<Engagement>(id, { name: 'b' });
      assert.ok(Date.parse(a.json.updatedAt) > reference.clock.getTime());
      assert.ok(Date.parse(b.json.updatedAt) > Date.parse(a.json.updatedAt));
    });

    it('rejects type, read-only and unknown fields, empty names, bad statuses and non-strings with 422', async () => {
      const target = structuredClone(svc.store.engagements[0]);
      const cases: [unknown, string][] = [
        [{ type: 'support-audit' }, 'type'],
        [{ name: 'ok', type: target.type }, 'type'],
        [{ name: '' }, 'name'],
        [{ name: ' \t' }, 'name'],
        [{ name: 1 }, 'name'],
        [{ description: 42 }, 'description'],
        [{ status: true }, 'status'],
        [{ status: 'bogus' }, 'status'],
        [{ evaluationCount: 3 }, 'evaluationCount'],
        [{ id: 'other' }, 'id'],
        [{ color: 'red' }, 'color'],
      ];
      for (const [body, field] of cases) {
        const r = await patch<ErrorBody>(target.id, body);
        assert.equal(r.status, 422, JSON.stringify(body));
        assert.equal(r.json.error.code, 'validation_failed');
        assert.ok(r.json.error.fields?.[field], `${JSON.stringify(body)} → field ${field}`);
      }
      assert.deepEqual(svc.store.getEngagement(target.id), target, 'unchanged');
    });

    it('answers 404 for an unknown id and 400 for a broken body', async () => {
      assert.equal((await patch<ErrorBody>('eng_nope', { name: 'x' })).status, 404);
      const broken = await probe(svc.baseUrl, 'PATCH', `/engagements/${svc.store.engagements[0].id}`, {
        key: svc.keys.admin,
        rawBody: 'name=x',
      });
      assert.equal(broken.status, 400);
    });
  });
});

describe('reference service: readings of the page and write forms', () => {
  const reference = useReferenceService({ clock: new Date('2025-06-15T12:00:00.000Z') });
  const svc = reference.service;
  const { get, post, patch } = requests(svc, { get: 'admin', post: 'admin', patch: 'admin' });
  const later = (ms: number) => {
    reference.clock = new Date(reference.clock.getTime() + ms);
  };
  afterEach(() => svc.setReading({}));

  it('pages in each form, for the engagements and the usage records alike', async () => {
    const period = svc.store.currentPeriod();
    const records = svc.store.details(period).length;
    for (const [pageForm, keys] of [
      ['envelope', ['data', 'page', 'pageSize', 'totalCount']],
      ['items', ['items', 'total']],
      ['results', ['count', 'next', 'previous', 'results']],
      ['meta', ['data', 'links', 'meta']],
    ] as const) {
      svc.setReading({ pageForm });
      const list = await get<Record<string, unknown>>('/engagements', { page: 2, pageSize: 10 });
      assert.deepEqual(Object.keys(list.json).sort(), [...keys].sort(), pageForm);
      const details = await get<Record<string, unknown>>('/usage/details', { page: 1, pageSize: 10 });
      const expected = pageForm === 'envelope' ? [...keys, 'billingPeriod'] : keys;
      assert.deepEqual(Object.keys(details.json).sort(), [...expected].sort(), `${pageForm} (records)`);
      if (pageForm === 'results') {
        assert.equal(list.json.count, 60);
        assert.equal(list.json.next, '/v1/engagements?page=3&pageSize=10');
        assert.equal(list.json.previous, '/v1/engagements?page=1&pageSize=10');
        assert.equal((list.json.results as unknown[]).length, 10);
        assert.equal(details.json.count, records);
      }
      if (pageForm === 'meta') {
        const meta = list.json.meta as Record<string, unknown>;
        assert.deepEqual(
          [meta.current_page, meta.per_page, meta.total, meta.from, meta.to, meta.last_page],
          [2, 10, 60, 11, 20, 6],
        );
      }
      if (pageForm === 'items') assert.equal(list.json.total, 60);
    }
  });

  it('id-only and partial answers: the id alone, or some fields, and no Location', async () => {
    svc.setReading({ writes: 'idOnly' });
    const made = await post<{ id: string }>({ name: 'Only id', type: 'onboarding' });
    assert.equal(made.status, 201);
    assert.deepEqual(made.json, { id: svc.store.engagements[0].id });
    assert.equal(made.headers.get('location'), null);
    const renamed = await patch<unknown>(made.json.id, { name: 'Only id, renamed' });
    assert.deepEqual(renamed.json, { id: made.json.id });
    svc.setReading({ writes: 'partial', wrapSingle: true });
    const partial = await post<{ data: unknown }>({ name: 'Partial', type: 'onboarding' });
    assert.deepEqual(partial.json, { data: { id: svc.store.engagements[0].id, name: 'Partial', status: 'active' } });
  });

  it('accepted with a delay: a create appears, an update applies, only once the service clock has passed it', async () => {
    svc.setReading({ writes: 'acceptedBody', acceptedDelayMs: 1_200 });
    const accepted = await post<{ status: string; id: string }>({ name: 'Queued', type: 'onboarding' });
    assert.equal(accepted.status, 202);
    assert.equal(accepted.json.status, 'pending');
    const id = accepted.json.id;
    assert.equal((await get(`/engagements/${id}`)).status, 404, 'not there yet');
    assert.equal((await get<ListPage>('/engagements')).json.totalCount, 60);
    later(1_199);
    assert.equal((await get(`/engagements/${id}`)).status, 404, 'still not');
    later(1);
    const shown = await get<Engagement>(`/engagements/${id}`);
    assert.equal(shown.status, 200);
    assert.equal(shown.json.name, 'Queued');
    assert.equal(shown.json.createdAt, reference.clock.toISOString(), 'made when it was processed');
    assert.equal((await get<ListPage>('/engagements')).json.data[0].id, id, 'listed first');

    const changed = await patch<{ status: string; id: string }>(id, { status: 'paused' });
    assert.equal(changed.status, 202);
    assert.deepEqual(changed.json, { status: 'pending', id });
    assert.equal((await get<Engagement>(`/engagements/${id}`)).json.status, 'active', 'not applied yet');
    later(1_200);
    assert.equal((await get<Engagement>(`/engagements/${id}`)).json.status, 'paused');
  });

  it('accepted without a body or a Location names nothing; reset forgets what was still to be done', async () => {
    svc.setReading({ writes: 'acceptedSilent', acceptedDelayMs: 1_200 });
    const accepted = await post({ name: 'Unnamed', type: 'onboarding' });
    assert.equal(accepted.status, 202);
    assert.equal(accepted.text, '');
    assert.equal(accepted.headers.get('location'), null);
    assert.equal(svc.store.deferredCount, 1);
    svc.store.seedEngagements(5);
    later(5_000);
    assert.equal(svc.store.engagements.length, 5, 'new data: the accepted create of the old is gone');
  });
});
