import { z } from 'zod';

/** Characters that may never appear in a reference: C0 controls, DEL and C1 controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/;

/** Nonnegative safe integer in the currency's minor unit (spec: Common conventions). */
export const AmountMinorSchema = z
  .number({ invalid_type_error: 'Expected an integer amount in minor units' })
  .int('Expected an integer amount in minor units')
  .nonnegative('Amount must not be negative')
  .safe('Amount must be a safe integer');

/** Strictly positive safe integer in minor units (for example `amountMinor` of a preparation). */
export const PositiveAmountMinorSchema = AmountMinorSchema.refine((v) => v > 0, {
  message: 'Amount must be greater than zero',
});

/** ISO 8601 date-time that carries a timezone offset (`Z` or `±hh:mm`). */
export const TimestampSchema = z.string().datetime({ offset: true, message: 'Expected an ISO 8601 timestamp with a timezone offset' });

export const UuidSchema = z.string().uuid('Expected a UUID');

/** Exactly three lowercase letters, for example `usd`. */
export const CurrencySchema = z.string().regex(/^[a-z]{3}$/, 'Expected a three-letter lowercase currency code');

/** 1-160 characters of letters, digits and `. _ : -` (spec: Limits, idempotencyKey). */
export const IdempotencyKeySchema = z
  .string()
  .min(1, 'Idempotency key must not be empty')
  .max(160, 'Idempotency key must be at most 160 characters')
  .regex(/^[A-Za-z0-9._:-]+$/, 'Idempotency key may contain only letters, digits and . _ : -');

/** Spec Limits: "eventId, attemptId and other reference strings: non-empty, up to 160 characters". */
export const REFERENCE_MAX = 160;

/** Non-empty, at most 160 characters, no control characters (eventId, attemptId and other references). */
export const ReferenceSchema = z
  .string()
  .min(1, 'Must not be empty')
  .max(REFERENCE_MAX, `Must be at most ${REFERENCE_MAX} characters`)
  .refine((v) => !CONTROL_CHARACTERS.test(v), { message: 'Must not contain control characters' });

/** Exact decimal number as a string, for example `"2"`, `"0.5"` or `"-1.25"`; never a JSON number. */
export const DecimalStringSchema = z
  .string()
  .max(40, 'Decimal string must be at most 40 characters')
  .regex(/^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/, 'Expected a decimal number written as a string, for example "1.5"');

/**
 * A three-letter currency code in any case (`USD`, `usd`): the CanonicalInvoice's currency (spec: "three-letter currency
 * code"). The service reads it case-insensitively and answers each provider in its own case (docs/decisions.md).
 */
export const CurrencyCodeSchema = z.string().regex(/^[A-Za-z]{3}$/, 'Expected a three-letter currency code, for example USD or usd');

export type AmountMinor = z.infer<typeof AmountMinorSchema>;
export type Currency = z.infer<typeof CurrencySchema>;
