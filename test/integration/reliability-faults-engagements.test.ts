// Every fault against every engagements endpoint, as the features call them: the tree's
// refresh (GET /engagements), Open Details (GET /engagements/{id}), Create (POST), Rename
// (PATCH), and the key check of Replace API Key (GET /engagements + GET /usage/summary).
// Each asserts what the user sees, that what was on screen stays, that GETs were retried
// within their bounds and writes never re-sent, and that Retry works without re-typing.
import assert from 'node:assert/strict';
import {
  type RecordedMessage,
  pickByLabel,
  runCommand,
  typeIntoPick,
  useEnvironment,
  waitFor,
} from './support/helpers';
import {
  FAULTS,
  type FaultCase,
  TIMEOUT_SECONDS,
  countFault,
  expectGetBound,
  expectSentOnce,
  requestsTo,
} from './support/reliabilityFaults';
import { reliabilitySuite } from './support/reliabilityKit';

const LIST = /^\/engagements$/;
const ONE = /^\/engagements\/[^/]+$/;
const KEY_CHECK = /^\/(engagements|usage\/summary)$/;
/** The key check's own requests: one engagement, and the summary without a period (the status bar names one). */
const isKeyCheck = (r: { path: string; query: Record<string, string> }) =>
  (r.path === '/v1/engagements' && r.query.pageSize === '1') ||
  (r.path === '/v1/usage/summary' && r.query.billingPeriod === undefined);

