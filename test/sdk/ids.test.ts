import { describe, expect, it } from 'vitest';
import {
  IdempotencyKeySchema,
  ReferenceSchema,
  eventIdFrom,
  isIdempotencyKey,
  newEventId,
  newIdempotencyKey,
} from '../../sdk/src/index.js';

describe('SDK identifier helpers', () => {
  it('when ids are generated, then they have the allowed shapes, are unique and never hold a card-number-like digit run', () => {
    const keys = Array.from({ length: 2000 }, () => newIdempotencyKey());
    const events = Array.from({ length: 2000 }, () => newEventId());
    expect(new Set([...keys, ...events]).size).toBe(4000);
    for (const key of keys) expect(IdempotencyKeySchema.safeParse(key).success).toBe(true);
    for (const id of events) expect(ReferenceSchema.safeParse(id).success).toBe(true);
    // the service rejects 13-19 digit Luhn-valid runs as card data; dashed UUIDs cap runs at 12 digits
    expect([...keys, ...events].filter((id) => /\d{13}/.test(id))).toEqual([]);
    expect(newIdempotencyKey('order.42:v1')).toMatch(/^order\.42:v1_/);
  });

  it('when a prefix or parts are not allowed, then the helpers refuse them', () => {
    expect(() => newIdempotencyKey('has space')).toThrow(TypeError);
    expect(() => newEventId('')).toThrow(TypeError);
    expect(eventIdFrom('gwc', 'evt_1NXb')).toBe('gwc:evt_1NXb');
    expect(() => eventIdFrom('x'.repeat(161))).toThrow(TypeError);
    expect(() => eventIdFrom('a\u0000b')).toThrow(TypeError);
    expect(isIdempotencyKey('a/b')).toBe(false);
  });
});
