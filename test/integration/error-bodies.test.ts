// What a user sees when the service says no, inside a real VS Code: a name the service refuses
// (longer than its 200 characters) reopens the name box with the service's reason, as its
// error format said it, and the typed name kept; a 401 and a 403 show the service's reason
// beside ours, our guidance (Replace Key, the missing scope) kept. Every error format the
// reference service speaks (test/service/errorFormats.ts) runs in Node
// (test/unit/readings-paths.test.ts: the reason each gives the name box, the 401's and the
// 403's words); here, the two the readings matrix keeps for VS Code's fetch (the service's JSON
// and an HTML page), which are also the two branches of what the user is shown.
import assert from 'node:assert/strict';
import { NAME_MAX_LENGTH, READINGS, type ReadingName } from '../service/server';
import { engagementsSuite } from './support/engagementsSuite';
import { pickByLabel, useEnvironment } from './support/helpers';

/** The reason the name box shows, as each format says it; undefined where the format names no field. */
const NAME_REASON: Partial<Record<ReadingName, string | undefined>> = {
  // The service's own JSON (application/json): the name box reopened with the field's reason.
  reference: 'name must have at most 200 characters',
  // An HTML page (text/html) names no field: the reason in the message, Edit brings the name back.
  htmlErrors: undefined,
};

describe('The service says no (its JSON, an HTML page): what the user sees', function () {
  this.timeout(60_000);
  const suite = engagementsSuite();
  const { eng, run, items, seeded, requests, patches } = suite;
  const ctx = () => suite.ctx;
  const notifications = () =>
    ctx()
      .ui.messages.filter((m) => m.level === 'error' || m.level === 'warning')
      .map((m) => m.text);

  suite.test(
    'fields named like what every object has (constructor, toString) are reasons in the message, not steps',
    async () => {
      ctx().service.faults.add({
        method: 'POST',
        kind: 'status',
        status: 422,
        rawBody: '{"errors": {"constructor": ["odd"], "toString": ["odder"], "__proto__": ["oddest"]}}',
        times: 1,
      });
      ctx().ui.onMessages((m) => {
        assert.equal(
          m.text,
          'Could not create “Plain”. The request was refused: oddest (constructor: odd; toString: odder)',
        );
        assert.deepEqual(
          m.actions,
          ['Edit', 'Show Logs'],
          'what was typed can be changed; the same values are not retried',
        );
        return undefined;
      });
      ctx().ui.answer('Plain', pickByLabel('onboarding'), '', pickByLabel('Create'));
      await run('createEngagement');
      assert.equal(ctx().ui.prompts.length, 4, 'no box reopened');
    },
  );

  for (const [name, reason] of Object.entries(NAME_REASON) as Array<[ReadingName, string | undefined]>) {
    describe(`error format "${name}"`, () => {
      beforeEach(() => ctx().service.setReading(READINGS[name]));
      afterEach(() => ctx().service.setReading({}));

      suite.test(
        `a create the service refuses: the name box again, its reason beside it, the name kept (${name})`,
        async () => {
          const typed = `Refused under ${name} `.padEnd(NAME_MAX_LENGTH + 1, '…');
          const nameBoxAgain = (prompt: { step?: number; value?: string; initialError?: string }) => {
            assert.equal(prompt.step, 1, 'the name step');
            assert.equal(prompt.value, typed, 'the typed name is kept');
            if (reason) assert.equal(prompt.initialError, `The service refused this name: ${reason}`);
            return undefined;
          };
          if (!reason) {
            // Text and pages name no field: the reason is in the message, and Edit brings the name back.
            ctx().ui.onMessages((m) => {
              assert.match(
                m.text,
                /^Could not create “.*”\. The request was refused: .*name must have at most 200 characters/,
              );
              assert.doesNotMatch(m.text, /<|\{"/, 'no markup, no JSON');
              return m.actions.find((a) => a === 'Edit');
            });
          }
          ctx().ui.answer(typed, pickByLabel('onboarding'), 'kept', pickByLabel('Create'), nameBoxAgain);
          await run('createEngagement');
          assert.equal(requests('POST').length, 1, 'sent once, never again on its own');
          assert.ok(!seeded().some((e) => e.name === typed), 'nothing created');
          if (reason) assert.deepEqual(notifications(), [], 'said beside the box, not in a notification');
        },
      );

      if (reason)
        suite.test(
          `a rename the service refuses: the name box again, its reason beside it, the name kept (${name})`,
          async () => {
            const target = (await items())[0];
            const before = seeded().find((e) => e.id === target.id)?.name;
            const typed = 'r'.repeat(NAME_MAX_LENGTH + 1);
            ctx().ui.answer(typed, (prompt) => {
              assert.equal(prompt.initialError, `The service refused this name: ${reason}`);
              assert.equal(prompt.value, typed, 'the typed name is kept');
              return undefined;
            });
            await run('renameEngagement', target.id);
            assert.equal(patches().length, 1, 'sent once');
            assert.equal(seeded().find((e) => e.id === target.id)?.name, before, 'not renamed');
            assert.deepEqual(notifications(), []);
          },
        );

      suite.test(`a 401 and a 403: the service's reason beside ours, Replace Key offered (${name})`, async () => {
        const said = (words: string) => new RegExp(`The service said: “[^”]*${words}”\\.`);
        const target = (await items())[0];
        // The key is revoked on the service's side.
        ctx().service.store.removeKey('key_admin');
        ctx().ui.answer('Renamed after the key was revoked');
        ctx().ui.expectMessage('The service rejected the API key of Test (401)', { level: 'error' });
        await run('renameEngagement', target.id);
        const rejected = ctx().ui.messages.at(-1);
        assert.match(
          rejected?.text ?? '',
          /^Could not update “.*”\. The service rejected the API key of Test \(401\)\. Replace the key\. /,
        );
        assert.match(rejected?.text ?? '', said('The API key is not valid'));
        assert.ok(rejected?.actions.includes('Replace Key'));

        // The view keeps what it showed and says why it could not refresh, in both voices.
        await run('refreshEngagements');
        await eng().settled();
        assert.match(eng().message() ?? '', /^Could not refresh: The service rejected the API key of Test \(401\)/);
        assert.match(eng().message() ?? '', said('The API key is not valid'));

        // Replace Key checks the key typed: the key box says why, and asks again.
        const environment = ctx().exports.environments!.active()!;
        ctx().ui.answer('key_admin.not-a-key-the-service-knows', undefined);
        await run('replaceKey', environment.id);
        const keyBox = ctx().ui.prompts.at(-1);
        assert.match(
          keyBox?.initialError ?? '',
          /^The service rejected this key \(401\)\. Check it and enter it again\. /,
        );
        assert.match(keyBox?.initialError ?? '', said('The API key is not valid'));

        // A read-only key may list but not create: our scope guidance, then the service's words.
        ctx().service.reset();
        await useEnvironment(ctx(), ctx().service.keys.readOnly);
        ctx().ui.messages.length = 0;
        ctx().ui.answer('Not allowed', pickByLabel('onboarding'), '', pickByLabel('Create'));
        ctx().ui.expectMessage('lacks the engagements:write scope', { level: 'warning' });
        await run('createEngagement');
        const forbidden = ctx().ui.messages.find((m) => /lacks/.test(m.text));
        assert.match(forbidden?.text ?? '', /The API key of Test lacks the engagements:write scope this needs\. /);
        assert.match(forbidden?.text ?? '', said('This API key lacks the scope engagements:write'));
        assert.ok(forbidden?.actions.includes('Replace Key'));
      });
    });
  }
});
