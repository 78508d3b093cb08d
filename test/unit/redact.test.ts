// Redaction of API keys from texts the extension shows or logs: the whole key, its secret
// part (keys of the form `<keyId>.<secret>`), and any bearer token.
import assert from 'node:assert/strict';
import { redact } from '../../src/api/redact';

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

describe('redact: the key in other encodings (issue 27)', () => {
  const key = 'key_admin.demo-admin-7f3a9c';
  const secret = 'demo-admin-7f3a9c';
  const pct = (s: string, times: number) =>
    Array.from(s, (c) => `%${'25'.repeat(times - 1)}${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const b64url = (s: string) => Buffer.from(s).toString('base64url');
  const decodeAll = (text: string) => {
    // What a reader could get back: every decoding tried on every run of the text.
    const runs = text.match(/[A-Za-z0-9+/_=-]{8,}/g) ?? [];
    const decoded = runs.flatMap((run) => [
      Buffer.from(run, 'base64').toString('latin1'),
      Buffer.from(run, 'base64url').toString('latin1'),
    ]);
    let unescaped = text;
    for (let i = 0; i < 4; i++)
      unescaped = unescaped.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    unescaped = unescaped
      .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/&#(\d+);?/g, (_, d: string) => String.fromCharCode(Number(d)));
    return [text, unescaped, ...decoded].join('\n').toLowerCase();
  };
  const rows: Array<[string, string]> = [
    ['percent-encoded twice', pct(key, 2)],
    ['percent-encoded three times', pct(key, 3)],
    ['percent-encoded twice, lower-case hex', pct(key, 2).toLowerCase()],
    ['twice and once mixed', `${pct(key.slice(0, 9), 2)}${pct(key.slice(9), 1)}`],
    ['HTML decimal references', Array.from(key, (c) => `&#${c.charCodeAt(0)};`).join('')],
    ['HTML hex references with zeros', Array.from(key, (c) => `&#X00${c.charCodeAt(0).toString(16)};`).join('')],
    ['HTML references without semicolons', Array.from(key, (c) => `&#${c.charCodeAt(0)}`).join('')],
    ['HTML named references for the punctuation', key.replace('_', '&lowbar;').replace('.', '&period;')],
    ['HTML references mixed with text', `key&#95;admin&#x2e;demo-admin-7f3a9c`],
    ['base64', b64(key)],
    ['base64 inside Basic credentials (offset 1)', b64(`u:${key}`)],
    ['base64 at offset 2', b64(`ab${key}xyz`)],
    ['base64url', b64url(`\u00ff\u00fe${key}?>`)],
    ['base64 of the secret part alone', b64(`x${secret}`)],
    ['a host name, lower-cased by a URL parser', `https://${key.toUpperCase()}.invalid`],
    ['the secret part in another case', secret.toUpperCase()],
  ];
  for (const [form, encoded] of rows)
    it(`${form}: redacted, and no decoding of what is left gives the key back`, () => {
      const out = redact(`echo ${encoded} end`, key);
      assert.match(out, /^echo .*\[redacted\].* end$/, out);
      const readable = decodeAll(out);
      assert.ok(!readable.includes(secret), `${form}: ${out}`);
    });

  it('a redirect target: the URL parser lower-cases and percent-decodes the host; the key is still redacted', () => {
    for (const location of [
      `https://${key.toUpperCase()}.invalid/v1`,
      `https://${key.replace('_', '%5F').replace('.', '%2E')}.invalid/v1`,
    ]) {
      const origin = new URL(location).origin;
      assert.equal(redact(origin, key), 'https://[redacted].invalid', `${location} → ${origin}`);
    }
  });

  it('text that only resembles the key is kept', () => {
    for (const text of ['key_admin was used', b64('key_admin'), 'demo-admin-7f3a9', '&#107;ey']) {
      assert.equal(redact(text, key), text);
    }
  });
});
