// Authentication and scopes of the reference service, for every endpoint and every demo key.
import assert from 'node:assert/strict';
import type { Scope } from '../service/types';
import { probe } from '../service/probe';
import { endpointScopes } from '../service/routes';
import { useReferenceService } from './support/referenceService';

interface ErrorBody {
  error: { code: string; message: string; requiredScope?: string };
}

const EXPECTED: { method: string; path: string; scope: Scope }[] = [
  { method: 'GET', path: '/engagements', scope: 'engagements:read' },
  { method: 'POST', path: '/engagements', scope: 'engagements:write' },
  { method: 'GET', path: '/engagements/{id}', scope: 'engagements:read' },
  { method: 'PATCH', path: '/engagements/{id}', scope: 'engagements:write' },
  { method: 'GET', path: '/usage/summary', scope: 'usage:read' },
  { method: 'GET', path: '/usage/details', scope: 'usage:read' },
  { method: 'GET', path: '/usage/by-key', scope: 'usage:read' },
];

describe('reference service: authentication and scopes', () => {
  const reference = useReferenceService();
  const svc = reference.service;

  const call = (method: string, template: string, key?: string, headers?: Record<string, string>) => {
    const id = svc.store.engagements[0].id;
    const body = method === 'POST' ? { name: 'n', type: 't' } : method === 'PATCH' ? { name: 'renamed' } : undefined;
    return probe<ErrorBody>(svc.baseUrl, method, template.replace('{id}', id), { key, body, headers });
  };

  it('requires exactly the scopes of the contract', () => {
    const sort = (list: { method: string; path: string; scope: Scope }[]) =>
      [...list].sort((a, b) => `${a.method} ${a.path}`.localeCompare(`${b.method} ${b.path}`));
    assert.deepEqual(sort(endpointScopes()), sort(EXPECTED));
  });

  for (const endpoint of EXPECTED) {
    const label = `${endpoint.method} ${endpoint.path}`;

    it(`${label}: 401 with WWW-Authenticate for a missing, unknown or malformed key`, async () => {
      const attempts: [string | undefined, Record<string, string> | undefined][] = [
        [undefined, undefined],
        ['key_admin.wrong', undefined],
        [`${svc.keys.admin}x`, undefined],
        [undefined, { Authorization: `Basic ${svc.keys.admin}` }],
        [undefined, { Authorization: svc.keys.admin }],
        [undefined, { Authorization: 'Bearer ' }],
      ];
      for (const [key, headers] of attempts) {
        const r = await call(endpoint.method, endpoint.path, key, headers);
        assert.equal(r.status, 401, `${label} ${key ?? JSON.stringify(headers)}`);
        assert.equal(r.headers.get('www-authenticate'), 'Bearer');
        assert.equal(r.json.error.code, 'unauthorized');
        assert.ok(r.json.error.message.length > 0);
      }
      assert.equal(svc.store.engagements.length, 60, 'nothing created');
    });

    it(`${label}: 403 insufficient_scope for every key without ${endpoint.scope}, success for the others`, async () => {
      for (const [role, key] of Object.entries<string>({ ...svc.keys })) {
        const spec = svc.keySpecs.find((s) => s.key === key)!;
        const r = await call(endpoint.method, endpoint.path, key);
        if (spec.scopes.includes(endpoint.scope)) {
          assert.ok(r.status >= 200 && r.status < 300, `${role} → ${r.status}`);
        } else {
          assert.equal(r.status, 403, `${role} on ${label}`);
          assert.deepEqual(r.json, {
            error: { code: 'insufficient_scope', message: r.json.error.message, requiredScope: endpoint.scope },
          });
          assert.match(r.json.error.message, new RegExp(endpoint.scope));
        }
      }
    });
  }

  it('lets each demo key be denied at least once, so every wrong-scope case is covered', () => {
    const denied = new Set<string>();
    for (const [role, key] of Object.entries<string>({ ...svc.keys })) {
      const spec = svc.keySpecs.find((s) => s.key === key)!;
      if (EXPECTED.some((e) => !spec.scopes.includes(e.scope))) denied.add(role);
    }
    assert.deepEqual([...denied].sort(), ['noUsage', 'readOnly', 'usageOnly']);
  });

  it('accepts the bearer scheme case-insensitively and keys added through the store', async () => {
    const r = await call('GET', '/usage/summary', undefined, { Authorization: `bearer ${svc.keys.usageOnly}` });
    assert.equal(r.status, 200);
    svc.store.addKey({ key: 'key_tmp.abc', keyId: 'key_tmp', name: 'Temp', scopes: ['engagements:read'] });
    assert.equal((await call('GET', '/engagements', 'key_tmp.abc')).status, 200);
    assert.equal((await call('GET', '/usage/summary', 'key_tmp.abc')).status, 403);
    svc.store.removeKey('key_tmp');
    assert.equal((await call('GET', '/engagements', 'key_tmp.abc')).status, 401);
  });

  it('checks routes before keys: an unknown path is 404 and a wrong method 405 even without a key', async () => {
    assert.equal((await probe(svc.baseUrl, 'GET', '/unknown')).status, 404);
    assert.equal((await probe(svc.baseUrl, 'DELETE', '/engagements')).status, 405);
  });
});
