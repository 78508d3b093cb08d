// Redaction of API keys from texts the extension shows or logs: the whole key, its secret
// part (keys of the form `<keyId>.<secret>`), and any bearer token.
import assert from 'node:assert/strict';
import { redact, redactKey } from '../../src/api/redact';
import { safeLabel, safeText, shortLabel } from '../../src/core/text';
import { INVISIBLES, jsonEscaped, splitKey } from './support/invisibles';
import { RENDERERS } from './support/renderers';

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

describe('redact: a key split by invisible characters (issue 34)', () => {
  const key = 'key_admin.demo-admin-7f3a9c';
  const secret = 'demo-admin-7f3a9c';
  // What any display path could show at most: the text with every invisible character gone.
  const seen = (text: string) => text.replace(/\p{Cc}|\p{Cf}|\p{Default_Ignorable_Code_Point}/gu, '');

  for (const [name, ch] of INVISIBLES)
    it(`${name}: raw, or JSON-escaped in a raw body, and through every display path, no key`, () => {
      const raw = redact(`echo ${splitKey(key, ch)} end`, key);
      assert.equal(raw, 'echo [redacted] end');
      const escaped = redact(`{"m":"echo ${splitKey(key, jsonEscaped(ch))} end"}`, key);
      assert.equal(escaped, '{"m":"echo [redacted] end"}');
      const secretOnly = redact(`the secret ${splitKey(secret, ch)}.`, key);
      assert.equal(secretOnly, 'the secret [redacted].');
      for (const shown of [raw, escaped, secretOnly].flatMap((t) => [t, safeText(t), safeLabel(t), shortLabel(t, '-')]))
        assert.ok(!seen(shown).includes(secret), `${name}: ${JSON.stringify(shown)}`);
    });

  for (const [name, ch] of INVISIBLES)
    it(`${name}: inside a percent-encoded URL (a redirect's Location as the URL parser writes it), once or twice, or as an HTML reference: no key`, () => {
      const location = new URL(`https://api.example.com/v1/next?token=${splitKey(key, ch)}`).href;
      assert.ok(!location.includes(splitKey(key, ch)), 'the URL parser percent-encoded the invisible character');
      const twice = location.replace(/%/g, '%25');
      const html = `echo ${splitKey(key, `&#${ch.codePointAt(0)};`)} and ${splitKey(key, `&#x${ch.codePointAt(0)?.toString(16)};`)}`;
      for (const text of [location, twice, html]) {
        const out = redact(text, key);
        assert.match(out, /\[redacted\]/, `${name}: ${out}`);
        const decoded = decodeURIComponent(decodeURIComponent(out)).replace(/&#x?[0-9a-f]+;/gi, '');
        assert.ok(!seen(decoded).includes(secret), `${name}: ${out}`);
      }
      assert.equal(redact(location, key), 'https://api.example.com/v1/next?token=[redacted]');
    });

  it('percent-encoded characters that show something, between the key’s, are kept: the key is not there', () => {
    const text = `https://x.invalid/?a=${splitKey(key, '%41')}`;
    assert.equal(redact(text, key), text);
  });

  it('a key with an invisible character of its own (pasted so) is found with or without it', () => {
    const pasted = `key_admin.demo-ad\u200Bmin-7f3a9c`;
    assert.equal(redact(`a ${key} b`, pasted), 'a [redacted] b');
    assert.equal(redact(`a ${pasted} b`, pasted), 'a [redacted] b');
    assert.equal(redact(`a ${splitKey(key, '\u2060')} b`, pasted), 'a [redacted] b');
  });

  it('invisible characters elsewhere, and other text, are kept', () => {
    const text = 'name\u200B with \u2060 joiners \u{E0041} and \\u200b escapes, Bearer-free';
    assert.equal(redact(text, key), text);
    assert.equal(redact('key_admin.demo-admin-7f3a9 (one short)', key), 'key_admin.demo-admin-7f3a9 (one short)');
  });

  describe('JSON stays JSON: the key in a string field, in each form, parses with [redacted] in its place', () => {
    const pct = (s: string) => Array.from(s, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    // Keys whose characters are JSON escape letters, and hex digits, so a match could start inside an escape.
    const keys = [key, 'nkey.tabfrun-secret-42', 'e9key.ubf0-tnr-secret'];
    for (const k of keys) {
      const forms: Array<[string, string]> = [
        ['as typed', k],
        ['upper case', k.toUpperCase()],
        ['JSON \\u escapes', jsonEscaped(k)],
        ['JSON \\u escapes, upper-case hex', jsonEscaped(k).toUpperCase().replace(/\\U/g, '\\u')],
        ['percent-encoded', pct(k)],
        ['percent-encoded twice', pct(k).replace(/%/g, '%25')],
        ['HTML references', Array.from(k, (c) => `&#${c.charCodeAt(0)};`).join('')],
        ['base64', b64(`u:${k}`)],
        ['Bearer', `Bearer ${k}`],
        ['after a \\n escape', `\\n${k}`],
        ['after an escaped backslash', `\\\\${k}`],
        ['after \\u00e9', `\\u00e9${k}`],
        ['split by \\u2060 and \\r escapes', splitKey(k, '\\u2060\\r')],
        ['split by raw invisible characters', splitKey(k, '\u2060\u00AD\u{E0041}')],
        ['the secret part after a \\t escape', `\\t${k.slice(k.indexOf('.') + 1)}`],
        // The key begins with hex digits: the text is `\u00e9` and `key.ubf0…`, a match inside an escape.
        ...(k.startsWith('e9') ? [['inside a \\u00e9 escape', `\\u00${k}`] as [string, string]] : []),
      ];
      for (const [form, text] of forms)
        it(`${k}: ${form}`, () => {
          const body = `{"a":"${text}","b":["${text}",{"${text}":"${text}x"}],"c":1}`;
          const out = redactKey(body, k);
          const parsed = JSON.parse(out) as { a: string; b: [string, Record<string, string>]; c: number };
          assert.match(parsed.a, /\[redacted\]/, out);
          assert.equal(parsed.c, 1);
          assert.equal(parsed.b.length, 2);
          assert.match(Object.keys(parsed.b[1])[0], /\[redacted\]/);
          const secretPart = k.slice(k.indexOf('.') + 1).toLowerCase();
          assert.ok(!seen(JSON.stringify(parsed)).toLowerCase().includes(secretPart), out);
        });
    }
  });

  it('bearer tokens that are not the key are kept by redactKey (what the service says stays), removed by redact', () => {
    const text = '{"note":"Bearer abc.def is an example","k":"Bearer key_admin.demo-admin-7f3a9c"}';
    assert.equal(redactKey(text, key), '{"note":"Bearer abc.def is an example","k":"Bearer [redacted]"}');
    assert.equal(redact(text, key), '{"note":"Bearer [redacted] is an example","k":"Bearer [redacted]"}');
    assert.deepEqual(JSON.parse(redact('{"a":"Bearer x\\"y\\\\"}')), { a: 'Bearer [redacted]' });
  });
});

describe('what a display path deletes, redaction skips (issue 34)', () => {
  const key = 'key_admin.demo-admin-7f3a9c';
  // The BMP (without lone surrogates), and the plane of tags and the variation selectors supplement.
  const codePoints = [
    ...Array.from({ length: 0x10000 }, (_, i) => i).filter((c) => c < 0xd800 || c > 0xdfff),
    ...Array.from({ length: 0x1000 }, (_, i) => 0xe0000 + i),
  ];

  it('every character any display path deletes is skipped where redaction looks for the key, raw and JSON-escaped', () => {
    const deleted = new Map<number, string[]>();
    for (const { name, render: show } of RENDERERS) {
      const without = show('ab');
      for (const code of codePoints)
        if (show(`a${String.fromCodePoint(code)}b`) === without)
          deleted.set(code, [...(deleted.get(code) ?? []), name]);
    }
    // Controls are deleted by safeText; format characters and the other ignorables by errorText's oneLine.
    assert.ok(deleted.has(0x2060) && deleted.size > 4000, `${deleted.size} deleted`);
    const missed: string[] = [];
    for (const [code, by] of deleted) {
      const ch = String.fromCodePoint(code);
      const split = `<${splitKey(key, ch)}>`;
      const escaped = `<${splitKey(key, jsonEscaped(ch))}>`;
      if (redact(split, key) !== '<[redacted]>' || redact(escaped, key) !== '<[redacted]>')
        missed.push(`U+${code.toString(16).toUpperCase()} (${by.join(', ')})`);
    }
    assert.deepEqual(missed, []);
  });

  it('every control character (Cc), deleted or not, is skipped too: safeText deletes most of them', () => {
    for (let code = 0; code <= 0x9f; code = code === 0x1f ? 0x7f : code + 1)
      assert.equal(
        redact(`<${splitKey(key, String.fromCharCode(code))}>`, key),
        '<[redacted]>',
        `U+${code.toString(16)}`,
      );
  });
});
