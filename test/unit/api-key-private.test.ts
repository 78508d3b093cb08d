// The client never hands out its key: whatever a holder of a `ServiceApi` (the views, the
// test seam's `environments.api()`) can reach of it (its properties, its methods, what they
// return, its JSON) holds no key and no way to read one.
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { ServiceApi } from '../../src/api/service';
import { useReferenceService } from './support/referenceService';

/** Every property name of an object: its own (enumerable or not) and those of its prototypes. */
function propertyNames(value: object): (string | symbol)[] {
  const names = new Set<string | symbol>();
  for (
    let o: object | null = value;
    o && o !== Object.prototype && o !== Function.prototype;
    o = Object.getPrototypeOf(o) as object | null
  )
    for (const name of Reflect.ownKeys(o)) if (name !== 'constructor') names.add(name);
  return [...names];
}

/** A call that may hang (a request) is given up after 5 s. */
async function settle(value: unknown): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve('(timed out)'), 5_000)));
  try {
    return await Promise.race([Promise.resolve(value).catch((error: unknown) => error), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Walks what can be reached from `root` (bounded in depth): each property's value, and what
 * each method returns when called without arguments. Every string met is handed to `check`.
 */
async function walk(root: unknown, check: (text: string, path: string) => void): Promise<number> {
  const seen = new Set<unknown>();
  let visited = 0;
  const visit = async (value: unknown, path: string, depth: number): Promise<void> => {
    if (typeof value === 'string') return check(value, path);
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return;
    if (seen.has(value) || depth > 4) return;
    seen.add(value);
    visited++;
    if (value instanceof Error) check(`${value.message} ${value.stack ?? ''}`, path);
    if (value instanceof Map) for (const [k, v] of value) await visit(v, `${path}[${String(k)}]`, depth + 1);
    for (const name of propertyNames(value)) {
      let member: unknown;
      try {
        member = Reflect.get(value, name);
      } catch {
        continue;
      }
      const at = `${path}.${String(name)}`;
      if (typeof member === 'function') {
        let result: unknown;
        try {
          result = await settle((member as (...args: unknown[]) => unknown).call(value));
        } catch (error) {
          result = error;
        }
        await visit(result, `${at}()`, depth + 1);
      }
      await visit(member, at, depth + 1);
    }
  };
  await visit(root, 'api', 0);
  return visited;
}

describe('API client: the key stays inside', function () {
  const reference = useReferenceService();

  it('offers no property or method that returns the key, and its JSON and inspection lack it', async () => {
    const key = reference.service.keys.admin;
    const api = new ServiceApi({ baseUrl: reference.service.baseUrl, getKey: () => key, timeoutMs: 5_000 });
    // After a request the client holds everything it builds lazily (its ky instance among them).
    await api.engagements.list({ pageSize: 2 });
    const found: string[] = [];
    const visited = await walk(api, (text, path) => {
      if (text.includes(key)) found.push(path);
    });
    assert.deepEqual(found, [], 'no reachable value holds the key');
    assert.ok(visited >= 4, `the walk reached the client and both endpoint groups (${visited} objects)`);
    assert.ok(!JSON.stringify(api).includes(key), 'JSON.stringify of the API lacks the key');
    assert.ok(!JSON.stringify(api.client).includes(key), 'JSON.stringify of the client lacks the key');
    const shown = inspect(api, { depth: 8, showHidden: true, getters: true });
    assert.ok(!shown.includes(key), 'util.inspect of the API lacks the key');
    assert.ok(!('getKey' in api.client) && !('options' in api.client), 'the client has no getKey or options member');
  });
});
