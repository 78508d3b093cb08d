// Run-time checks of the service's answers against the contract's shapes. Extra fields are
// kept; a missing or mistyped required field throws a ShapeError naming the field's path.
import type { Engagement, KeyUsage, Meter, MeterName, UsageByKey, UsageRecord, UsageSummary } from './types';
import { METER_NAMES } from './types';

export class ShapeError extends Error {
  override readonly name = 'ShapeError';
  constructor(
    readonly field: string,
    readonly expected: string,
    readonly got: string,
  ) {
    super(`${field || 'body'}: expected ${expected}, got ${got}`);
  }
}

type Obj = Record<string, unknown>;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? 'a long string' : `"${value}"`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${value}`;
  return typeof value === 'object' ? 'an object' : typeof value;
}

function object(value: unknown, path: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ShapeError(path, 'an object', describe(value));
  return value as Obj;
}

function string(obj: Obj, key: string, path: string): string {
  const value = obj[key];
  if (typeof value !== 'string')
    throw new ShapeError(join(path, key), 'a string', value === undefined ? 'nothing' : describe(value));
  return value;
}

function optionalString(obj: Obj, key: string, path: string): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ShapeError(join(path, key), 'a string', describe(value));
  return value;
}

/** Numbers may arrive as numeric strings; they are read as numbers. */
function number(obj: Obj, key: string, path: string, { integer = false } = {}): number {
  const raw = obj[key];
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new ShapeError(
      join(path, key),
      integer ? 'an integer' : 'a number',
      raw === undefined ? 'nothing' : describe(raw),
    );
  }
  return value;
}

function array(obj: Obj, key: string, path: string): unknown[] {
  const value = obj[key];
  if (!Array.isArray(value))
    throw new ShapeError(join(path, key), 'an array', value === undefined ? 'nothing' : describe(value));
  return value;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

export function parseEngagement(value: unknown, path = ''): Engagement {
  const obj = object(value, path);
  const description = optionalString(obj, 'description', path);
  const engagement: Engagement = {
    ...obj,
    id: string(obj, 'id', path),
    name: string(obj, 'name', path),
    type: string(obj, 'type', path),
    status: string(obj, 'status', path),
    evaluationCount: number(obj, 'evaluationCount', path, { integer: true }),
    createdAt: string(obj, 'createdAt', path),
    updatedAt: string(obj, 'updatedAt', path),
  };
  if (engagement.id === '') throw new ShapeError(join(path, 'id'), 'a non-empty string', '""');
  if (description === undefined) delete engagement.description;
  else engagement.description = description;
  return engagement;
}

/** A usage detail record: the contract leaves its fields open, so any object is one. */
export function parseUsageRecord(value: unknown, path: string): UsageRecord {
  return object(value, path);
}

function parseMeter(value: unknown, path: string): Meter {
  const obj = object(value, path);
  return {
    ...obj,
    used: number(obj, 'used', path),
    included: number(obj, 'included', path),
    overage: number(obj, 'overage', path),
  };
}

export function parseUsageSummary(value: unknown): UsageSummary {
  const obj = object(value, '');
  const usageObj = object(obj.usage, 'usage');
  const usage = {} as Record<MeterName, Meter>;
  for (const name of METER_NAMES) usage[name] = parseMeter(usageObj[name], `usage.${name}`);
  return {
    ...obj,
    billingPeriod: string(obj, 'billingPeriod', ''),
    tier: string(obj, 'tier', ''),
    usage: { ...usageObj, ...usage },
  };
}

function parseKeyUsage(value: unknown, path: string): KeyUsage {
  const obj = object(value, path);
  return {
    ...obj,
    keyId: string(obj, 'keyId', path),
    name: string(obj, 'name', path),
    calls: number(obj, 'calls', path),
    lastUsedAt: optionalString(obj, 'lastUsedAt', path) ?? '',
  };
}

export function parseUsageByKey(value: unknown): UsageByKey {
  const obj = object(value, '');
  return {
    ...obj,
    billingPeriod: string(obj, 'billingPeriod', ''),
    keys: array(obj, 'keys', '').map((item, index) => parseKeyUsage(item, `keys[${index}]`)),
  };
}
