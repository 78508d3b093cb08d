import assert from 'node:assert/strict';
import type { Engagement } from '../../src/core/engagement';
import {
  applyQuery,
  defaultQuery,
  describeFilter,
  distinctValues,
  isFiltered,
  matchesFilter,
  normaliseQuery,
  sortEngagements,
} from '../../src/core/query';

let counter = 0;
function e(
  name: string,
  status: string,
  type: string,
  evaluationCount: number,
  created: string,
  updated: string,
): Engagement {
  counter++;
  return {
    id: `eng_${counter}`,
    name,
    status,
    type,
    evaluationCount,
    createdAt: `2026-${created}T00:00:00Z`,
    updatedAt: `2026-${updated}T00:00:00Z`,
  };
}

const items = [
  e('Zürich Onboarding', 'active', 'onboarding', 5, '01-10', '03-01'),
  e('alpha review', 'completed', 'quality-review', 40, '02-10', '02-11'),
  e('Beta Audit', 'paused', 'support-audit', 40, '03-10', '04-01'),
  e('Älter Audit 10', 'Active', 'support-audit', 0, '01-01', '01-02'),
  e('Älter Audit 9', 'archived', 'onboarding', 7, '05-01', '05-02'),
];
const names = (list: Engagement[]) => list.map((x) => x.name);

describe('sorting engagements', () => {
  it('sorts by updated, created, name and evaluations, each way', () => {
    assert.deepEqual(names(sortEngagements(items, 'updated', 'desc')), [
      'Älter Audit 9',
      'Beta Audit',
      'Zürich Onboarding',
      'alpha review',
      'Älter Audit 10',
    ]);
    assert.deepEqual(names(sortEngagements(items, 'created', 'asc')), [
      'Älter Audit 10',
      'Zürich Onboarding',
      'alpha review',
      'Beta Audit',
      'Älter Audit 9',
    ]);
    // Case- and accent-insensitive, numbers in names in numeric order.
    assert.deepEqual(names(sortEngagements(items, 'name', 'asc')), [
      'alpha review',
      'Älter Audit 9',
      'Älter Audit 10',
      'Beta Audit',
      'Zürich Onboarding',
    ]);
    // Ties (40 and 40) are broken by name, in both directions the same way.
    assert.deepEqual(names(sortEngagements(items, 'evaluations', 'desc')), [
      'alpha review',
      'Beta Audit',
      'Älter Audit 9',
      'Zürich Onboarding',
      'Älter Audit 10',
    ]);
    assert.deepEqual(names(sortEngagements(items, 'evaluations', 'asc')).slice(3), ['alpha review', 'Beta Audit']);
  });

  it('puts unreadable dates last when newest come first, and does not change its input', () => {
    const broken = { ...items[0], id: 'x', name: 'Broken', updatedAt: 'soon' };
    const before = names(items);
    assert.equal(sortEngagements([broken, ...items], 'updated', 'desc').at(-1)?.name, 'Broken');
    assert.deepEqual(names(items), before);
  });
});

describe('filtering and grouping engagements', () => {
  it('filters by status (any case), type and name (case and accents ignored)', () => {
    assert.deepEqual(names(items.filter((x) => matchesFilter(x, { statuses: ['active'] }))), [
      'Zürich Onboarding',
      'Älter Audit 10',
    ]);
    assert.deepEqual(names(items.filter((x) => matchesFilter(x, { types: ['support-audit'] }))), [
      'Beta Audit',
      'Älter Audit 10',
    ]);
    assert.deepEqual(names(items.filter((x) => matchesFilter(x, { nameContains: 'alter' }))), [
      'Älter Audit 10',
      'Älter Audit 9',
    ]);
    assert.deepEqual(names(items.filter((x) => matchesFilter(x, { nameContains: 'ZURICH' }))), ['Zürich Onboarding']);
    assert.deepEqual(
      names(
        items.filter((x) =>
          matchesFilter(x, { statuses: ['active', 'paused'], types: ['support-audit'], nameContains: 'a' }),
        ),
      ),
      ['Beta Audit', 'Älter Audit 10'],
    );
    assert.equal(items.filter((x) => matchesFilter(x, {})).length, items.length);
  });

  it('groups by status with active and completed first, one group per status whatever its case', () => {
    const result = applyQuery(items, { ...defaultQuery(), group: 'status' });
    assert.deepEqual(
      result.groups?.map((g) => `${g.label}:${g.items.length}`),
      ['active:2', 'completed:1', 'archived:1', 'paused:1'],
    );
    assert.deepEqual(
      names(result.groups[0].items),
      ['Zürich Onboarding', 'Älter Audit 10'],
      'groups keep the sort order',
    );
  });

  it('groups by type in name order, after filtering', () => {
    const result = applyQuery(items, {
      sort: 'name',
      direction: 'asc',
      group: 'type',
      filter: { nameContains: 'audit' },
    });
    assert.deepEqual(
      result.groups?.map((g) => g.key),
      ['onboarding', 'support-audit'],
    );
    assert.deepEqual(names(result.items), ['Älter Audit 9', 'Älter Audit 10', 'Beta Audit']);
    assert.equal(applyQuery(items, defaultQuery()).groups, undefined);
  });

  it('lists the values seen, each once', () => {
    assert.deepEqual(distinctValues(items, 'status'), ['active', 'completed', 'paused', 'archived']);
    assert.deepEqual(distinctValues(items, 'type'), ['onboarding', 'quality-review', 'support-audit']);
  });

  it('describes the active filter for the view', () => {
    assert.equal(describeFilter({}), '');
    assert.equal(isFiltered({ statuses: [], nameContains: '  ' }), false);
    assert.equal(
      describeFilter({ statuses: ['active', 'paused'], types: ['onboarding'], nameContains: ' audit ' }),
      'status: active, paused · type: onboarding · name: "audit"',
    );
    assert.equal(describeFilter({ types: ['x'] }, { status: 'Status', type: 'Typ', name: 'Name' }), 'Typ: x');
  });
});

