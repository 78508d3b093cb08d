// The usage tool: the summary of a billing period (with the projection, an estimate, for the
// current one, and the 12-period trend), usage by key (key ids masked as the dashboard does),
// or the usage records of a period filtered by key, status class and endpoint, in pages of at
// most 50 (a cursor lists the next), from the period's records read once while fresh.
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorText';
import { USAGE_METERS, projectPeriod } from '../core/meters';
import { currentPeriod, isPeriod } from '../core/period';
import type { RecordFilter } from '../core/records';
import { deriveColumns, filterRecords, keyColumn, maskKeyId, maskKeyIds } from '../core/records';
import { l10n } from '../core/l10n';
import { pageData, pageOf, pageWords, queryOf, resume } from './cursor';
import { type InputOf, MAX_RECORDS, type Tools } from './definitions';
import { type Target, type ToolContext, type ToolHost, ToolRefusal } from './host';
import { dataBlock, dataResult, heading, type ToolResult, whereFrom } from './result';

type UsageInput = InputOf<typeof Tools.usage>;

/** The inputs a list of records depends on: a cursor lists for these. */
const RECORDS_QUERY = [
  'environment',
  'view',
  'billingPeriod',
  'key',
  'statusClass',
  'endpoint',
] as const satisfies ReadonlyArray<keyof UsageInput>;

function period(input: UsageInput): string {
  const value = input.billingPeriod?.trim();
  if (!value) return currentPeriod();
  if (!isPeriod(value)) throw new ToolRefusal(l10n.t('A billing period is written YYYY-MM, e.g. 2026-03.'));
  return value;
}

/** The period against the current one (YYYY-MM compares as text). */
function when(billingPeriod: string, current: string): 'current' | 'past' | 'future' {
  return billingPeriod === current ? 'current' : billingPeriod < current ? 'past' : 'future';
}

export async function usage(host: ToolHost, given: UsageInput, context: ToolContext = {}): Promise<ToolResult> {
  const { input, offset, readAt } = resume(given, RECORDS_QUERY);
  const view = input.view ?? 'summary';
  if (view !== 'records' && given.cursor !== undefined)
    throw new ToolRefusal(l10n.t('Only the records are listed in pages; “cursor” goes with view “records”.'));
  const target = await host.resolve(input.environment);
  switch (view) {
    case 'summary':
      return summary(host, target, period(input), context);
    case 'byKey':
      return byKey(target, period(input), context);
    case 'records':
      return records(host, target, period(input), input, { offset, listedFrom: readAt }, context);
  }
}

async function summary(host: ToolHost, target: Target, billingPeriod: string, context: ToolContext) {
  const current = currentPeriod();
  const [read, trend] = await Promise.all([
    target.api.usage.summary(billingPeriod, { signal: context.signal }),
    host.readTrend(target, current, context.signal).catch((error: unknown) => ({ error })),
  ]);
  const meters = USAGE_METERS.map((name) => ({ name, ...read.usage[name] }));
  const periodIs = when(billingPeriod, current);
  const projection = periodIs === 'current' ? projectPeriod(billingPeriod, meters, Date.now()) : undefined;
  const data = {
    billingPeriod: read.billingPeriod,
    tier: read.tier,
    meters: Object.fromEntries(meters.map((m) => [m.name, { used: m.used, included: m.included, overage: m.overage }])),
    estimate: projection && {
      note: 'estimate by this extension at the current pace, not a figure of the service',
      daysLeft: Math.round(projection.daysLeft * 10) / 10,
      meters: Object.fromEntries(
        projection.meters.map((p) => [
          p.meter,
          { projected: Math.round(p.projected * 100) / 100, overBy: p.overBy, exceedsOn: p.exceedsOn },
        ]),
      ),
    },
    trend:
      'error' in trend
        ? describeError(trend.error, target.env.label, host.place)
        : trend.data.points.map((p) =>
            p.status === 'data'
              ? { period: p.period, ...Object.fromEntries(USAGE_METERS.map((m) => [m, p.meters[m].used])) }
              : { period: p.period, [p.status]: p.status === 'error' ? p.message : true },
          ),
  };
  const over = projection?.meters.filter((p) => p.overBy !== undefined).map((p) => p.meter) ?? [];
  const words =
    periodIs === 'past'
      ? l10n.t('Usage of {0} (a closed period: no estimate).', billingPeriod)
      : periodIs === 'future'
        ? l10n.t('Usage of {0} (a period that has not begun: no estimate).', billingPeriod)
        : over.length
          ? l10n.t(
              'Usage of {0}. At the current pace (an estimate) these meters pass what is included: {1}.',
              billingPeriod,
              over.join(', '),
            )
          : l10n.t('Usage of {0}. At the current pace (an estimate) no meter passes what is included.', billingPeriod);
  return dataResult(
    { ...whereFrom(target), view: 'summary', period: periodIs, ...data },
    heading(target),
    words,
    dataBlock(data),
  );
}

