// Field names in error bodies as the contract names them: whichever key an entry names its
// field by, and whichever way a framework writes it (a pointer, a path, snake case), matched
// to the contract's field and parameter names; and the scope a refusal names.
import { clip, ERROR_BODY_LIMITS, isObject, oneLine } from './errorText';
import { ENGAGEMENT_FIELDS, type Scope } from './types';

const SCOPES: readonly string[] = ['engagements:read', 'engagements:write', 'usage:read'];

/** The contract's field and parameter names: a field named any other way is matched to these. */
const CONTRACT_FIELDS = [...ENGAGEMENT_FIELDS, 'page', 'pageSize', 'billingPeriod'];
const BY_LOOSE_NAME = new Map(CONTRACT_FIELDS.map((f) => [loose(f), f]));

/** Path segments that hold fields rather than name one: `/data/attributes`, `["body", …]`, `$.…`. */
const CONTAINERS = new Set([
  '',
  '#',
  '$',
  'body',
  'query',
  'path',
  'header',
  'headers',
  'cookie',
  'form',
  'data',
  'attributes',
  'relationships',
  'input',
  'request',
  'params',
  'payload',
  'json',
]);

/** The field an entry names, by whichever key its format uses. */
export function entryField(entry: Record<string, unknown>): string | undefined {
  const source = isObject(entry.source) ? entry.source : {};
  const extensions = isObject(entry.extensions) ? entry.extensions : {};
  const candidates = [
    entry.field,
    entry.name,
    entry.param,
    entry.parameter,
    entry.property,
    entry.propertyPath,
    entry.attribute,
    extensions.field,
    extensions.argumentName,
    source.pointer,
    source.parameter,
    entry.pointer,
    entry.loc,
    entry.path,
  ];
  for (const candidate of candidates) {
    const field = fieldName(candidate);
    if (field) return field;
  }
  return undefined;
}

/**
 * A field named any way (`/data/attributes/name`, `#/name`, `["body", "name"]`, `body.name`,
 * `$.Name`, `Name`, `page_size`) as the contract names it (`name`, `pageSize`): the last
 * segment of its path, matched case-insensitively. Undefined when it names no field.
 */
export function fieldName(raw: unknown): string | undefined {
  let segments: string[];
  if (typeof raw === 'string') segments = raw.slice(0, 500).split(/[/.[\]]+/);
  else if (Array.isArray(raw)) segments = raw.slice(0, 20).filter((s): s is string => typeof s === 'string');
  else return undefined;
  const last = segments
    .map((s) => s.trim())
    .filter((s) => s && !/^\d+$/.test(s))
    .at(-1);
  if (!last || CONTAINERS.has(last.toLowerCase()) || last === '__proto__') return undefined;
  return BY_LOOSE_NAME.get(loose(last)) ?? clip(oneLine(last), ERROR_BODY_LIMITS.fieldChars);
}

function loose(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

export function scopeOf(value: unknown): Scope | undefined {
  return typeof value === 'string' && SCOPES.includes(value.trim()) ? (value.trim() as Scope) : undefined;
}
