import assert from 'node:assert/strict';
import { describeEngagement, engagementMarkdown, escapeMarkdown } from '../../src/core/engagementText';
import { displayText } from '../../src/core/text';
import type { Engagement } from '../../src/api/types';

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
