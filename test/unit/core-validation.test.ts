import assert from 'node:assert/strict';
import {
  isLoopbackHost,
  parseBaseUrl,
  validateBillingPeriod,
  validateName,
  validatePageRequest,
} from '../../src/core/validation';
import {
  absoluteTime,
  formatCount,
  formatGb,
  formatPercent,
  relativeTime,
  relativeTimeLong,
  truncate,
} from '../../src/core/format';
import { configureL10n, fillPlaceholders, l10n } from '../../src/core/l10n';

describe('input validation', () => {
  it('accepts https base URLs ending in /v1 and normalises them', () => {
    assert.deepEqual(parseBaseUrl(' https://api.example.com/v1/ '), { ok: true, url: 'https://api.example.com/v1' });
    assert.deepEqual(parseBaseUrl('https://example.com/eus/v1'), { ok: true, url: 'https://example.com/eus/v1' });
    assert.deepEqual(parseBaseUrl('http://127.0.0.1:8080/v1'), { ok: true, url: 'http://127.0.0.1:8080/v1' });
    assert.deepEqual(parseBaseUrl('http://[::1]:3000/v1'), { ok: true, url: 'http://[::1]:3000/v1' });
  });

  it('refuses base URLs a user could get wrong, saying why', () => {
    const message = (input: string) => {
      const result = parseBaseUrl(input);
      assert.equal(result.ok, false, input);
      return (result as { message: string }).message;
    };
    assert.match(message(''), /Enter the base URL/);
    assert.match(message('api.example.com/v1'), /not a URL/);
    assert.match(message('http://api.example.com/v1'), /https/);
    assert.match(message('https://api.example.com/v2'), /\/v1/);
    assert.match(message('https://api.example.com'), /\/v1/);
    assert.match(message('ftp://api.example.com/v1'), /https/);
    assert.match(message('https://user:pw@api.example.com/v1'), /credentials/);
    assert.match(message('https://api.example.com/v1?x=1'), /query/);
  });

  it('knows loopback hosts', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]']) assert.ok(isLoopbackHost(host), host);
    // `*.localhost` is resolved like any name (a resolver may send it anywhere): not loopback.
    for (const host of [
      'example.com',
      '128.0.0.1',
      'localhost.example.com',
      '10.0.0.1',
      'app.localhost',
      'evil.localhost',
      '127.0.0.1.nip.io',
    ])
      assert.ok(!isLoopbackHost(host), host);
  });

  it('requires a name after trimming, and sets no length limit the contract does not state', () => {
    assert.match(validateName('   ') ?? '', /required/);
    assert.equal(validateName('  Q3 review '), undefined);
    assert.equal(validateName('x'.repeat(10_000)), undefined, 'the service enforces its own limits');
  });

  it('accepts only YYYY-MM billing periods with a real month', () => {
    assert.equal(validateBillingPeriod('2026-11'), undefined);
    assert.match(validateBillingPeriod('2026-13') ?? '', /no month 13/);
    assert.match(validateBillingPeriod('2026-00') ?? '', /no month 00/);
    assert.match(validateBillingPeriod('2026-1') ?? '', /YYYY-MM/);
    assert.match(validateBillingPeriod('November') ?? '', /YYYY-MM/);
  });

  it('bounds page and page size', () => {
    assert.equal(validatePageRequest(1, 100), undefined);
    assert.match(validatePageRequest(0, 25) ?? '', /at least 1/);
    assert.match(validatePageRequest(1.5, 25) ?? '', /whole number/);
    assert.match(validatePageRequest(1, 101) ?? '', /1 to 100/);
  });
});

describe("formatting, in the user's locale", () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  afterEach(() => configureL10n({}));

  it('says how long ago, briefly, with Intl', () => {
    assert.equal(relativeTime('2026-11-22T11:59:50Z', now), 'now');
    assert.equal(relativeTime('2026-11-22T11:55:00Z', now), '5 min. ago');
    assert.equal(relativeTime('2026-11-22T09:00:00Z', now), '3 hr. ago');
    assert.equal(relativeTime('2026-11-21T12:00:00Z', now), '1 day ago');
    assert.equal(relativeTimeLong('2026-11-21T12:00:00Z', now), 'yesterday');
    assert.equal(relativeTime('2026-11-19T12:00:00Z', now), '3 days ago');
    assert.equal(relativeTime('2026-08-22T12:00:00Z', now), '3 mo. ago');
    assert.equal(relativeTime('2024-11-01T12:00:00Z', now), '2 yr. ago');
    assert.equal(relativeTime('2026-11-22T12:10:00Z', now), 'in 10 min.');
    assert.equal(relativeTimeLong('2026-11-22T11:55:00Z', now), '5 minutes ago');
    assert.equal(relativeTime('not a date', now), 'unknown');
  });

  it('formats counts, gigabytes, percentages and dates for English', () => {
    assert.equal(formatCount(1234567), '1,234,567');
    assert.equal(formatGb(7.346), '7.35 GB');
    assert.equal(formatGb(1234.5), '1,234.50 GB');
    assert.equal(formatPercent(82.4), '82%');
    assert.equal(formatPercent(7.25), '7.3%');
    assert.equal(absoluteTime('2026-11-19T14:03:09Z'), 'Nov 19, 2026, 2:03 PM UTC');
    assert.equal(absoluteTime('garbage'), 'garbage');
    assert.equal(truncate('abcdef', 4), 'abc…');
    assert.equal(truncate('👍👍👍', 2), '👍…');
  });

  it("formats for another locale when asked, or when the seam is given one (VS Code's display language)", () => {
    assert.equal(formatCount(1234567, 'de'), '1.234.567');
    assert.equal(formatGb(1234.5, 'de'), '1.234,50\u00a0GB');
    assert.equal(formatPercent(7.25, 'de'), '7,3\u00a0%');
    configureL10n({ locale: 'de' });
    assert.equal(formatCount(1234567), '1.234.567');
    assert.equal(formatPercent(82.4), '82\u00a0%');
    assert.equal(relativeTime('2026-11-19T12:00:00Z', now), 'vor 3 Tagen');
    assert.equal(relativeTime('2026-11-22T11:59:50Z', now), 'jetzt');
    assert.equal(absoluteTime('2026-11-19T14:03:09Z'), '19. Nov. 2026, 14:03 UTC');
    configureL10n({});
    assert.equal(formatCount(1234567), '1,234,567', 'English again without a locale');
  });
});

describe('the translation seam of src/core', () => {
  afterEach(() => configureL10n({}));

  it('gives the English message with its placeholders filled until it is configured', () => {
    assert.equal(
      l10n.t('{0} has no month {1}; months run from 01 to 12.', '2026-13', '13'),
      '2026-13 has no month 13; months run from 01 to 12.',
    );
    assert.equal(
      fillPlaceholders('{0} of {1}, {2}', 1, 'two'),
      '1 of two, {2}',
      'a placeholder without an argument stays',
    );
  });

  it('routes the messages of src/core through the translation the extension gives it', () => {
    const asked: string[] = [];
    configureL10n({
      translate: (message, ...args) => (asked.push(message), `«${fillPlaceholders(message, ...args)}»`),
    });
    assert.equal(validateName(' '), '«A name is required.»');
    assert.equal(validateBillingPeriod('2026-13'), '«2026-13 has no month 13; months run from 01 to 12.»');
    assert.equal(relativeTime('not a date'), '«unknown»');
    assert.deepEqual(
      asked,
      ['A name is required.', '{0} has no month {1}; months run from 01 to 12.', 'unknown'],
      'the message keys, as in the bundle',
    );
  });
});
