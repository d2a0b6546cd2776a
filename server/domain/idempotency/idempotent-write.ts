import type { Issue } from '../../../contract/common/index.js';
import { DomainError } from '../errors.js';

/**
 * Idempotent writes: a client-chosen key (payment report `eventId`, preparation
 * `idempotencyKey`) is unique in the database; the first request with a key
 * stores its answer with the fingerprint of its normalized body; a later request
 * with the same key gets the stored answer when its fingerprint is the same and
 * a 409 when it is not. Uniqueness is the database's (a unique constraint), never
 * a check-then-insert: two concurrent first requests both try to insert, one
 * loses on the constraint and is answered from the winner's row.
 */

/**
 * A write refused because a concurrent request stored the same unique key first. Stores throw it (persistence decides
 * which database error that is), so the domain retries or refuses without knowing the database.
 */
export class KeyTaken extends Error {
  constructor(options?: { cause?: unknown }) {
    super('A unique key was taken concurrently', options);
    this.name = 'KeyTaken';
  }
}

/** How a reused key with a different body is refused: the 409's message and its one issue. */
export interface KeyConflict {
  message: string;
  issue: Issue;
}

/** A key seen before: the stored answer when the fingerprints match (a replay), else a 409. */
export function replayOrConflict<T>(stored: { fingerprint: string }, fingerprint: string, answer: () => T, conflict: KeyConflict): T {
  if (stored.fingerprint === fingerprint) return answer();
  throw new DomainError('conflict', conflict.message, [conflict.issue]);
}

/** Refusal when a key was claimed concurrently twice in a row, which only a conflicting identity can cause. */
const RACE_LOST: KeyConflict = {
  message: 'The request conflicts with one recorded concurrently',
  issue: { code: 'identity_conflict', path: '', message: 'Another request claimed the same identity at the same time' },
};

/**
 * Run a write that a unique constraint may refuse because a concurrent request
 * stored the same key first; run it once more (attempt 1), which then sees the
 * winner's row and replays it. A second refusal is a 409.
 */
export async function retryOnConcurrentInsert<T>(write: (attempt: number) => Promise<T>, lostTwice: KeyConflict = RACE_LOST): Promise<T> {
  try {
    return await write(0);
  } catch (err) {
    if (!(err instanceof KeyTaken)) throw err;
  }
  try {
    return await write(1);
  } catch (err) {
    if (err instanceof KeyTaken) throw new DomainError('conflict', lostTwice.message, [{ ...lostTwice.issue }]);
    throw err;
  }
}

/**
 * The whole pattern for a write with one answer per key: look the key up and
 * replay (or refuse) it; otherwise create, which must insert the key under its
 * unique constraint (and may compute and store anything else in the same
 * transaction); a concurrent creator that won the race is replayed.
 */
export async function idempotentWrite<T>(o: {
  fingerprint: string;
  find: () => Promise<{ fingerprint: string; answer: T } | undefined>;
  create: () => Promise<T>;
  conflict: KeyConflict;
}): Promise<{ answer: T; replayed: boolean }> {
  return retryOnConcurrentInsert(async () => {
    const stored = await o.find();
    if (stored) return { answer: replayOrConflict(stored, o.fingerprint, () => stored.answer, o.conflict), replayed: true };
    return { answer: await o.create(), replayed: false };
  });
}
