// Each key of the per-key table over the trend's periods (its calls in each, from the trend's
// reads: closed periods kept), its projection to the period's end and its budget.
import type { KeyBudgetAlert } from '../core/keyBudget';
import { budgetOf, projectKeyCalls } from '../core/keyBudget';
import { periodProgress } from '../core/meters';
import type { KeyOverTime, KeysData, TrendData } from './protocol';
import type { KeysByMask } from './sections';

export function keysOverTime(
  keys: KeysData,
  keysByMask: KeysByMask,
  trend: TrendData,
  budgets: ReadonlyMap<string, number>,
  now: number,
): Pick<KeysData, 'perKey' | 'trendPeriods'> {
  const progress = keys.period === trend.current ? periodProgress(keys.period, now) : undefined;
  const perKey: Record<string, KeyOverTime> = {};
  for (const row of keys.rows) {
    const key = keysByMask.get(row.maskedKeyId);
    if (!key) continue;
    const calls = trend.points.map((point) => {
      if (point.period === keys.period) return row.calls;
      if (point.status !== 'data' || point.keys === undefined) return null;
      return point.keys.find((k) => k.keyId === key.keyId)?.calls ?? 0;
    });
    const projected = progress ? projectKeyCalls(row.calls, progress) : undefined;
    const budget = budgetOf(budgets, key.keyId, key.name);
    const state: KeyBudgetAlert['trigger'] | 'within' | undefined =
      budget === undefined
        ? undefined
        : row.calls > budget
          ? 'passed'
          : projected !== undefined && projected > budget
            ? 'projected'
            : 'within';
    perKey[row.maskedKeyId] = {
      calls,
      ...(projected !== undefined ? { projected } : {}),
      ...(budget !== undefined ? { budget, budgetState: state } : {}),
    };
  }
  return { perKey, trendPeriods: trend.points.map((p) => p.period) };
}
