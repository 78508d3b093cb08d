// The engagement details panel's protocol: what the host accepts from the webview, and what
// the panel shows of an engagement (every contract field, readable dates, every extra field,
// the actions a key may use).
import assert from 'node:assert/strict';
import type { Engagement } from '../../src/api/types';
import { DETAILS_ACTIONS, detailsView, parseDetailsMessage } from '../../src/engagements/detailsProtocol';
import { DETAILS_WORDS } from './support/clients';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const words = DETAILS_WORDS;

function engagement(extra: Record<string, unknown> = {}): Engagement {
  return {
    id: 'eng_1',
    name: 'Q3 Support Quality Review',
    description: 'Scores a weekly sample.\nSecond line.',
    type: 'quality-review',
    status: 'active',
    evaluationCount: 1234,
    createdAt: '2026-10-01T08:00:00Z',
    updatedAt: '2026-11-17T12:00:00Z',
    ...extra,
  };
}

describe('engagement details: protocol and view', () => {
  it('accepts exactly the messages of the protocol', () => {
    assert.deepEqual(parseDetailsMessage({ type: 'ready' }), { type: 'ready' });
    for (const action of DETAILS_ACTIONS)
      assert.deepEqual(parseDetailsMessage({ type: 'action', action, extra: 1 }), { type: 'action', action });
    assert.deepEqual(parseDetailsMessage({ type: 'webviewError', message: 'x'.repeat(900) }), {
      type: 'webviewError',
      message: 'x'.repeat(500),
    });
    for (const bad of [
      null,
      'ready',
      [],
      { type: 'action', action: 'delete' },
      { type: 'action', action: 'constructor' },
      { type: 'action' },
      { type: 'command', command: 'signOutAll' },
      { type: 'webviewError', message: 3 },
    ]) {
      assert.equal(parseDetailsMessage(bad), undefined, JSON.stringify(bad));
    }
  });

  it('shows every contract field, dates absolute and relative, and the description as text', () => {
    const view = detailsView(engagement(), { environment: 'Staging', words, readAt: NOW, now: NOW, canWrite: true });
    assert.equal(view.name, 'Q3 Support Quality Review');
    assert.deepEqual(view.status, { text: 'active', kind: 'active' });
    assert.deepEqual(
      view.fields.map((f) => [f.label, f.value, f.note]),
      [
        ['ID', 'eng_1', undefined],
        ['Type', 'quality-review', undefined],
        ['Status', 'active', undefined],
        ['Evaluations', '1,234', undefined],
        ['Created', 'Oct 1, 2026, 8:00 AM UTC', '1 mo. ago'],
        ['Updated', 'Nov 17, 2026, 12:00 PM UTC', '3 days ago'],
      ],
    );
    assert.equal(view.description, 'Scores a weekly sample.\nSecond line.');
    assert.equal(view.readAt, 'Nov 20, 2026, 12:00 PM UTC');
    assert.deepEqual(view.extras, []);
  });

  it('shows every field the contract does not name, as the service sent it', () => {
    const view = detailsView(engagement({ region: 'eu-west-1', owner: { team: 'qa' }, archived: false }), {
      environment: 'E',
      words,
      readAt: NOW,
      now: NOW,
      canWrite: true,
    });
    assert.deepEqual(view.extras, [
      { label: 'region', value: 'eu-west-1', code: true },
      { label: 'owner', value: '{"team":"qa"}', code: true },
      { label: 'archived', value: 'false', code: true },
    ]);
  });

  it('offers Edit and Change Status only to a key that may write', () => {
    assert.deepEqual(detailsView(engagement(), { environment: 'E', words, readAt: NOW, canWrite: true }).actions, [
      'edit',
      'changeStatus',
      'copyId',
      'copyLink',
      'refresh',
      'openUsageDashboard',
    ]);
    assert.deepEqual(detailsView(engagement(), { environment: 'E', words, readAt: NOW, canWrite: false }).actions, [
      'copyId',
      'copyLink',
      'refresh',
      'openUsageDashboard',
    ]);
    assert.deepEqual(
      detailsView(engagement(), {
        environment: 'E',
        words,
        readAt: NOW,
        canWrite: true,
        notice: 'another environment is active',
      }).actions,
      ['copyId'],
    );
  });

  it('an unknown status is written out; no description is none', () => {
    const view = detailsView(engagement({ status: 'paused', description: '   ' }), {
      environment: 'E',
      words,
      readAt: NOW,
      canWrite: true,
    });
    assert.deepEqual(view.status, { text: 'paused', kind: 'other' });
    assert.equal(view.description, undefined);
  });

  it('a name, type or status the service sent none of readably shows as unknown, and Change Status is offered (issue 45)', () => {
    const view = detailsView(engagement({ name: undefined, type: undefined, status: undefined }), {
      environment: 'E',
      words,
      readAt: NOW,
      canWrite: true,
    });
    assert.equal(view.name, 'eng_1 (name unknown)');
    assert.deepEqual(view.status, { text: 'unknown', kind: 'unknown' });
    assert.deepEqual(
      view.fields.filter((f) => f.label === 'Type' || f.label === 'Status').map((f) => [f.label, f.value]),
      [
        ['Type', 'unknown'],
        ['Status', 'unknown'],
      ],
    );
    assert.ok(view.actions.includes('changeStatus'));
  });
});
