// A key's calls against the budget the user gave it (the setting, by key name or id): where its
// calls are heading by the period's end (linear from the period's start, as the meters' estimate),
// and which keys are due a warning (past their budget, or projected past it), once per period
// and key. Pure.
import type { PeriodProgress } from './meters';

/** The budgets from the setting: `{ "CI pipeline": 20000, "key_ci": 20000 }`; anything but a positive number is left out. */
export function keyBudgets(value: unknown): Map<string, number> {
  const budgets = new Map<string, number>();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return budgets;
  for (const [key, budget] of Object.entries(value as Record<string, unknown>))
    if (key.trim() !== '' && typeof budget === 'number' && Number.isFinite(budget) && budget > 0)
      budgets.set(key.trim(), budget);
  return budgets;
}

/** A key's budget: by its id first, then by its name. */
export function budgetOf(budgets: ReadonlyMap<string, number>, keyId: string, name: string): number | undefined {
  return budgets.get(keyId) ?? budgets.get(name.trim());
}

/** The calls a key is expected to have at the period's end at its pace so far (linear from the period's start). */
export function projectKeyCalls(calls: number, progress: PeriodProgress): number {
  if (progress.elapsedDays <= 0) return calls;
  return Math.round((calls / progress.elapsedDays) * progress.totalDays);
}

export interface KeyBudgetAlert {
  keyId: string;
  name: string;
  calls: number;
  budget: number;
  /** Past the budget already, or only projected to pass it. */
  trigger: 'passed' | 'projected';
  projected?: number;
}

/** The identity under which a key's warning is remembered as shown: once per period and key. */
export function keyBudgetAlertId(environmentId: string, period: string, keyId: string): string {
  return `${environmentId}|${period}|key|${keyId}`;
}

/** The keys of a period due a warning that `shown` does not hold yet. `progress`: the current period's (none for a closed one). */
export function dueKeyBudgets(
  environmentId: string,
  period: string,
  keys: ReadonlyArray<{ keyId: string; name: string; calls: number }>,
  budgets: ReadonlyMap<string, number>,
  progress: PeriodProgress | undefined,
  shown: (id: string) => boolean,
): KeyBudgetAlert[] {
  const due: KeyBudgetAlert[] = [];
  for (const key of keys) {
    const budget = budgetOf(budgets, key.keyId, key.name);
    if (budget === undefined || shown(keyBudgetAlertId(environmentId, period, key.keyId))) continue;
    const base = { keyId: key.keyId, name: key.name, calls: key.calls, budget };
    if (key.calls > budget) {
      due.push({ ...base, trigger: 'passed' });
      continue;
    }
    const projected = progress ? projectKeyCalls(key.calls, progress) : undefined;
    if (projected !== undefined && projected > budget) due.push({ ...base, trigger: 'projected', projected });
  }
  return due;
}
