import assert from 'node:assert/strict';
import type { Engagement } from '../../src/api/types';
import { changedFields, differingFields, hasChanges } from '../../src/api/engagements';
import { mapLimited, runLimited } from '../../src/core/concurrency';
import {
  STATUS_COLORS,
  describeEngagement,
  engagementMarkdown,
  escapeMarkdown,
  inlineCode,
  nameText,
  statusChoices,
  statusLook,
  withUnknownFields,
} from '../../src/core/engagementText';
import { until } from './support/until';

const NOW = Date.parse('2026-11-20T12:00:00Z');

function engagement(overrides: Partial<Engagement> = {}): Engagement {
  return {
    id: 'eng_1',
    name: 'Q3 Support Quality Review',
    type: 'quality-review',
    status: 'active',
    evaluationCount: 12,
    createdAt: '2026-10-01T08:00:00Z',
    updatedAt: '2026-11-17T12:00:00Z',
    description: 'Scores a weekly sample.',
    ...overrides,
  };
}

describe('engagement status look', () => {
  it('gives active and completed a coloured icon from the contributed colours', () => {
    assert.deepEqual(statusLook('active'), {
      kind: 'active',
      icon: 'circle-large-filled',
      colorId: 'engagementUsage.status.active',
      text: 'active',
    });
    assert.deepEqual(statusLook('completed'), {
      kind: 'completed',
      icon: 'pass-filled',
      colorId: 'engagementUsage.status.completed',
      text: 'completed',
    });
    assert.equal(statusLook(' Active ').kind, 'active', 'case and spaces do not matter');
  });

  it('gives any other status a neutral icon, no colour and the raw text', () => {
    for (const status of ['paused', 'archived', 'On Hold – legal', '🚧']) {
      const look = statusLook(status);
      assert.equal(look.kind, 'other');
      assert.equal(look.icon, 'circle-large-outline');
      assert.equal(look.colorId, undefined);
      assert.equal(look.text, status);
    }
    assert.equal(statusLook('').text, '(no status)');
  });

  it('gives a status the service sent none of readably its own icon, no colour, and the word unknown', () => {
    assert.deepEqual(statusLook(undefined), { kind: 'unknown', icon: 'question', text: 'unknown' });
  });

  it('the colour ids are the ones package.json contributes', async () => {
    const manifest = (await import('../../package.json')).default as { contributes: { colors: Array<{ id: string }> } };
    const contributed = manifest.contributes.colors.map((c) => c.id);
    for (const id of Object.values(STATUS_COLORS)) assert.ok(contributed.includes(id), id);
  });

  it('offers active and completed, then the statuses seen, each once', () => {
    assert.deepEqual(statusChoices([]), ['active', 'completed']);
    assert.deepEqual(statusChoices(['paused', 'Active', 'archived', 'paused', ' ']), [
      'active',
      'completed',
      'paused',
      'archived',
    ]);
  });
});

