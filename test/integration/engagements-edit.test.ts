// Creating and updating engagements inside a real VS Code, through the same input flows a
// person answers (ScriptedUi), against the reference service: only changed fields are sent,
// conflicts are asked about, failures keep the input, read-only keys lose write actions.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { BACK, commandId, pickByLabel, useEnvironment, waitFor } from './support/helpers';
import { engagementsSuite } from './support/engagementsSuite';

describe('Engagements: create and update', function () {
  this.timeout(60_000);
  const suite = engagementsSuite();
  const { eng, run, items, seeded, requests, patches, test } = suite;

  test('creates an engagement through name → type → description → confirm, with Back, then reveals it', async () => {
    suite.ctx.ui.answer(
      'Draft',
      BACK,
      (prompt) => {
        assert.equal(prompt.value, 'Draft', 'Back keeps the answer');
        return '  Onboarding Sprint 7 ';
      },
      (prompt, step) => {
        assert.ok(prompt.items?.includes('onboarding'), 'the types seen are offered');
        return pickByLabel('onboarding')(prompt, step);
      },
      'First week of calls',
      pickByLabel('Create'),
    );
    await run('createEngagement');
    const steps = suite.ctx.ui.prompts.map((p) => `${p.step}/${p.totalSteps}`);
    assert.deepEqual(steps, ['1/4', '2/4', '1/4', '2/4', '3/4', '4/4']);
    const posts = requests('POST');
    assert.equal(posts.length, 1);
    assert.deepEqual(posts[0].body, {
      name: 'Onboarding Sprint 7',
      type: 'onboarding',
      description: 'First week of calls',
    });
    const created = seeded().find((e) => e.name === 'Onboarding Sprint 7');
    assert.ok(created);
    const item = (await items()).find((i) => i.id === created.id);
    assert.ok(item, 'the new engagement is in the tree');
    assert.equal(item.icon, 'circle-large-filled');
    await waitFor(() => eng().selection().includes(created.id), 'the new engagement to be revealed and selected');
  });

  test('creates with a type typed freely and no description', async () => {
    suite.ctx.ui.answer(
      'Pilot',
      (_prompt, step) => {
        assert.ok('freeEntry' in step && step.freeEntry, 'the type step takes free entry');
        assert.equal(step.freeEntry.validate?.('  '), 'Enter a type.');
        return step.freeEntry.value(' pilot-study ');
      },
      '',
      pickByLabel('Create'),
    );
    await run('createEngagement');
    assert.deepEqual(requests('POST')[0].body, { name: 'Pilot', type: 'pilot-study' });
    assert.equal(eng().totalCount(), 61);
  });

  test('an empty name is refused in the input and nothing is sent when the flow is dismissed', async () => {
    suite.ctx.ui.answer('   ', undefined);
    await run('createEngagement');
    assert.deepEqual(suite.ctx.ui.prompts[0].rejected, ['Enter a name.']);
    assert.equal(requests('POST').length, 0);
  });

  test('renames, edits the description and changes the status: the PATCH holds only the changed field', async () => {
    const target = (await items())[0];
    const before = { ...seeded().find((e) => e.id === target.id)! };
    const newStatus = before.status === 'completed' ? 'active' : 'completed';
    suite.ctx.ui.answer((prompt) => {
      assert.equal(prompt.value, before.name, 'the current name is prefilled');
      return 'Renamed review';
    });
    await run('renameEngagement', target.id);
    suite.ctx.ui.answer('A new description');
    await run('editEngagementDescription', target.id);
    suite.ctx.ui.answer((prompt, step) => {
      assert.deepEqual(prompt.items?.slice(0, 2), ['active', 'completed']);
      assert.ok(prompt.items?.includes('paused') && prompt.items.includes('archived'), 'statuses seen are offered');
      assert.ok('freeEntry' in step && step.freeEntry, 'a status can be typed');
      return newStatus;
    });
    await run('changeEngagementStatus', target.id);
    assert.deepEqual(
      patches().map((r) => r.body),
      [{ name: 'Renamed review' }, { description: 'A new description' }, { status: newStatus }],
    );
    assert.equal(requests('GET', `/v1/engagements/`).length, 3, 'each update re-read the engagement first');
    const now = (await items()).find((i) => i.id === target.id)!;
    assert.equal(now.label, 'Renamed review');
    assert.match(now.tooltip ?? '', /A new description/);
  });

  test('Edit… asks what to change (never the type); an unchanged value sends nothing', async () => {
    const target = (await items())[1];
    suite.ctx.ui.answer(
      (prompt, step) => {
        assert.deepEqual(prompt.items, ['Rename…', 'Edit Description…', 'Change Status…']);
        assert.deepEqual([prompt.step, prompt.totalSteps], [1, 2]);
        return pickByLabel('Rename')(prompt, step);
      },
      (prompt) => {
        assert.equal(prompt.step, 2);
        return prompt.value;
      },
    );
    await run('editEngagement', target.id);
    assert.equal(patches().length, 0, 'nothing is sent when nothing changed');
    assert.match(eng().notices().at(-1) ?? '', /Nothing changed/);
  });

  test('from the Command Palette, a picker asks which engagement', async () => {
    const target = (await items())[3];
    suite.ctx.ui.answer((prompt, step) => {
      assert.equal(prompt.items?.length, eng().loaded().length, 'the loaded engagements are offered');
      return pickByLabel(target.label)(prompt, step);
    }, 'Picked from the palette');
    await run('renameEngagement');
    assert.deepEqual(
      patches().map((p) => [p.path, p.body]),
      [[`/v1/engagements/${target.id}`, { name: 'Picked from the palette' }]],
    );
  });

  test('multi-select Change Status applies to all selected and reports each failure by name', async () => {
    const shown = (await items()).filter((i) => seeded().find((e) => e.id === i.id)?.status !== 'archived').slice(0, 4);
    const nodes = shown.map((i) => ({ kind: 'engagement', id: i.id, engagement: seeded().find((e) => e.id === i.id) }));
    const failing = shown[1];
    suite.ctx.service.faults.add({ method: 'PATCH', path: `/engagements/${failing.id}`, kind: 'status', status: 500 });
    suite.ctx.ui.answer(pickByLabel('archived'));
    suite.ctx.ui.onMessages((m) => {
      suite.ctx.service.faults.clear();
      return m.actions.find((a) => a === 'Retry Failed');
    });
    await run('changeEngagementStatus', nodes[0], nodes);
    const report = suite.ctx.ui.messages.find((m) => m.level === 'error');
    assert.ok(report, 'the failure was reported');
    assert.match(report.text, new RegExp(`“${failing.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}”: .*HTTP 500`));
    assert.match(report.text, /1 of \d engagements/);
    for (const item of shown)
      assert.equal(seeded().find((e) => e.id === item.id)?.status, 'archived', `${item.label} is archived`);
    const bodies = patches().map((r) => r.body);
    assert.ok(
      bodies.every((b) => JSON.stringify(b) === '{"status":"archived"}'),
      'only the status is sent',
    );
    assert.equal(
      patches().filter((r) => r.path.endsWith(failing.id!)).length,
      2,
      'the failed one was sent again on Retry only',
    );
  });

  test('multi-select Change Status answered 202: each new status pending on its row, then shown; said as accepted, never failed', async () => {
    suite.ctx.service.setReading({ writes: 'accepted', acceptedDelayMs: 1_200 });
    try {
      const shown = (await items())
        .filter((i) => !['archived', 'paused'].includes(seeded().find((e) => e.id === i.id)?.status ?? ''))
        .slice(0, 3);
      const nodes = shown.map((i) => ({
        kind: 'engagement',
        id: i.id,
        engagement: seeded().find((e) => e.id === i.id),
      }));
      suite.ctx.ui.answer(pickByLabel('paused'));
      await run('changeEngagementStatus', nodes[0], nodes);
      assert.equal(patches().length, 3, 'each sent once');
      assert.match(
        eng().notices().at(-1) ?? '',
        /The service accepted the status “paused” of 3 engagements for processing/,
      );
      const rows = (await items()).filter((i) => shown.some((s) => s.id === i.id));
      assert.ok(
        rows.every((r) => r.description?.startsWith('pending · paused · ')),
        `pending: ${rows.map((r) => r.description).join(' | ')}`,
      );
      await waitFor(
        async () =>
          (await items())
            .filter((i) => shown.some((s) => s.id === i.id))
            .every((r) => r.description?.startsWith('paused · ')),
        'every row to show the status the service now holds',
        20_000,
      );
      for (const item of shown) assert.equal(seeded().find((e) => e.id === item.id)?.status, 'paused');
      assert.deepEqual(
        suite.ctx.ui.messages.filter((m) => m.level !== 'info'),
        [],
        'nothing reported as failed',
      );
    } finally {
      suite.ctx.service.setReading({});
    }
  });

  // A minute of looking (9 GETs): the extension's own schedule. The road of a 202 through
  // VS Code's fetch runs on both versions in the readings matrix's accepted writes.
  it('a 202 create the service does not show within the window: said accepted and not shown yet, with Refresh; never Retry, never failed', async function () {
    this.timeout(120_000);
    suite.ctx.service.setReading({ writes: 'accepted', acceptedDelayMs: 10 * 60_000 });
    const told = (m: { text: string }) => /has not shown it yet/.test(m.text);
    try {
      suite.ctx.ui.answer('Queued for long', pickByLabel('onboarding'), '', pickByLabel('Create'));
      suite.ctx.ui.answerWhen(told, 'Refresh');
      await run('createEngagement');
      assert.ok(
        (await eng().tree()).some((i) => i.kind === 'pending' && i.label === 'Queued for long'),
        'pending at once',
      );
      const message = await waitFor(
        () => suite.ctx.ui.messages.find(told),
        'the message after about a minute of looking',
        90_000,
      );
      assert.equal(message.level, 'info');
      assert.equal(
        message.text,
        'The service accepted “Queued for long” and has not shown it yet. Refresh in a moment to see it.',
      );
      assert.deepEqual(message.actions, ['Refresh']);
      assert.equal(
        suite.ctx.ui.messages.filter((m) => m.level !== 'info' || /Retry|failed|could not be read/i.test(m.text))
          .length,
        0,
        'never Retry, never failed',
      );
      assert.ok(!(await eng().tree()).some((i) => i.kind === 'pending'), 'no longer pending');
      const id = suite.ctx.service.requests.find(
        (r) => r.method === 'GET' && r.path.startsWith('/v1/engagements/'),
      )?.path;
      assert.ok(id);
      assert.equal(requests('POST').length, 1);
      assert.equal(requests('GET', id).length, 9, 'the look with the answer and 8 more: one GET each');
      await waitFor(() => requests('GET').length > 0, 'Refresh to read the list again');
      assert.equal(suite.ctx.ui.pending, 0, 'every scripted answer was used');
    } finally {
      suite.ctx.ui.dropStanding(told);
      suite.ctx.service.setReading({});
    }
  });

  test('if the engagement changed on the server since it was shown: Cancel, Reload or Overwrite', async () => {
    const target = (await items())[2];
    suite.ctx.service.store.updateEngagement(target.id!, { description: 'Changed elsewhere' });
    const conflict = () => suite.ctx.ui.messages.filter((m) => m.modal).at(-1);

    suite.ctx.ui.answer('Mine').onMessages(undefined);
    await run('renameEngagement', target.id);
    assert.match(conflict()?.text ?? '', /was changed on the server/);
    assert.deepEqual(conflict()?.actions, ['Overwrite', 'Reload']);
    assert.match(conflict()?.detail ?? '', /description/);
    assert.equal(patches().length, 0, 'Cancel sends nothing');

    suite.ctx.ui
      .answer('Mine', (prompt) => {
        assert.equal(prompt.value, 'Mine', 'after Reload the input is asked again with the answer kept');
        return 'Mine again';
      })
      .onMessages('Reload');
    await run('renameEngagement', target.id);
    assert.match(
      (await items()).find((i) => i.id === target.id)?.tooltip ?? '',
      /Changed elsewhere/,
      'the tree shows the current version',
    );
    assert.deepEqual(
      patches().map((p) => p.body),
      [{ name: 'Mine again' }],
    );

    suite.ctx.service.store.updateEngagement(target.id!, { name: 'Renamed on the server' });
    const wanted = seeded().find((e) => e.id === target.id)?.status === 'completed' ? 'active' : 'completed';
    suite.ctx.ui.answer(pickByLabel(wanted)).onMessages('Overwrite');
    await run('changeEngagementStatus', target.id);
    assert.match(conflict()?.detail ?? '', /name/);
    assert.deepEqual(
      patches().map((p) => p.body),
      [{ name: 'Mine again' }, { status: wanted }],
    );
    assert.equal(seeded().find((e) => e.id === target.id)?.status, wanted);
    assert.equal(
      seeded().find((e) => e.id === target.id)?.name,
      'Renamed on the server',
      'Overwrite sends only the field changed here',
    );
  });

  test('a failed create keeps the input; Retry sends the same values once the fault is lifted', async () => {
    suite.ctx.service.faults.add({ method: 'POST', path: '/engagements', kind: 'status', status: 503 });
    suite.ctx.ui.answer('Retry me', pickByLabel('onboarding'), 'kept', pickByLabel('Create'));
    suite.ctx.ui.onMessages((m) => {
      assert.equal(requests('POST').length, 1, 'a create is never re-sent automatically');
      suite.ctx.service.faults.clear();
      return m.actions.find((a) => a === 'Retry');
    });
    await run('createEngagement');
    const error = suite.ctx.ui.messages[0];
    assert.match(error.text, /Could not create “Retry me”/);
    assert.deepEqual(error.actions, ['Retry', 'Edit', 'Show Logs']);
    const posts = requests('POST');
    assert.equal(posts.length, 2);
    assert.deepEqual(posts[1].body, posts[0].body, 'the same values, no re-typing');
    assert.equal(seeded().filter((e) => e.name === 'Retry me').length, 1);
  });

  test('an update the service refuses, naming the field: the box again with its reason and what was typed', async () => {
    const target = (await items())[0];
    suite.ctx.service.faults.add({
      method: 'PATCH',
      kind: 'status',
      status: 422,
      body: { error: { message: 'name is taken', fields: { name: 'already used' } } },
      times: 1,
    });
    suite.ctx.ui.answer('Taken name', (prompt) => {
      assert.equal(prompt.value, 'Taken name', 'the box keeps what was typed');
      assert.match(prompt.initialError ?? '', /already used/, 'the reason beside the box');
      return 'Free name';
    });
    await run('renameEngagement', target.id);
    assert.deepEqual(
      suite.ctx.ui.messages.filter((m) => m.level === 'error').map((m) => m.text),
      [],
      'said beside the box, not in a notification',
    );
    assert.deepEqual(
      patches().map((p) => p.body),
      [{ name: 'Taken name' }, { name: 'Free name' }],
    );
    assert.equal((await items()).find((i) => i.id === target.id)?.label, 'Free name');
  });

  test('a create the service finds in conflict (409): Edit, not Retry; Edit sends the changed name once', async () => {
    suite.ctx.service.faults.add({
      method: 'POST',
      path: '/engagements',
      kind: 'status',
      status: 409,
      body: { error: { message: 'an engagement with this name exists' } },
      times: 1,
    });
    suite.ctx.ui.answer('Twice named', pickByLabel('onboarding'), '', pickByLabel('Create'));
    suite.ctx.ui.onMessages((m) => {
      assert.equal(
        m.text,
        'Could not create “Twice named”. The service reported a conflict with what it already holds (409). Change what you entered. The service said: “an engagement with this name exists”.',
      );
      assert.deepEqual(m.actions, ['Edit', 'Show Logs'], 'the same values would meet the same conflict: no Retry');
      suite.ctx.ui.answer('Named once', pickByLabel('onboarding'), '', pickByLabel('Create'));
      return 'Edit';
    });
    await run('createEngagement');
    assert.deepEqual(
      requests('POST').map((p) => (p.body as { name: string }).name),
      ['Twice named', 'Named once'],
    );
    assert.equal(seeded().filter((e) => e.name === 'Named once').length, 1);
  });

  test('a read-only key: a write says which scope is missing, then write actions are hidden', async () => {
    await useEnvironment(suite.ctx, suite.ctx.service.keys.readOnly);
    assert.equal((await items()).length, 25, 'a read-only key still lists');
    suite.ctx.ui.answer('Not allowed', pickByLabel('onboarding'), '', pickByLabel('Create'));
    suite.ctx.ui.onMessages(undefined);
    await run('createEngagement');
    const message = suite.ctx.ui.messages[0];
    assert.match(message.text, /engagements:write/);
    assert.ok(message.actions.includes('Replace Key'));
    await waitFor(
      () => suite.ctx.exports.environments?.contextKeys()['engagementUsage.canWrite'] === false,
      'canWrite to become false',
    );
    // Every write action's menu entry depends on that context key.
    const manifest = vscode.extensions.getExtension('eus-tools.engagement-usage')!.packageJSON as {
      contributes: { menus: Record<string, Array<{ command: string; when?: string }>> };
    };
    const writes = [
      commandId('createEngagement'),
      commandId('editEngagement'),
      commandId('renameEngagement'),
      commandId('editEngagementDescription'),
      commandId('changeEngagementStatus'),
    ];
    for (const entries of Object.values(manifest.contributes.menus)) {
      for (const entry of entries.filter((e) => writes.includes(e.command)))
        assert.match(entry.when ?? '', /engagementUsage\.canWrite/, `${entry.command} is hidden without write access`);
    }
  });
});
