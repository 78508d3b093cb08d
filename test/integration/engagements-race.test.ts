// Writes that race: someone else changes an engagement between the extension's re-read and its
// PATCH. The PATCH carries the version it was meant for (If-Match / If-Unmodified-Since), the
// reference service answers 412, and the user is asked instead of the other change being
// overwritten. Overwrite and Retry read the engagement again right before sending, and a flow
// keeps the environment it started in.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { engagementsSuite } from './support/engagementsSuite';
import { startService } from '../service/server';
import { pickByLabel, waitFor } from './support/helpers';

describe('Engagements: writes that race', function () {
  this.timeout(60_000);
  const suite = engagementsSuite();
  const { run, items, seeded, requests, test } = suite;

  /** Renames the engagement "as someone else" right after the extension's re-read was answered. */
  function renameAfterReread(id: string, name: string): void {
    suite.ctx.service.faults.add({
      method: 'GET',
      path: new RegExp(`^/engagements/${id}$`),
      kind: 'transform',
      times: 1,
      transform: (body) => {
        suite.ctx.service.store.updateEngagement(id, { name });
        return body;
      },
    });
  }

  test('a rename made between the re-read and the PATCH is not overwritten: 412, and the user is asked', async () => {
    const target = (await items())[0];
    renameAfterReread(target.id!, 'Renamed by someone else');
    suite.ctx.ui.answer('My rename');
    suite.ctx.ui.onMessages(() => undefined); // Cancel the conflict question
    await run('renameEngagement', target.id);
    const patches = requests('PATCH', '/v1/engagements/');
    assert.equal(patches.length, 1, 'the PATCH was sent');
    assert.ok(patches[0].status === 412, `the service refused it as stale (${patches[0].status})`);
    const question = suite.ctx.ui.messages.find((m) => m.modal);
    assert.ok(question, 'the user was asked');
    assert.match(question.text, /was changed on the server .* since it was shown/);
    assert.match(question.detail ?? '', /Changed meanwhile: name/);
    assert.deepEqual(question.actions, ['Overwrite', 'Reload']);
    assert.equal(seeded().find((e) => e.id === target.id)?.name, 'Renamed by someone else', 'the other change stands');
  });

  test('Overwrite after a 412 reads again right before sending, then sends the change once', async () => {
    const target = (await items())[1];
    renameAfterReread(target.id!, 'Renamed by someone else');
    suite.ctx.ui.answer('Mine after all');
    suite.ctx.ui.onMessages('Overwrite');
    await run('renameEngagement', target.id);
    const reads = requests('GET', `/v1/engagements/${target.id}`);
    assert.ok(
      reads.length >= 3,
      `re-read before the first PATCH, after the 412 and before Overwrite (${reads.length})`,
    );
    const patches = requests('PATCH', '/v1/engagements/');
    assert.deepEqual(
      patches.map((p) => p.status),
      [412, 200],
    );
    assert.ok(patches[1].at > reads.at(-1)!.at, 'the last read came right before the PATCH that was sent');
    assert.equal(seeded().find((e) => e.id === target.id)?.name, 'Mine after all');
  });

  test('Retry after switching environments still goes to the environment the flow started in', async () => {
    const target = (await items())[2];
    const other = await startService({ port: 0 });
    const config = vscode.workspace.getConfiguration('engagementUsage');
    try {
      // A second environment at another service (same seeded ids), added while the first stays.
      const shared = config.inspect<unknown[]>('environments')?.globalValue ?? [];
      await config.update(
        'environments',
        [...shared, { label: 'Other', baseUrl: other.baseUrl }],
        vscode.ConfigurationTarget.Global,
      );
      await waitFor(
        () => suite.ctx.exports.environments?.list().some((e) => e.label === 'Other'),
        'the second environment',
      );
      // The PATCH is slow and then refused (429): while it is in flight, the user switches.
      suite.ctx.service.faults.add({ method: 'PATCH', kind: 'status', status: 429, times: 1 });
      suite.ctx.service.setLatency(800);
      suite.ctx.ui.answer('Pinned rename');
      suite.ctx.ui.onMessages('Retry');
      const flow = run('renameEngagement', target.id);
      await waitFor(() => requests('PATCH', '/v1/engagements/').length === 1, 'the PATCH in flight');
      suite.ctx.ui.answer(pickByLabel('Other'), other.keys.admin);
      await run('switchEnvironment');
      assert.equal(suite.ctx.exports.environments?.active()?.label, 'Other');
      suite.ctx.service.setLatency(0);
      await flow;
      assert.equal(
        requests('PATCH', '/v1/engagements/').length,
        2,
        `Retry went to the service the flow started with; messages: ${JSON.stringify(suite.ctx.ui.messages)}; prompts: ${JSON.stringify(suite.ctx.ui.prompts.map((p) => p.title))}`,
      );
      assert.equal(
        other.requests.filter((r) => r.method === 'PATCH').length,
        0,
        'nothing was sent to the environment switched to',
      );
      assert.equal(seeded().find((e) => e.id === target.id)?.name, 'Pinned rename');
    } finally {
      suite.ctx.service.setLatency(0);
      suite.ctx.ui.answer(pickByLabel('Test'));
      await run('switchEnvironment');
      await config.update(
        'environments',
        [{ label: 'Test', baseUrl: suite.ctx.service.baseUrl }],
        vscode.ConfigurationTarget.Global,
      );
      await other.close();
    }
  });
});