describe('engagement texts', () => {
  it('describes an engagement as type · evaluations · updated when', () => {
    assert.equal(describeEngagement(engagement(), NOW), 'quality-review · 12 evaluations · updated 3 days ago');
    assert.equal(
      describeEngagement(engagement({ evaluationCount: 1, updatedAt: '2026-11-20T11:58:00Z' }), NOW),
      'quality-review · 1 evaluation · updated 2 min. ago',
    );
    assert.equal(
      describeEngagement(engagement({ evaluationCount: 12345 }), NOW),
      'quality-review · 12,345 evaluations · updated 3 days ago',
    );
    assert.equal(
      describeEngagement(engagement({ updatedAt: 'not a date' }), NOW),
      'quality-review · 12 evaluations · updated unknown',
    );
  });

  it('says unknown for a name, type or status the service sent none of readably (issue 45)', () => {
    const unknown = engagement({ name: undefined, type: undefined, status: undefined });
    assert.equal(describeEngagement(unknown, NOW), 'type unknown · 12 evaluations · updated 3 days ago');
    const md = engagementMarkdown(unknown, { now: NOW });
    assert.ok(md.startsWith('## eng\\_1 \\(name unknown\\)\n'), 'the id, escaped, and that the name is unknown');
    assert.match(md, /\| Type \| unknown \|/);
    assert.match(md, /\| Status \| unknown \|/);
    assert.match(engagementMarkdown(unknown, { now: NOW, heading: false }), /^\*\*Name\*\*\n\nunknown$/m);
    assert.equal(nameText(unknown), 'eng_1 (name unknown)');
    assert.equal(nameText(engagement()), 'Q3 Support Quality Review');
    assert.deepEqual(
      Object.entries(withUnknownFields(unknown)).filter(([field]) => ['name', 'type', 'status'].includes(field)),
      [
        ['name', 'unknown'],
        ['type', 'unknown'],
        ['status', 'unknown'],
      ],
    );
  });

  it('takes its words from the caller (translations)', () => {
    const words = {
      evaluations: (_n: number, f: string) => `${f} Bewertungen`,
      updated: (r: string) => `geändert ${r}`,
      fields: {} as never,
    };
    assert.equal(describeEngagement(engagement(), NOW, words), 'quality-review · 12 Bewertungen · geändert 3 days ago');
  });

  it('writes every field as Markdown: id as code, times absolute and relative, description', () => {
    const md = engagementMarkdown(engagement({ region: 'eu-west-1' }), { now: NOW });
    assert.match(md, /^## Q3 Support Quality Review$/m);
    assert.match(md, /\| ID \| `eng_1` \|/);
    assert.match(md, /\| Type \| quality\\-review \|/);
    assert.match(md, /\| Status \| active \|/);
    assert.match(md, /\| Evaluations \| 12 \|/);
    assert.match(md, /\| Created \| Oct 1, 2026, 8:00 AM UTC \(1 mo. ago\) \|/);
    assert.match(md, /\| Updated \| Nov 17, 2026, 12:00 PM UTC \(3 days ago\) \|/);
    assert.match(md, /Scores a weekly sample\\\./);
    assert.match(md, /Other fields[\s\S]*- region: `eu-west-1`/, 'fields the contract does not name are shown too');
    assert.match(engagementMarkdown(engagement({ description: undefined }), { now: NOW }), /\*No description\.\*/);
    const tooltip = engagementMarkdown(engagement(), { now: NOW, heading: false });
    assert.match(tooltip, /^\*\*Name\*\*\n\nQ3 Support Quality Review$/m);
    assert.ok(
      tooltip.indexOf('| ID |') < tooltip.indexOf('Q3 Support') &&
        tooltip.indexOf('| Status |') < tooltip.indexOf('Q3 Support'),
      'ID, type and status come before the name',
    );
  });

  it('escapes what the service sends, so it cannot add links, HTML or break the table', () => {
    const md = engagementMarkdown(
      engagement({ name: '[click](command:x) <img src=x>', type: 'a|b\nc', id: 'id`with|pipe' }),
      { now: NOW },
    );
    assert.ok(!md.includes('[click](command:x)'));
    assert.ok(!/(^|[^\\])<img/.test(md), 'no unescaped HTML');
    assert.match(md, /\\\[click\\\]\\\(command:x\\\) \\<img src=x\\>/);
    assert.match(md, /\| Type \| a\\\|b c \|/);
    assert.match(md, /\| ID \| ``id`with\\\|pipe`` \|/);
    assert.equal(escapeMarkdown('*bold* _x_ # h'), '\\*bold\\* \\_x\\_ \\# h');
    assert.equal(inlineCode('`x`'), '`` `x` ``');
  });
});

describe('changed fields of an update', () => {
  const shown = engagement({ description: 'Old text' });

  it('keeps only fields whose value differs (trimmed)', () => {
    assert.deepEqual(changedFields(shown, { name: '  Q3 Support Quality Review ' }), {});
    assert.deepEqual(changedFields(shown, { name: 'New name ' }), { name: 'New name' });
    assert.deepEqual(changedFields(shown, { description: 'Old text', status: 'completed' }), { status: 'completed' });
    assert.deepEqual(
      changedFields(shown, { description: '' }),
      { description: '' },
      'clearing a description is a change',
    );
    assert.deepEqual(
      changedFields(engagement({ description: undefined }), { description: '' }),
      {},
      'no description and empty are the same',
    );
    assert.equal(hasChanges({}), false);
    assert.equal(hasChanges({ description: '' }), true);
  });

  it('names the fields that differ between two versions', () => {
    assert.deepEqual(differingFields(shown, { ...shown, name: 'X', evaluationCount: 13, updatedAt: 'later' }), [
      'name',
      'evaluationCount',
    ]);
  });

  /** Tasks that end when the test opens them, each once it has started. */
  const gates = () => {
    const waiting = new Map<number, () => void>();
    return {
      pass: (i: number) => new Promise<void>((resolve) => waiting.set(i, resolve)),
      open: async (i: number) => {
        await until(() => waiting.has(i), `task ${i} started`);
        waiting.get(i)!();
      },
    };
  };

  it('runs tasks with bounded concurrency and keeps the order of results', async () => {
    const gate = gates();
    let running = 0;
    let peak = 0;
    const mapping = mapLimited([5, 1, 4, 2, 3, 0], 2, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await gate.pass(n);
      running--;
      if (n === 4) throw new Error('four');
      return n * 10;
    });
    // Ended in another order than given: 1 first, 3 last.
    for (const n of [1, 5, 2, 4, 0, 3]) await gate.open(n);
    const results = await mapping;
    assert.equal(peak, 2);
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
      [50, 10, 'four', 20, 30, 0],
    );
  });

  it('the pool hands out work as it learns of it, stops starting tasks after a failure, and throws the first error', async () => {
    let planned = 3;
    const started: number[] = [];
    let n = 0;
    const gate = gates();
    const pool = runLimited(2, () => {
      if (n >= planned) return undefined;
      const i = n++;
      return async () => {
        started.push(i);
        await gate.pass(i);
        // A task that learns there is more (as a page with a larger total does).
        if (i === 0) planned = 6;
      };
    });
    // Task 2 ends while 0 still runs: its worker finds nothing more and stops; then 0 learns of three more.
    for (const i of [1, 2]) await gate.open(i);
    assert.deepEqual(started, [0, 1, 2]);
    for (const i of [0, 3, 4, 5]) await gate.open(i);
    await pool;
    assert.deepEqual(started, [0, 1, 2, 3, 4, 5]);

    const ran: number[] = [];
    let aborted = 0;
    let k = 0;
    const failing = gates();
    const failed = assert.rejects(
      runLimited(
        2,
        () => {
          if (k >= 10) return undefined;
          const i = k++;
          return async () => {
            ran.push(i);
            await failing.pass(i);
            if (i === 1) throw new Error('page 2 failed');
          };
        },
        () => aborted++,
      ),
      /page 2 failed/,
    );
    await failing.open(1);
    await until(() => aborted === 1, 'told of the failure');
    await failing.open(0);
    await failed;
    assert.equal(aborted, 1, 'told once, at the first failure');
    assert.deepEqual(ran, [0, 1], 'nothing new started after the failure');
  });
});
