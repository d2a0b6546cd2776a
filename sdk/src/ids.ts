import { IdempotencyKeySchema, ReferenceSchema } from '../../contract/common/index.js';

const PREFIX = /^[A-Za-z0-9._:-]{1,40}$/;

/**
 * A random UUID, dashes kept: 32 bare hex digits can hold a 13-19 digit
 * Luhn-valid run, which the service's card-data guard rejects (400); the
 * guard treats the dashed UUID shape as an identifier.
 */
function random(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * A fresh idempotency key for one preparation request: `<prefix>_<uuid>`,
 * within the allowed 1-160 characters of letters, digits and `. _ : -`. Persist
 * it before the first request and reuse it, unchanged, only for the same request.
 */
export function newIdempotencyKey(prefix = 'idem'): string {
  if (!PREFIX.test(prefix)) throw new TypeError('newIdempotencyKey: the prefix may hold only letters, digits and . _ : - (at most 40)');
  return IdempotencyKeySchema.parse(`${prefix}_${random()}`);
}

/**
 * A fresh event id for one observed payment outcome: `<prefix>_<uuid>`. Store
 * it with the observation and reuse it only to retry that identical report; a
 * new observation of the same attempt gets a new event id.
 */
export function newEventId(prefix = 'evt'): string {
  if (!PREFIX.test(prefix)) throw new TypeError('newEventId: the prefix may hold only letters, digits and . _ : - (at most 40)');
  return ReferenceSchema.parse(`${prefix}_${random()}`);
}

/**
 * A deterministic event id from stable facts, for example the provider's own
 * webhook event id (`eventIdFrom('gwc', event.id)`), so a redelivered provider
 * event produces the same report. Throws when the result is not an allowed
 * reference (empty, over 160 characters, control characters).
 */
export function eventIdFrom(...parts: string[]): string {
  const result = ReferenceSchema.safeParse(parts.join(':'));
  if (!result.success) throw new TypeError(`eventIdFrom: ${result.error.issues[0]?.message ?? 'invalid event id'}`);
  return result.data;
}

/** Whether a string is an allowed idempotency key. */
export const isIdempotencyKey = (value: string): boolean => IdempotencyKeySchema.safeParse(value).success;