describe('Reliability: faults against the engagements endpoints', function () {
  this.timeout(60_000);
  const { ctx, eng } = reliabilitySuite({ requestTimeoutSeconds: TIMEOUT_SECONDS });
  let envId: string;
  const count = (method: string, path: RegExp) => requestsTo(ctx.service.requests, method, path).length;
  const loadedIds = () =>
    eng()
      .loaded()
      .map((e) => e.id);

  /** Answers the error message: notes what it said and the requests so far, lifts the fault, clicks Retry. */
  function retryWhenTold(
    method: string,
    path: RegExp,
  ): { message?: RecordedMessage; requests: number; shownIds: string[] } {
    const seen: { message?: RecordedMessage; requests: number; shownIds: string[] } = { requests: -1, shownIds: [] };
    ctx.ui.onMessages((m) => {
      seen.message = m;
      seen.requests = count(method, path);
      seen.shownIds = loadedIds();
      ctx.service.faults.clear();
      return m.actions.find((a) => a === 'Retry');
    });
    return seen;
  }

  before(async () => {
    envId = await useEnvironment(ctx, ctx.service.keys.admin, 'Faults');
    await eng().tree();
  });
  beforeEach(async () => {
    ctx.service.faults.clear();
    await eng().settled();
    ctx.service.clearRequests();
    ctx.ui.messages.length = 0;
    ctx.ui.prompts.length = 0;
  });
  afterEach(() => {
    ctx.service.faults.clear();
    assert.equal(ctx.ui.pending, 0, 'every scripted answer was used');
  });

  describe('GET /engagements: refreshing the Engagements view', () => {
    for (const fault of FAULTS) {
      it(fault.name, async () => {
        countFault();
        const before = loadedIds();
        assert.ok(before.length > 0, 'engagements are on screen');
        ctx.service.faults.add({ ...fault.rule, method: 'GET', path: LIST });
        await runCommand('refreshEngagements');
        expectGetBound(count('GET', LIST), fault);
        assert.deepEqual(loadedIds(), before, 'the engagements shown stay');
        assert.equal(eng().contextValues()['engagementUsage.state'], 'ready');
        assert.match(eng().message() ?? '', /^Could not refresh: /);
        assert.match(eng().message() ?? '', fault.said);
        // Retry is the view's Refresh: nothing to type.
        ctx.service.faults.clear();
        await runCommand('refreshEngagements');
        assert.equal(eng().message(), undefined, 'the message goes once a refresh works');
      });
    }
  });

  describe('GET /engagements/{id}: opening the details of an engagement', () => {
    for (const fault of FAULTS) {
      it(fault.name, async () => {
        countFault();
        const target = eng().loaded()[0];
        const before = loadedIds();
        ctx.service.faults.add({ ...fault.rule, method: 'GET', path: ONE });
        const seen = retryWhenTold('GET', ONE);
        await runCommand('openEngagement', target.id);
        assert.ok(seen.message, 'an error was shown');
        assert.equal(seen.message.level, fault.kind === 'rateLimited' ? 'warning' : 'error');
        assert.ok(seen.message.text.startsWith(`Could not read “${target.name}”. `), seen.message.text);
        assert.match(seen.message.text, fault.said);
        assert.deepEqual(seen.message.actions, ['Retry', 'Show Logs']);
        expectGetBound(seen.requests, fault);
        assert.deepEqual(seen.shownIds, before, 'the tree kept its engagements');
        assert.equal(count('GET', ONE), seen.requests + 1, 'Retry read it once more');
        const shown = await waitFor(
          () =>
            eng().details()?.view?.id === target.id && eng().details()?.view?.busy === false
              ? eng().details()
              : undefined,
          'the details after Retry',
        );
        assert.equal(shown.view?.error, undefined, 'the error is gone once Retry read it');
        assert.equal(shown.view?.name, target.name);
        eng().closeDetails();
      });
    }
  });

  /** What a write that met `fault` must show: an error with Retry, or (made after all) no error. */
  function expectWriteMessage(fault: FaultCase, seen: { message?: RecordedMessage }, action: string): void {
    if (fault.write === 'made') {
      const problems = ctx.ui.messages.filter((m) => m.level !== 'info').map((m) => m.text);
      assert.deepEqual(problems, [], 'no error: the change was made');
      assert.match(eng().notices().at(-1) ?? '', /a check found the change made/);
      return;
    }
    assert.ok(seen.message, 'an error was shown');
    assert.ok(seen.message.text.startsWith(`Could not ${action}. `), seen.message.text);
    assert.match(seen.message.text, fault.said);
    if (fault.write === 'notMade')
      assert.match(
        seen.message.text,
        /A check found the change was not made, so Retry is safe/,
        'an unanswered write is checked before Retry is offered',
      );
    assert.doesNotMatch(seen.message.text, /may have made the change anyway/);
    assert.deepEqual(seen.message.actions, ['Retry', 'Edit', 'Show Logs']);
  }

  describe('POST /engagements: creating an engagement', () => {
    FAULTS.forEach((fault, index) => {
      it(fault.name, async () => {
        countFault();
        const name = `Fault create ${index} ${Date.now()}`;
        const before = loadedIds();
        ctx.service.faults.add({ ...fault.rule, method: 'POST', path: LIST });
        ctx.ui.answer(name, typeIntoPick('onboarding'), 'Typed once', pickByLabel('Create'));
        // A change the check finds made asks nothing: no answer is queued for a message then.
        const seen = fault.write === 'made' ? ({} as ReturnType<typeof retryWhenTold>) : retryWhenTold('POST', LIST);
        await runCommand('createEngagement');
        ctx.service.faults.clear();
        expectWriteMessage(fault, seen, `create “${name}”`);
        const posts = requestsTo(ctx.service.requests, 'POST', LIST);
        assert.deepEqual(posts[0].body, { name, type: 'onboarding', description: 'Typed once' });
        assert.equal(ctx.ui.prompts.length, 4, 'four answers, given once');
        await waitFor(
          () => ctx.service.store.engagements.some((e) => e.name === name),
          'the engagement on the service',
        );
        assert.equal(ctx.service.store.engagements.filter((e) => e.name === name).length, 1, 'made once, never twice');
        assert.ok(
          eng()
            .loaded()
            .some((e) => e.name === name),
          'the created engagement is shown',
        );
        if (fault.write === 'made') {
          assert.equal(posts.length, 1, 'no Retry was needed');
          return;
        }
        expectSentOnce(seen.requests, fault);
        assert.deepEqual(seen.shownIds, before, 'the tree kept its engagements');
        assert.equal(posts.length, 2, 'Retry sent it once more');
        assert.deepEqual(posts[1].body, posts[0].body, 'the same values, not typed again');
      });
    });
  });

  describe('PATCH /engagements/{id}: renaming an engagement', () => {
    FAULTS.forEach((fault, index) => {
      it(fault.name, async () => {
        countFault();
        // One engagement per fault: a PATCH delayed past the timeout still lands later.
        const target = eng().loaded()[index + 1];
        const name = `Fault rename ${index}`;
        ctx.service.faults.add({ ...fault.rule, method: 'PATCH', path: ONE });
        ctx.ui.answer(name);
        const seen = fault.write === 'made' ? ({} as ReturnType<typeof retryWhenTold>) : retryWhenTold('PATCH', ONE);
        await runCommand('renameEngagement', target.id);
        ctx.service.faults.clear();
        expectWriteMessage(fault, seen, `update “${target.name}”`);
        const patches = requestsTo(ctx.service.requests, 'PATCH', ONE);
        assert.equal(ctx.ui.prompts.length, 1);
        assert.equal(
          eng()
            .loaded()
            .find((e) => e.id === target.id)?.name,
          name,
        );
        if (fault.write === 'made') {
          assert.equal(patches.length, 1, 'no Retry was needed');
          return;
        }
        expectSentOnce(seen.requests, fault);
        assert.equal(patches.length, 2, 'Retry sent it once more');
        assert.deepEqual(
          patches.map((p) => p.body),
          [{ name }, { name }],
          'the same change, not typed again',
        );
      });
    });
  });

  describe('GET /engagements + GET /usage/summary: checking a new key', () => {
    for (const fault of FAULTS) {
      it(fault.name, async () => {
        countFault();
        ctx.service.faults.add({ ...fault.rule, method: 'GET', path: KEY_CHECK });
        ctx.ui.answer(ctx.service.keys.admin);
        let seen: { text: string; modal: boolean; actions: string[]; requests: number } | undefined;
        ctx.ui.onMessages((m) => {
          seen = {
            text: m.text,
            modal: m.modal,
            actions: m.actions,
            requests: requestsTo(ctx.service.requests, 'GET', KEY_CHECK).filter(isKeyCheck).length,
          };
          ctx.service.faults.clear();
          return 'Retry';
        });
        await runCommand('replaceKey', envId);
        assert.ok(seen, 'the user was asked');
        assert.ok(seen.modal);
        const unreached = fault.kind === 'network' || fault.kind === 'timeout';
        assert.ok(
          seen.text.startsWith(
            unreached ? 'Could not reach the service to check the key: ' : 'Could not check the key: ',
          ),
          seen.text,
        );
        assert.match(seen.text, fault.said);
        assert.deepEqual(seen.actions, ['Retry', 'Save Anyway']);
        expectGetBound(seen.requests, fault, 2);
        assert.equal(ctx.ui.prompts.length, 1, 'the key was typed once');
        assert.equal(await ctx.exports.environments?.keyLocation(envId), 'secretStorage');
      });
    }
  });
});
