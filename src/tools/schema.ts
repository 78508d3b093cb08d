// The tools' JSON Schemas, each written once as fields that are at the same time the schema a
// client is shown (the MCP tool list, package.json's `languageModelTools`), the check of an
// input against it (strict: no property it does not name, each value of its type, said in
// words when it is not) and the TypeScript type of the input read. Adding an input to a tool
// is one property of its `object(...)` in definitions.ts. Free of `vscode`.
import { l10n } from '../core/l10n';
import { ToolRefusal } from './host';

export type JsonSchema = Record<string, unknown>;

/** One field: its JSON Schema, and the reading of a value against it (a `ToolRefusal` in words when it does not fit). */
export interface Field<T> {
  readonly schema: JsonSchema;
  read(value: unknown, name: string): T;
}

/** The type a field reads. */
export type Read<F> = F extends Field<infer T> ? T : never;

/** What a value is, in a model's words: `a number (42)`, `a boolean (true)`, `an array`. */
function kindOf(value: unknown): string {
  if (value === null) return l10n.t('null');
  if (Array.isArray(value)) return l10n.t('an array');
  switch (typeof value) {
    case 'string':
      return l10n.t('a string');
    case 'number':
      return l10n.t('a number ({0})', String(value));
    case 'boolean':
      return l10n.t('a boolean ({0})', String(value));
    default:
      return l10n.t('an object');
  }
}

function wrongType(name: string, expected: string, value: unknown, hint?: string): ToolRefusal {
  const said = l10n.t('“{0}” must be {1}, not {2}.', name, expected, kindOf(value));
  return new ToolRefusal(hint ? `${said} ${hint}` : said);
}

const described = (schema: JsonSchema, description?: string): JsonSchema =>
  description === undefined ? schema : { ...schema, description };

/**
 * A string. `hint` is said when another type is given (an id given as a number: ids are
 * strings). Whitespace around it is kept: what the tool does with it is the tool's.
 */
export function text(description?: string, options: { maxLength?: number; hint?: () => string } = {}): Field<string> {
  const schema = described(
    { type: 'string', ...(options.maxLength ? { maxLength: options.maxLength } : {}) },
    description,
  );
  return {
    schema,
    read(value, name) {
      if (typeof value !== 'string') throw wrongType(name, l10n.t('a string'), value, options.hint?.());
      if (options.maxLength !== undefined && value.length > options.maxLength)
        throw new ToolRefusal(l10n.t('“{0}” is at most {1} characters long.', name, options.maxLength));
      return value;
    },
  };
}

/** A whole number from `minimum` to `maximum`. */
export function whole(minimum: number, maximum: number, description?: string): Field<number> {
  return {
    schema: described({ type: 'integer', minimum, maximum }, description),
    read(value, name) {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum || value > maximum)
        throw wrongType(name, l10n.t('a whole number from {0} to {1}', minimum, maximum), value);
      return value;
    },
  };
}

/** A count, 0 or more (outputs). */
export function count(description?: string): Field<number> {
  return {
    schema: described({ type: 'integer', minimum: 0 }, description),
    read(value, name) {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
        throw wrongType(name, l10n.t('a whole number, 0 or more'), value);
      return value;
    },
  };
}

/** A number (outputs only: meters, shares). */
export function numeric(description?: string): Field<number> {
  return {
    schema: described({ type: 'number' }, description),
    read(value, name) {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw wrongType(name, l10n.t('a number'), value);
      return value;
    },
  };
}

export function flag(description?: string): Field<boolean> {
  return {
    schema: described({ type: 'boolean' }, description),
    read(value, name) {
      if (typeof value !== 'boolean') throw wrongType(name, l10n.t('true or false'), value);
      return value;
    },
  };
}

