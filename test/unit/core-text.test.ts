import assert from 'node:assert/strict';
import { describeEngagement, engagementMarkdown, escapeLine, escapeMarkdown } from '../../src/core/engagementText';
import { displayText, safeText } from '../../src/core/text';
import type { Engagement } from '../../src/core/engagement';
import { RENDERERS } from './support/renderers';

describe('text from the service, as shown', () => {
  it('drops bidirectional overrides, embeddings and isolates, so "\\u202Elive" cannot show as "evil"', () => {
    assert.equal(displayText('\u202Elive'), 'live');
    assert.equal(displayText('a\u202Ab\u202Bc\u202Cd\u202De\u2066f\u2067g\u2068h\u2069'), 'abcdefgh');
  });

  it('keeps right-to-left scripts, emoji and ordinary text as they are', () => {
    for (const text of ['שלום עולם', 'مرحبا', 'Ünïcödé 🚀 review', '']) assert.equal(displayText(text), text);
  });

  it('applies to the tree description and to every field of the tooltip', () => {
    const engagement: Engagement = {
      id: 'eng_\u202E1',
      name: 'Q3 \u202Eweiver',
      description: 'see \u2066this\u2069',
      type: 'audit\u202E',
      status: 'active',
      evaluationCount: 2,
      createdAt: '2026-11-01T00:00:00Z',
      updatedAt: '2026-11-02T00:00:00Z',
    };
    const now = Date.parse('2026-11-03T00:00:00Z');
    assert.ok(describeEngagement(engagement, now).startsWith('audit · 2 evaluations'));
    const markdown = engagementMarkdown(engagement, { now, heading: true });
    assert.doesNotMatch(markdown, /[\u202A-\u202E\u2066-\u2069]/);
    assert.match(markdown, /weiver/);
    assert.equal(escapeMarkdown('\u202E[x](command:evil)'), '\\[x\\]\\(command:evil\\)');
  });
});

describe('one-line renderings: every line terminator folds into one space (issue 34)', () => {
  const TERMINATORS: Array<[string, string]> = [
    ['CR LF', '\r\n'],
    ['LF', '\n'],
    ['a lone CR', '\r'],
    ['VT', '\v'],
    ['FF', '\f'],
    ['NEL (U+0085)', '\u0085'],
    ['LS (U+2028)', '\u2028'],
    ['PS (U+2029)', '\u2029'],
  ];
  const BREAK = /[\n\r\v\f\u0085\u2028\u2029]/;

  for (const [terminator, ch] of TERMINATORS)
    for (const { name: renderer, render } of RENDERERS.filter((r) => r.oneLine))
      it(`${terminator} in a name, through ${renderer}: no line break`, () => {
        const shown = render(`Real${ch}- “Forged” (eng_2): status: active → paused`);
        assert.doesNotMatch(shown, BREAK, JSON.stringify(shown));
        assert.match(shown, /Real \\?-/, 'one space where the break was');
      });

  it('a name built to forge a second confirmation line renders as one line: two engagements, two lines', () => {
    for (const [terminator, ch] of TERMINATORS) {
      const names = [`Real${ch}- “Forged” (eng_9): status: active → paused`, 'Second'];
      // As chat/confirm.ts writes each engagement of a change.
      const message = names.map((name, i) => `- “${escapeLine(name)}” (eng_${i}): status: active → paused`).join('\n');
      assert.equal(message.split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/).length, 2, terminator);
    }
  });

  it('multi-line Markdown: each terminator is a visible hard line break, never a new block', () => {
    for (const [terminator, ch] of TERMINATORS) {
      const shown = escapeMarkdown(`first${ch}# heading${ch}===${ch}- item`);
      assert.equal(shown, 'first  \n\\# heading  \n\\===  \n\\- item', terminator);
    }
    assert.equal(escapeMarkdown('a\r\n\r\nb'), 'a  \n  \nb', 'CR LF is one break');
  });

  it('engagement Markdown: a name with any terminator stays the heading; an extra field stays one list item', () => {
    for (const [terminator, ch] of TERMINATORS) {
      const markdown = engagementMarkdown(
        {
          id: `eng${ch}1`,
          name: `Real${ch}## Forged`,
          type: `t${ch}| x |`,
          status: 'active',
          evaluationCount: 1,
          createdAt: '2026-11-01T00:00:00Z',
          updatedAt: '2026-11-02T00:00:00Z',
          note: `a${ch}- forged item`,
        },
        { now: Date.parse('2026-11-03T00:00:00Z') },
      );
      const lines = markdown.split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/);
      assert.equal(lines[0], '## Real \\#\\# Forged', terminator);
      assert.ok(lines.includes('| ID | `eng 1` |'), terminator);
      assert.ok(lines.includes('- note: `a - forged item`'), `${terminator}: ${markdown}`);
    }
  });

  it('safeText (multi-line messages): every terminator is a line feed, nothing else breaks a line', () => {
    for (const [terminator, ch] of TERMINATORS) assert.equal(safeText(`a${ch}b`), 'a\nb', terminator);
  });
});
