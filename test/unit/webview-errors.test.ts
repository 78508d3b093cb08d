// Errors the webviews report reach the log bounded (issue 27): one line each, at most
// REPORT_CHARS characters, at most REPORT_LIMIT per panel and then one line saying so.
import assert from 'node:assert/strict';
import { oneLine, REPORT_CHARS, REPORT_LIMIT, WebviewErrorReports } from '../../src/core/webviewErrors';

describe('Webview error reports (unit)', () => {
  const rows: Array<[string, string, string]> = [
    ['a plain message', 'TypeError: x is undefined', 'TypeError: x is undefined'],
    [
      'a stack on many lines',
      'Error: boom\n    at a (main.js:1)\r\n    at b (main.js:2)',
      'Error: boom at a (main.js:1) at b (main.js:2)',
    ],
    ['tabs and control characters', 'a\tb\u0000c\u001bd\u0085e', 'a b c d e'],
    ['Unicode line and paragraph separators', 'one\u2028two\u2029three', 'one two three'],
    ['white space around', '  \n spaced \n ', 'spaced'],
    ['nothing', '', ''],
  ];
  for (const [what, input, line] of rows)
    it(`${what}: one line`, () => {
      assert.equal(oneLine(input), line);
    });

  it(`a long report is cut at ${REPORT_CHARS} characters with an ellipsis, never inside a surrogate pair`, () => {
    const cut = oneLine('🚀'.repeat(REPORT_CHARS * 10));
    assert.equal(Array.from(cut).length, REPORT_CHARS);
    assert.ok(cut.endsWith('🚀…'));
    assert.equal(oneLine('x'.repeat(REPORT_CHARS)), 'x'.repeat(REPORT_CHARS), 'exactly the limit is kept whole');
  });

  it(`a flood: ${REPORT_LIMIT} lines are written, then one that says the rest are not, then none`, () => {
    const reports = new WebviewErrorReports();
    const written = Array.from({ length: 1000 }, (_, i) => reports.line(`Error ${i}\n at loop`)).filter(
      (line) => line !== undefined,
    );
    assert.equal(written.length, REPORT_LIMIT + 1);
    assert.deepEqual(written.slice(0, 2), ['Error 0 at loop', 'Error 1 at loop']);
    assert.match(
      written.at(-1)!,
      new RegExp(`more errors than ${REPORT_LIMIT}; the rest from this webview are not written`),
    );
    assert.ok(written.every((line) => !line.includes('\n') && line.length <= REPORT_CHARS));
  });

  it('each panel has its own share', () => {
    const first = new WebviewErrorReports();
    for (let i = 0; i < REPORT_LIMIT + 5; i++) first.line('x');
    assert.equal(new WebviewErrorReports().line('y'), 'y');
  });
});
