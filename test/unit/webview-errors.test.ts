// Errors the webviews report reach the log bounded (issue 27): one line each, at most 300
// characters, at most 20 per panel and then one line saying so.
import assert from 'node:assert/strict';
import { oneLine, WebviewErrorReports } from '../../src/core/webviewErrors';

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

  it('a long report is cut at 300 characters with an ellipsis, never inside a surrogate pair', () => {
    const cut = oneLine('🚀'.repeat(3000));
    assert.equal(cut, `${'🚀'.repeat(299)}…`);
    assert.equal(Array.from(cut).length, 300);
    assert.equal(oneLine('x'.repeat(300)), 'x'.repeat(300), 'exactly the limit is kept whole');
    assert.equal(oneLine('x'.repeat(301)), `${'x'.repeat(299)}…`, 'one more is cut');
  });

  it('a flood: 20 lines are written, then one that says the rest are not, then none', () => {
    const reports = new WebviewErrorReports();
    const written = Array.from({ length: 1000 }, (_, i) => reports.line(`Error ${i}\n at loop`)).filter(
      (line) => line !== undefined,
    );
    assert.equal(written.length, 21);
    assert.deepEqual(written.slice(0, 2), ['Error 0 at loop', 'Error 1 at loop']);
    assert.equal(written[19], 'Error 19 at loop', 'the 20th report is written');
    assert.equal(written[20], 'more errors than 20; the rest from this webview are not written');
    assert.ok(written.every((line) => !line.includes('\n') && line.length <= 300));
  });

  it('each panel has its own share', () => {
    const first = new WebviewErrorReports();
    for (let i = 0; i < 25; i++) first.line('x');
    assert.equal(first.line('x'), undefined, 'the first panel has written its share');
    assert.equal(new WebviewErrorReports().line('y'), 'y');
  });
});
