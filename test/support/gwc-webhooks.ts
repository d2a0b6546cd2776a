import { randomBytes, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { expect } from 'vitest';
import type { TestApp, TestResponse } from './harness.js';

/** A fresh endpoint signing secret, shaped as the provider shows it. */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/**
 * 24 random base-62 characters, as the provider's ids are. Hex would hold a run of 13 or more digits in about one
 * id in 40, which the card-data guard may rightly take for a card number; base 62 almost never does.
 */
const suffix = () => [...randomBytes(24)].map((b) => BASE62[b % 62]).join('');
export const newPaymentIntentId = () => `pi_${suffix()}`;

/** A PaymentIntent object as the provider sends it in `data.object`; override any field. */
export function paymentIntent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: newPaymentIntentId(),
    object: 'payment_intent',
    amount: 10000,
    amount_capturable: 0,
    amount_received: 0,
    currency: 'usd',
    status: 'requires_payment_method',
    latest_charge: null,
    metadata: {},
    livemode: false,
    ...overrides,
  };
}

/** A Charge object of a PaymentIntent; override any field. */
export function charge(paymentIntentId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: `ch_${suffix()}`,
    object: 'charge',
    amount: 10000,
    amount_captured: 10000,
    amount_refunded: 0,
    captured: true,
    refunded: false,
    currency: 'usd',
    payment_intent: paymentIntentId,
    status: 'succeeded',
    metadata: {},
    livemode: false,
    ...overrides,
  };
}

/** An event object around `object`: `created` defaults to now (whole seconds). */
export function gwcEvent(type: string, object: Record<string, unknown>, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: `evt_${suffix()}`,
    object: 'event',
    api_version: '2025-10-29.clover',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
    ...overrides,
  };
}

/**
 * The body and `gwc-signature` header of a delivery, signed by the provider's own SDK
 * (`webhooks.generateTestHeaderString`) and checked with its `constructEvent`, so the service is tested against
 * the provider's scheme and not against a copy of its own code.
 */
export function signed(secret: string, event: Record<string, unknown> | string, options: { timestamp?: number } = {}) {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
  if (typeof event !== 'string') {
    const checked = Stripe.webhooks.constructEvent(body, header, secret, Number.MAX_SAFE_INTEGER);
    if (checked.id !== event.id) throw new Error('The provider SDK did not read back the event it signed');
  }
  return { body, header };
}

/** POST a delivery to an endpoint path as the provider does (JSON body, signature header). */
export function deliverGwc(app: TestApp, path: string, delivery: { body: string; header?: string }): Promise<TestResponse> {
  return app.request(path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(delivery.header !== undefined ? { 'gwc-signature': delivery.header } : {}),
    },
    body: delivery.body,
  });
}

/**
 * The provider-first merge (docs/evidence.md, "The chain of one preparation"): the merchant reports `authorized` for an
 * attempt naming the preparation; the provider's signed capture of a new PaymentIntent arrives first and files a
 * provisional payment; the merchant's capture report of that PaymentIntent merges it into the attempt. `report` sends
 * a merchant report (endpoint 13), `deliver` a signed delivery and answers its body. `created` is the PaymentIntent's.
 */
export async function providerFirstMerge(
  io: { report(json: Record<string, unknown>): Promise<TestResponse>; deliver(event: Record<string, unknown>): Promise<unknown> },
  payment: { preparationId: string; amountMinor: number; metadata: Record<string, string> },
): Promise<{ pi: string; attemptId: string; created: number }> {
  const { preparationId, amountMinor, metadata } = payment;
  const pi = newPaymentIntentId();
  const attemptId = `att_${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000) - 600;
  const at = (offset: number) => new Date((created + offset) * 1000).toISOString();
  const report = (json: Record<string, unknown>) => io.report({ attemptId, amountMinor, enrichmentRequestId: preparationId, ...json });

  expect((await report({ status: 'authorized', capturedAmountMinor: 0, occurredAt: at(0) })).status).toBe(200);
  const succeeded = paymentIntent({ id: pi, amount: amountMinor, amount_received: amountMinor, status: 'succeeded', metadata });
  expect(await io.deliver(gwcEvent('payment_intent.succeeded', succeeded, { created: created + 10 }))).toMatchObject({
    status: 'captured',
    duplicate: false,
  });
  expect((await report({ paymentIntentId: pi, capturedAmountMinor: amountMinor, occurredAt: at(20) })).status).toBe(200);
  return { pi, attemptId, created };
}
