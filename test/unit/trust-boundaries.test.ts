// Trust boundaries that plain Node can prove (issue 14): look-alike and non-loopback http
// URLs refused, a key echoed in any escaped form redacted after decoding, error causes without
// the request's headers, redirects never followed with the key, service text that cannot
// become a link or an icon, and an environment id a crafted URL cannot match.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import { redact } from '../../src/api/redact';
import { ServiceApi } from '../../src/api/service';
import { safeLabel, safeText } from '../../src/core/text';
import { parseBaseUrl } from '../../src/core/validation';
import { keyFingerprint, legacySettingsEnvironmentId, settingsEnvironmentId } from '../../src/session/model';
import { findLegacyCollision, legacySettingsEnvironmentId as testsLegacyId } from '../fnvCollision';
import { rejection } from './support/apiErrors';
import { startLoopbackServer } from './support/loopback';
import { useReferenceService } from './support/referenceService';

/** Every escaped form a service could echo a key in. */
export function escapedForms(key: string): Record<string, string> {
  const u = (s: string) => Array.from(s, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  return {
    'JSON \\u escapes': u(key),
    'JSON \\u escapes, upper case': u(key).toUpperCase().replace(/\\U/g, '\\u'),
    'percent-encoded': Array.from(key, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join(''),
    'half escaped': `${key.slice(0, 6)}${u(key.slice(6, 12))}${key.slice(12)}`,
  };
}

describe('Trust boundaries (unit)', function () {
  this.timeout(20_000);

  describe('base URLs', () => {
    const refused = (input: string) => {
      const result = parseBaseUrl(input);
      assert.equal(result.ok, false, `${input} must be refused`);
      return (result as { message: string }).message;
    };

    it('http only to loopback: *.localhost, look-alikes of 127.0.0.1 and localhost are not loopback', () => {
      for (const url of [
        'http://app.localhost:8080/v1',
        'http://evil.localhost/v1',
        'http://127.0.0.1.nip.io/v1',
        'http://localhost.example.com/v1',
        'http://10.0.0.1/v1',
      ]) {
        assert.match(refused(url), /https/, url);
      }
      assert.deepEqual(parseBaseUrl('http://localhost:3000/v1'), { ok: true, url: 'http://localhost:3000/v1' });
      assert.deepEqual(
        parseBaseUrl('http://127.1:3000/v1'),
        { ok: true, url: 'http://127.0.0.1:3000/v1' },
        'a short form of 127.0.0.1 is 127.0.0.1',
      );
    });

    it('userinfo is refused, including userinfo that looks like the host', () => {
      for (const url of [
        'https://user:pw@api.example.com/v1',
        'http://localhost@evil.example.com/v1',
        'https://api.example.com@evil.example.com/v1',
        'http://127.0.0.1:80@evil.example.com/v1',
      ]) {
        assert.match(refused(url), /credentials/, url);
      }
      assert.match(refused('http://evil.example.com#@127.0.0.1/v1'), /https|fragment/);
    });

    it('internationalised host names that can imitate another are refused', () => {
      assert.match(refused('https://\u0430pi.example.com/v1'), /ASCII/, 'a Cyrillic а');
      assert.match(refused('https://xn--pi-6kc.example.com/v1'), /ASCII/);
      assert.equal(parseBaseUrl('https://api.example.com/v1').ok, true);
    });
  });

  describe('redaction after decoding', () => {
    const key = 'key_admin.demo-admin-7f3a9c';

    it('redacts the key in every escaped form, and the secret part alone', () => {
      for (const [form, text] of Object.entries(escapedForms(key))) {
        const out = redact(`echo ${text} end`, key);
        assert.equal(out, 'echo [redacted] end', form);
      }
      const secret = key.split('.')[1];
      assert.equal(redact(`part ${escapedForms(secret)['percent-encoded']}`, key), 'part [redacted]');
      assert.equal(redact('Bearer%20abc.def', undefined), 'Bearer%20[redacted]');
      const slashed = 'kid/1.abc/def-ghij/klm';
      assert.equal(
        redact('echo kid\\/1.abc\\/def-ghij\\/klm end', slashed),
        'echo [redacted] end',
        'JSON-escaped slashes',
      );
      assert.equal(
        redact('echo kid%2F1.abc%2fdef-ghij%2Fklm end', slashed),
        'echo [redacted] end',
        'percent-encoded slashes',
      );
    });

    describe('against the reference service', () => {
      const reference = useReferenceService();
      const service = reference.service;

      it('a key echoed escaped in a JSON error body appears in no message, field error or log entry', async () => {
        const logs: unknown[] = [];
        const api = new ServiceApi({
          baseUrl: service.baseUrl,
          getKey: () => service.keys.admin,
          onRequest: (e) => logs.push(e),
          timeoutMs: 5_000,
        });
        const admin = service.keys.admin;
        for (const [form, text] of Object.entries(escapedForms(admin))) {
          service.faults.add({
            kind: 'status',
            status: 400,
            times: 1,
            rawBody: `{"error":{"message":"Key ${text} is malformed","fields":{"key":"${text}"}}}`,
          });
          const error = await rejection(api.engagements.list());
          assert.equal(error.kind, 'invalidRequest', form);
          const shown = JSON.stringify({
            message: error.message,
            serverMessage: error.serverMessage,
            fields: error.fieldErrors,
          });
          assert.ok(!shown.includes(admin) && !shown.includes(admin.split('.')[1]), `${form}: ${shown}`);
          assert.match(error.serverMessage ?? '', /Key \[redacted\] is malformed/, form);
        }
        assert.ok(!JSON.stringify(logs).includes(admin.split('.')[1]));
      });

      it("an error's cause keeps neither the request nor its Authorization header (timeout, network)", async () => {
        const silent = await startLoopbackServer({ silent: true });
        const key = service.keys.admin;
        try {
          const slow = new ServiceApi({
            baseUrl: `${silent.origin}/v1`,
            getKey: () => key,
            timeoutMs: 300,
            retryLimit: 0,
          });
          const timeout = await rejection(slow.engagements.list());
          assert.equal(timeout.kind, 'timeout');
          const closed = new ServiceApi({
            baseUrl: 'http://127.0.0.1:9/v1',
            getKey: () => key,
            timeoutMs: 2_000,
            retryLimit: 0,
          });
          const network = await rejection(closed.engagements.list());
          assert.equal(network.kind, 'network');
          for (const error of [timeout, network]) {
            const everything = `${inspect(error, { depth: 8, showHidden: true })} ${error.stack ?? ''} ${inspect(error.cause, { depth: 8, showHidden: true })}`;
            assert.ok(
              !everything.includes(key.split('.')[1]),
              `${error.kind}: the key is not in the error or its cause`,
            );
            assert.ok(
              !/authorization/i.test(everything),
              `${error.kind}: no Authorization header in the error or its cause`,
            );
            assert.equal((error.cause as { request?: unknown } | undefined)?.request, undefined);
          }
        } finally {
          await silent.close();
        }
      });

      it('a Location holding the key split by invisible characters, which the URL parser percent-encodes, is said with the key redacted (issue 47)', async () => {
        const other = await startLoopbackServer();
        const api = new ServiceApi({ baseUrl: service.baseUrl, getKey: () => service.keys.admin, timeoutMs: 5_000 });
        const key = service.keys.admin;
        const secret = key.slice(key.indexOf('.') + 1);
        try {
          for (const ch of ['\u200B', '\u2060', '\u{E0041}', '\uFEFF']) {
            const split = Array.from(key).join(ch);
            // As a framework writes it: a header holds no raw U+200B, so the URL is percent-encoded.
            const location = new URL(`${other.origin}/v1/x?k=${split}`).href;
            assert.ok(location.includes('%'), location);
            service.faults.add({ kind: 'redirect', status: 302, location, times: 1 });
            const error = await rejection(api.engagements.list());
            assert.equal(error.kind, 'redirected', error.message);
            assert.equal(error.location, `${other.origin}/v1/x?k=[redacted]`);
            const shown = decodeURIComponent(`${error.message} ${error.location ?? ''}`).replace(
              /\p{Cf}|\p{Default_Ignorable_Code_Point}/gu,
              '',
            );
            assert.ok(!shown.includes(secret), shown);
          }
          assert.deepEqual(other.received, [], 'the other address received nothing');
        } finally {
          await other.close();
        }
      });

      it('redirects (301, 302, 303, 307, 308) to another host are never followed with the key; a Location holding the key is said with the key redacted', async () => {
        const other = await startLoopbackServer();
        const api = new ServiceApi({ baseUrl: service.baseUrl, getKey: () => service.keys.admin, timeoutMs: 5_000 });
        try {
          for (const status of [301, 302, 303, 307, 308]) {
            service.faults.add({
              kind: 'redirect',
              status,
              location: `${other.origin}/v1/engagements?key=${service.keys.admin}`,
              times: 1,
            });
            const error = await rejection(api.engagements.list());
            assert.equal(error.kind, 'redirected', String(status));
            assert.equal(error.location, `${other.origin}/v1/engagements?key=[redacted]`);
            assert.ok(!error.message.includes(service.keys.admin), error.message);
          }
          service.faults.add({
            kind: 'redirect',
            location: `http://${service.keys.admin.replace(/[._]/g, '-')}.example/`,
            times: 1,
          });
          const hostile = await rejection(api.engagements.list());
          assert.ok(!hostile.message.includes(service.keys.admin.split('.')[1].replace(/[._]/g, '-')), hostile.message);
          service.faults.add({ kind: 'redirect', location: 'http://[not a url', times: 1 });
          const raw = await rejection(api.engagements.list());
          assert.ok(!raw.message.includes('not a url'), `a raw header is never echoed: ${raw.message}`);
          assert.deepEqual(other.received, [], 'the other address received nothing');
        } finally {
          await other.close();
        }
      });
    });
  });

  describe('service text in messages', () => {
    it('a Markdown or command: link cannot survive; icons, bidi and control characters are neutralised', () => {
      const hostile =
        'Bad [click here](command:workbench.action.terminal.new) and [x]\n(https://evil.example) $(zap) \u202Eevil\u0007';
      const text = safeText(hostile);
      assert.doesNotMatch(text, /\]\(/, 'no "](" left for VS Code to read as a link');
      assert.ok(text.includes('[click here] (command:workbench.action.terminal.new)'), 'the text is still shown');
      assert.ok(!text.includes('\u202E') && !text.includes('\u0007'), 'no override or bell character');
      assert.ok(text.includes('$(zap)'), 'a notification does not render icons: left as written');
      const label = safeLabel(hostile);
      assert.ok(
        label.includes('\\$(zap)') && !/(^|[^\\])\$\(/.test(label),
        'quick picks and the status bar show $(zap) as written',
      );
      assert.doesNotMatch(label, /\n/);
      assert.equal(safeLabel(safeLabel('$(x)')), safeLabel('$(x)'), 'escaping twice changes nothing');
    });
  });

  describe('environment ids', () => {
    it('a URL colliding with the old 32-bit id is found in a bounded search; the SHA-256 id tells them apart', () => {
      const label = 'Production';
      const own = 'https://api.example.com/v1';
      const found = findLegacyCollision(label, own, 'http://127.0.0.1:4321/');
      assert.ok(found, 'a colliding URL was found within the bound');
      assert.notEqual(found, own);
      assert.equal(
        legacySettingsEnvironmentId(label, found),
        legacySettingsEnvironmentId(label, own),
        'the old id collides',
      );
      assert.equal(
        testsLegacyId(label, own),
        legacySettingsEnvironmentId(label, own),
        'the tests compute the old id as the extension does',
      );
      assert.equal(
        testsLegacyId('Repo', 'http://127.0.0.1:9/v1'),
        legacySettingsEnvironmentId('Repo', 'http://127.0.0.1:9/v1'),
      );
      assert.notEqual(settingsEnvironmentId(label, found), settingsEnvironmentId(label, own), 'the new id does not');
      assert.match(settingsEnvironmentId(label, own), /^s2-[0-9a-f]{40}$/);
      assert.equal(settingsEnvironmentId(label, own), settingsEnvironmentId(label, own), 'stable');
    });

    it('ids and key fingerprints are the SHA-256 Node gave before the browser build (stored ids still match)', () => {
      const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
      for (const [label, url] of [
        ['Staging', 'https://api.example.com/v1'],
        ['Zürich 🚀 prod', 'http://127.0.0.1:8080/v1'],
        ['', ''],
      ]) {
        assert.equal(settingsEnvironmentId(label, url), `s2-${sha(`${label}\u0000${url}`).slice(0, 40)}`, label);
        assert.equal(keyFingerprint(`${label}.key-ünï`), sha(`engagement-usage key\0${label}.key-ünï`), label);
      }
      assert.equal(settingsEnvironmentId('Staging', 'https://api.example.com/v1').length, 43);
    });
  });
});
