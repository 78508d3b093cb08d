// Redaction of API keys from texts the extension shows or logs: the whole key, its secret
// part (keys of the form `<keyId>.<secret>`), and any bearer token.
import assert from 'node:assert/strict';
import { redact } from '../../src/api/client';

describe('redact', () => {
  const key = 'key_admin.demo-admin-7f3a9c';

  it('removes the whole key, its secret part alone, and bearer tokens', () => {
    assert.equal(redact(`bad key ${key}`, key), 'bad key [redacted]');
    assert.equal(redact('secret part demo-admin-7f3a9c echoed', key), 'secret part [redacted] echoed');
    assert.equal(redact('Authorization: Bearer abc.def', undefined), 'Authorization: Bearer [redacted]');
  });

  it('keeps the key id (not a secret) and leaves short or dotless keys whole', () => {
    assert.equal(redact('key key_admin was used', key), 'key key_admin was used');
    assert.equal(
      redact('a.b-c and b-c', 'a.b-c'),
      '[redacted] and b-c',
      'a secret part shorter than 8 characters is not searched alone',
    );
    assert.equal(redact('plainsecretkey here', 'plainsecretkey'), '[redacted] here');
  });
});
