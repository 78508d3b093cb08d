// Issue 48, item 6: the usage tool's "breakdown" as an agent meets it, through the built MCP
// server (dist/mcp-server.mjs, started by the SDK's client over stdio) against the reference
// service with a planted spike: the groups by key with their shares, a sum, the count per UTC
// day, the marked day with its largest group, and a column the records do not have refused in
// words. Expected figures are counted here from the planted records.
import assert from 'node:assert/strict';
import { Tools } from '../../src/tools/definitions';
import { type RunningService, startService } from '../service/server';
import { plantPeriod } from '../service/spikes';
import type { SeededDetail } from '../service/types';
import { call, connect, data as dataOf, type Session } from './support/mcpClient';

const PERIOD = '2026-10'; // closed: every day of it is in the bars

interface Answer {
  recordsRead: number;
  notRead?: number;
  groupedBy?: string;
  summed?: string;
  groups?: Array<Record<string, unknown> & { value: string; records: number; share: number }>;
  days?: Array<{ day: string; records: number }>;
  timeZone: string;
  usualDay: { records: number };
  markedDays: {
    days: Array<{ day: string; records: number; timesTheUsualDay: number; largestGroup: Record<string, unknown> }>;
  };
}

describe('usage tool: breakdown (MCP server, reference service, planted spike)', function () {
  this.timeout(30_000);
  let service: RunningService;
  let session: Session;
  let records: SeededDetail[];

  before(async () => {
    service = await startService({ port: 0 });
    records = plantPeriod(service.store, {
      period: PERIOD,
      perDay: 10,
      spikes: [{ day: 9, records: 70, keyId: 'key_ci', method: 'POST', endpoint: '/v1/engagements' }],
    });
    // The SDK's client checks each answer's structuredContent against the tool's outputSchema.
    session = await connect({ EUS_BASE_URL: service.baseUrl, EUS_API_KEY: service.keys.admin });
  });
  after(async () => {
    await session?.close();
    await service?.close();
  });

  async function breakdown(args: Record<string, unknown>): Promise<{ text: string; data: Answer }> {
    const answer = await call(session, Tools.usage, { view: 'breakdown', billingPeriod: PERIOD, ...args });
    assert.equal(answer.isError, false, answer.text);
    assert.equal(answer.structured?.view, 'breakdown');
    return { text: answer.text, data: dataOf(answer.text) as Answer };
  }

  it('groups by key with shares and names the marked day’s largest group', async () => {
    const { text, data } = await breakdown({});
    assert.match(text, new RegExp(`Where the ${records.length} usage records of ${PERIOD} went \\(days in UTC\\)`));
    assert.equal(data.groupedBy, 'keyId');
    const ci = records.filter((r) => r.keyId === 'key_ci').length;
    const row = data.groups?.find((g) => g.value.startsWith('CI pipeline ('));
    assert.equal(row?.records, ci);
    assert.equal(row?.share, Math.round((ci / records.length) * 1000) / 10);
    assert.ok(!JSON.stringify(data).includes('key_ci'), 'key ids masked');
    assert.equal(data.timeZone, 'UTC');
    assert.equal(data.usualDay.records, 10);
    const day = `${PERIOD}-09`;
    const ofDay = records.filter((r) => r.timestamp.startsWith(day));
    const fromCi = ofDay.filter((r) => r.keyId === 'key_ci' && r.method === 'POST').length;
    assert.deepEqual(
      data.markedDays.days.map((d) => d.day),
      [day],
    );
    assert.equal(data.markedDays.days[0].timesTheUsualDay, Math.round((ofDay.length / 10) * 10) / 10);
    assert.deepEqual(data.markedDays.days[0].largestGroup, {
      key: row?.value,
      method: 'POST',
      endpoint: '/v1/engagements',
      shareOfTheDay: Math.round((fromCi / ofDay.length) * 1000) / 10,
    });
  });

  it('lists the records, then breaks the same period down from that one read', async () => {
    const period = '2026-09';
    const planted = plantPeriod(service.store, { period, perDay: 8, spikes: [] });
    const detailReads = () =>
      service.requests.filter((r) => r.path === '/v1/usage/details' && r.query.billingPeriod === period).length;
    const listed = await call(session, Tools.usage, { view: 'records', billingPeriod: period, limit: 5 });
    assert.equal(listed.isError, false, listed.text);
    assert.equal(listed.structured?.total, planted.length);
    // The contract's largest page is 100 records: the period is read in that many requests.
    assert.equal(detailReads(), Math.ceil(planted.length / 100));
    const { data } = await breakdown({ billingPeriod: period });
    assert.equal(data.recordsRead, planted.length);
    assert.equal(detailReads(), Math.ceil(planted.length / 100), 'no second read of the period');
  });

  it('a period past the cap of 50,000 records (README): read up to it, the rest said in words and data', async () => {
    const period = '2026-08';
    const planted = plantPeriod(service.store, { period, perDay: 1_650, spikes: [] });
    assert.ok(planted.length > 50_000);
    const past = planted.length - 50_000;
    const listed = await call(session, Tools.usage, { view: 'records', billingPeriod: period, limit: 1 });
    assert.equal(listed.structured?.total, planted.length);
    assert.equal(listed.structured?.notRead, past);
    assert.match(listed.text, new RegExp(`Read up to the cap of 50,?000 records: ${past} more are not listed`));
    const { text, data } = await breakdown({ billingPeriod: period });
    assert.equal(data.recordsRead, 50_000);
    assert.equal(data.notRead, past);
    assert.match(text, new RegExp(`${past} more are not counted`));
  });

  it('sums a numeric column per group, counts per UTC day, and refuses a column the records lack', async () => {
    const { data } = await breakdown({ by: 'endpoint', sum: 'units' });
    const units = records.filter((r) => r.endpoint === '/v1/engagements').reduce((n, r) => n + r.units, 0);
    assert.equal(data.groups?.find((g) => g.value === '/v1/engagements')?.units, units);

    const byDay = await breakdown({ by: 'day' });
    assert.equal(byDay.data.days?.length, 31);
    assert.equal(byDay.data.days?.[8].records, records.filter((r) => r.timestamp.startsWith(`${PERIOD}-09`)).length);

    const refused = await call(session, Tools.usage, { view: 'breakdown', by: 'colour' });
    const words = refused.text;
    assert.match(words, /The usage records have no column “colour”; they have: id, /);
  });
});
