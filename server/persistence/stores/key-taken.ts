import { KeyTaken } from '../../domain/idempotency/idempotent-write.js';
import { isUniqueViolation } from '../sql/unique-violation.js';

/** A unique violation as the domain's `KeyTaken` (a concurrent request stored the key first); any other error as it is. */
export function asKeyTaken(err: unknown): unknown {
  return isUniqueViolation(err) ? new KeyTaken({ cause: err }) : err;
}

/** A write whose unique-key refusal the domain sees as `KeyTaken`. */
export async function claimingKeys<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    throw asKeyTaken(err);
  }
}
