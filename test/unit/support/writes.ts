// A write's outcome as a test expects it: done (with the engagement), or accepted and pending.
import assert from 'node:assert/strict';
import { type AcceptedWrite, isAccepted, type WriteOutcome, type WriteResult } from '../../../src/api/types';

/** The result of a write that is done; fails the test when the service only accepted it. */
export function done(outcome: WriteOutcome): WriteResult {
  assert.ok(!isAccepted(outcome), `expected the write done, got it accepted and pending: ${JSON.stringify(outcome)}`);
  return outcome;
}

/** A write the service accepted and does not show yet; fails the test when it is done. */
export function pending(outcome: WriteOutcome): AcceptedWrite {
  assert.ok(isAccepted(outcome), `expected the write accepted and pending, got it done: ${JSON.stringify(outcome)}`);
  return outcome;
}
