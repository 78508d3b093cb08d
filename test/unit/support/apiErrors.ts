// Assertions on how a call of the extension's client fails.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';

/** The ApiError the call rejects with; fails the test when it succeeds or throws anything else. */
export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail, but it succeeded');
}

/** As `rejection`, and the error is of this kind. */
export async function rejectsWith(promise: Promise<unknown>, kind: string): Promise<ApiError> {
  const error = await rejection(promise);
  assert.equal(error.kind, kind, `expected kind ${kind}, got ${error.kind}: ${error.message}`);
  return error;
}