async function byKey(target: Target, billingPeriod: string, context: ToolContext) {
  const read = await target.api.usage.byKey(billingPeriod, { signal: context.signal });
  const keys = [...read.keys].sort((a, b) => b.calls - a.calls);
  const masks = maskKeyIds(keys.map((k) => k.keyId));
  const total = keys.reduce((sum, k) => sum + Math.max(0, k.calls), 0);
  const shown = keys.slice(0, MAX_RECORDS).map((k, i) => ({
    name: k.name,
    keyId: masks[i],
    calls: k.calls,
    share: total ? Math.round((Math.max(0, k.calls) / total) * 1000) / 10 : 0,
    lastUsedAt: k.lastUsedAt,
  }));
  return dataResult(
    { ...whereFrom(target), view: 'byKey', billingPeriod, keyCount: keys.length, calls: total, keys: shown },
    heading(target),
    l10n.t('Calls by API key in {0}: {1} keys, {2} calls (key ids shown masked).', billingPeriod, keys.length, total),
    dataBlock(shown),
  );
}

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');

async function records(
  host: ToolHost,
  target: Target,
  billingPeriod: string,
  input: UsageInput,
  paging: { offset: number; listedFrom?: number },
  context: ToolContext,
) {
  const filter: RecordFilter = {};
  if (input.statusClass) filter.status = input.statusClass;
  if (input.key?.trim()) filter.keyId = await keyIdOf(target, billingPeriod, input.key.trim(), context);
  const read = await recordsOf(host, target, billingPeriod, context);
  const { items: all, readAt } = read ?? { items: [], readAt: Date.now() };
  const columns = deriveColumns(all);
  if (input.endpoint?.trim()) {
    filter.column = columns.find((c) => ['endpoint', 'path', 'route'].includes(normalise(c)));
    if (!filter.column) throw new ToolRefusal(l10n.t('These usage records name no endpoint.'));
    filter.text = input.endpoint.trim();
  }
  const found = filterRecords([...all], columns, filter);
  const keyCol = keyColumn(columns);
  const query = queryOf({ ...input, view: 'records' }, RECORDS_QUERY);
  const page = pageOf(found, {
    offset: paging.offset,
    limit: input.limit ?? 20,
    query,
    readAt,
    listedFrom: paging.listedFrom,
  });
  const shown = page.items.map((r) =>
    keyCol && typeof r[keyCol] === 'string' ? { ...r, [keyCol]: maskKeyId(r[keyCol]) } : r,
  );
  return dataResult(
    { ...whereFrom(target), view: 'records', billingPeriod, ...pageData(page), total: all.length, records: shown },
    heading(target),
    !read
      ? l10n.t('The service has no usage records for {0}.', billingPeriod)
      : found.length === 0
        ? l10n.t('None of the {0} usage records of {1} matched.', all.length, billingPeriod)
        : l10n.t(
            '{0} of the {1} usage records of {2} matched; listing {3} to {4}.',
            found.length,
            all.length,
            billingPeriod,
            page.offset + 1,
            page.offset + shown.length,
          ),
    ...pageWords(page),
    shown.length ? dataBlock(shown) : '',
  );
}

/** Every record of a period, or undefined when the service has none for it (404). */
async function recordsOf(host: ToolHost, target: Target, billingPeriod: string, context: ToolContext) {
  try {
    return await host.records(target, billingPeriod, context);
  } catch (error) {
    if (isApiError(error) && error.kind === 'notFound') return undefined;
    throw error;
  }
}

/** The key a filter names: by its name or its id, as usage by key lists it. */
async function keyIdOf(target: Target, billingPeriod: string, named: string, context: ToolContext): Promise<string> {
  const { keys } = await target.api.usage.byKey(billingPeriod, { signal: context.signal });
  const masks = maskKeyIds(keys.map((k) => k.keyId));
  const index = keys.findIndex(
    (k, i) => k.keyId === named || masks[i] === named || k.name.toLowerCase() === named.toLowerCase(),
  );
  if (index < 0) throw new ToolRefusal(l10n.t('No API key “{0}” used the service in {1}.', named, billingPeriod));
  return keys[index].keyId;
}
