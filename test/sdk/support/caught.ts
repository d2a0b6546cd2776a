import { expect } from 'vitest';
import { SvcError } from '../../../sdk/src/index.js';

/** The SvcError a call rejects with; fails the test when the call succeeds or throws anything else. */
export async function caught(promise: Promise<unknown>): Promise<SvcError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(SvcError);
    return err as SvcError;
  }
  throw new Error('expected the call to fail');
}