describe('engagements whose name, type or status is unknown (issue 45)', () => {
  // As parseEngagement reads a row without them: the field absent.
  const unknown = (field: 'name' | 'type' | 'status', from: Engagement): Engagement => {
    const copy = { ...from, id: `${from.id}-no-${field}` };
    delete copy[field];
    return copy;
  };
  const rows = [
    unknown('name', items[1]),
    items[0],
    unknown('status', items[2]),
    unknown('type', items[3]),
    unknown('status', items[4]),
  ];

  it('an unknown name sorts after every known one, either way', () => {
    for (const direction of ['asc', 'desc'] as const)
      assert.equal(sortEngagements(rows, 'name', direction).at(-1)?.id, `${items[1].id}-no-name`, direction);
    assert.deepEqual(names(sortEngagements(rows, 'name', 'asc')), [
      'Älter Audit 9',
      'Älter Audit 10',
      'Beta Audit',
      'Zürich Onboarding',
      undefined,
    ]);
  });

  it('an unknown value matches no value a filter names', () => {
    assert.deepEqual(names(rows.filter((x) => matchesFilter(x, { statuses: ['paused', 'archived', 'active'] }))), [
      'Zürich Onboarding',
      'Älter Audit 10',
    ]);
    assert.deepEqual(names(rows.filter((x) => matchesFilter(x, { types: ['support-audit'] }))), ['Beta Audit']);
    assert.deepEqual(names(rows.filter((x) => matchesFilter(x, { nameContains: 'a' }))), [
      'Zürich Onboarding',
      'Beta Audit',
      'Älter Audit 10',
      'Älter Audit 9',
    ]);
  });

  it('those whose status or type is unknown are one group, after every other; no value is offered for them', () => {
    const byStatus = applyQuery(rows, { ...defaultQuery(), group: 'status' });
    assert.deepEqual(
      byStatus.groups?.map((g) => [g.key, g.label, names(g.items)]),
      [
        ['active', 'active', ['Zürich Onboarding', 'Älter Audit 10']],
        ['completed', 'completed', [undefined]],
        [undefined, undefined, ['Älter Audit 9', 'Beta Audit']],
      ],
    );
    const byType = applyQuery(rows, { ...defaultQuery(), group: 'type' });
    assert.deepEqual(
      byType.groups?.map((g) => [g.key, g.items.length]),
      [
        ['onboarding', 2],
        ['quality-review', 1],
        ['support-audit', 1],
        [undefined, 1],
      ],
    );
    assert.deepEqual(distinctValues(rows, 'status'), ['completed', 'active']);
    assert.deepEqual(distinctValues(rows, 'type'), ['quality-review', 'onboarding', 'support-audit']);
  });
});

describe('the persisted query', () => {
  it('reads back what was saved and falls back for anything unknown', () => {
    const saved = {
      sort: 'name',
      direction: 'desc',
      group: 'type',
      filter: { statuses: ['active', 'active', 3], nameContains: ' x ' },
    };
    assert.deepEqual(normaliseQuery(JSON.parse(JSON.stringify(saved))), {
      sort: 'name',
      direction: 'desc',
      group: 'type',
      filter: { statuses: ['active'], nameContains: 'x' },
    });
    assert.deepEqual(normaliseQuery(undefined), defaultQuery());
    assert.deepEqual(normaliseQuery({ sort: 'colour', group: 'planet', filter: 'x' }), defaultQuery());
    assert.equal(normaliseQuery({ sort: 'name' }).direction, 'asc', 'a missing direction is the natural one');
  });
});

describe('applying a query again', () => {
  it('gives the same result for the same list and query, and a fresh one when either is replaced', () => {
    const list = [e('Beta', 'active', 't', 1, '01-01', '01-02'), e('alpha', 'active', 't', 1, '01-01', '01-03')];
    const [b, a] = list.map((x) => x.id);
    const byName = normaliseQuery({ sort: 'name', direction: 'asc' });
    const first = applyQuery(list, byName);
    assert.deepEqual(
      first.items.map((x) => x.id),
      [a, b],
    );
    assert.equal(applyQuery(list, byName), first, 'not sorted again');
    const longer = [...list, e('Aardvark', 'active', 't', 1, '01-01', '01-04')];
    const c = longer[2].id;
    assert.deepEqual(
      applyQuery(longer, byName).items.map((x) => x.id),
      [c, a, b],
      'a new list is sorted',
    );
    const reversed = normaliseQuery({ sort: 'name', direction: 'desc' });
    assert.deepEqual(
      applyQuery(longer, reversed).items.map((x) => x.id),
      [b, a, c],
      'a new query applies',
    );
  });
});