/** One of `values`, said when another is given. */
export function choice<const V extends string>(values: readonly V[], description?: string): Field<V> {
  return {
    schema: described({ type: 'string', enum: [...values] }, description),
    read(value, name) {
      if (typeof value !== 'string' || !values.includes(value as V))
        throw new ToolRefusal(
          l10n.t(
            '“{0}” is one of {1}, not {2}.',
            name,
            values.join(', '),
            typeof value === 'string' ? `“${value.slice(0, 100)}”` : kindOf(value),
          ),
        );
      return value as V;
    },
  };
}

export function list<T>(
  item: Field<T>,
  description?: string,
  bounds: { minItems?: number; maxItems?: number } = {},
): Field<T[]> {
  return {
    schema: described({ type: 'array', items: item.schema, ...bounds }, description),
    read(value, name) {
      if (!Array.isArray(value)) throw wrongType(name, l10n.t('an array'), value);
      if (bounds.minItems !== undefined && value.length < bounds.minItems)
        throw new ToolRefusal(l10n.t('“{0}” holds at least {1}.', name, bounds.minItems));
      if (bounds.maxItems !== undefined && value.length > bounds.maxItems)
        throw new ToolRefusal(l10n.t('“{0}” holds at most {1}.', name, bounds.maxItems));
      return value.map((v, i) => item.read(v, `${name}[${i}]`));
    },
  };
}

/** An object of any keys whose values are all `item` (e.g. a version per id). */
export function dictionary<T>(item: Field<T>, description?: string): Field<Record<string, T>> {
  return {
    schema: described({ type: 'object', additionalProperties: item.schema }, description),
    read(value, name) {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw wrongType(name, l10n.t('an object'), value);
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, item.read(v, `${name}.${k}`)]));
    },
  };
}

type Shape = Record<string, Field<unknown>>;
type ObjectOf<P extends Shape, R extends keyof P> = { [K in R]: Read<P[K]> } & {
  [K in Exclude<keyof P, R>]?: Read<P[K]>;
};

export interface ObjectField<P extends Shape, R extends keyof P> extends Field<ObjectOf<P, R>> {
  readonly properties: P;
}

/**
 * An object of the named properties. Strict unless `open` (outputs whose keys the service
 * decides): a property it does not name is refused, saying which it takes, and how to page
 * where it pages; a property given as null is taken as left out.
 */
export function object<P extends Shape, R extends keyof P & string = never>(
  properties: P,
  options: { required?: readonly R[]; description?: string; open?: boolean } = {},
): ObjectField<P, R> {
  const required = options.required ?? [];
  const schema = described(
    {
      type: 'object',
      properties: Object.fromEntries(Object.entries(properties).map(([k, f]) => [k, f.schema])),
      ...(required.length ? { required: [...required] } : {}),
      ...(options.open ? {} : { additionalProperties: false }),
    },
    options.description,
  );
  return {
    schema,
    properties,
    read(value, name) {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw wrongType(name, l10n.t('an object'), value);
      const given = value as Record<string, unknown>;
      const names = Object.keys(properties);
      if (!options.open) {
        const unknown = Object.keys(given).filter((k) => !Object.hasOwn(properties, k));
        if (unknown.length) {
          const paging =
            Object.hasOwn(properties, 'cursor') && unknown.some((k) => /page|offset|skip|start|next|after/i.test(k))
              ? ` ${l10n.t('To see more, give “cursor” as the previous answer says.')}`
              : '';
          throw new ToolRefusal(
            l10n.t(
              '{0} is not an input of this tool; its inputs are: {1}.',
              unknown
                .slice(0, 5)
                .map((k) => `“${k.slice(0, 50)}”`)
                .join(', '),
              names.join(', '),
            ) + paging,
          );
        }
      }
      const out: Record<string, unknown> = options.open ? { ...given } : {};
      for (const key of names) {
        const v = given[key];
        if (v === undefined || v === null) {
          if ((required as readonly string[]).includes(key)) throw new ToolRefusal(l10n.t('“{0}” is required.', key));
          continue;
        }
        out[key] = properties[key].read(v, name ? `${name}.${key}` : key);
      }
      return out as ObjectOf<P, R>;
    },
  };
}
