// Labels of engagements in the tree and quick picks: shortened with an ellipsis, one line,
// without bidirectional controls, and never empty.
import assert from 'node:assert/strict';
import { LABEL_LIMIT, shortLabel } from '../../src/core/text';

describe('core: short labels', () => {
  it('keeps a label within the limit as it is', () => {
    assert.equal(shortLabel('Q3 Support Quality Review', 'id'), 'Q3 Support Quality Review');
  });

  it('shortens a long name with an ellipsis, to the limit', () => {
    const label = shortLabel('x'.repeat(10_000), 'id');
    assert.equal(Array.from(label).length, LABEL_LIMIT);
    assert.ok(label.endsWith('…'));
  });

  it('never cuts a character in half (emoji are two UTF-16 units)', () => {
    const label = shortLabel('😀'.repeat(100), 'id', 10);
    assert.equal(label, `${'😀'.repeat(9)}…`);
  });

  it('keeps emoji sequences whole (zero-width joiners are part of them)', () => {
    assert.equal(shortLabel('🚀 Launch 👩‍👩‍👧‍👦 review', 'id'), '🚀 Launch 👩‍👩‍👧‍👦 review');
  });

  it('makes one line of line breaks, tabs and runs of spaces', () => {
    assert.equal(shortLabel('  first\n\nsecond\tthird  ', 'id'), 'first second third');
  });

  it('drops bidirectional controls, so a name cannot display reversed', () => {
    assert.equal(shortLabel('\u202Elive', 'id'), 'live');
  });

  it('shows the fallback (the id) when a name has nothing visible: a row is never blank', () => {
    for (const name of ['', '   ', '\n\t', '\u202E\u202C', '\u200B\u200B'])
      assert.equal(shortLabel(name, 'eng_42'), 'eng_42', JSON.stringify(name));
  });
});
