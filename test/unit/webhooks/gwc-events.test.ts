import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { gwcEffectOf, parseGwcEvent, type GwcEvent } from '../../../server/domain/webhooks/gwc/events.js';
import { verifyGwcSignature } from '../../../server/domain/webhooks/gwc/signature.js';

const secret = 'whsec_unit_test_secret_0123456789';
const body = Buffer.from(JSON.stringify({ id: 'evt_1', object: 'event' }));
const now = 1_800_000_000;
const sign = (t: number, s = secret) => createHmac('sha256', s).update(`${t}.${body.toString()}`).digest('hex');

describe('gwc signature (docs/gwc-events.md, W5)', () => {
  it("when the provider's SDK signs the body, then it verifies", () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body.toString(), secret, timestamp: now });
    expect(verifyGwcSignature({ header, rawBody: body, secrets: [secret], nowSeconds: now })).toEqual({ ok: true });
  });

  it('when pairs of other schemes are present, then they are ignored; a repeated t is malformed', () => {
    const header = `t=${now},v0=${'a'.repeat(64)},v1=${sign(now)}`;
    expect(verifyGwcSignature({ header, rawBody: body, secrets: [secret], nowSeconds: now })).toEqual({ ok: true });
    expect(verifyGwcSignature({ header: `t=${now},t=${now},v1=${sign(now)}`, rawBody: body, secrets: [secret], nowSeconds: now })).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('when the timestamp is exactly 300 s away, then it verifies; 301 s is outside tolerance', () => {
    for (const t of [now - 300, now + 300]) {
      expect(verifyGwcSignature({ header: `t=${t},v1=${sign(t)}`, rawBody: body, secrets: [secret], nowSeconds: now }).ok).toBe(true);
    }
    expect(
      verifyGwcSignature({ header: `t=${now - 301},v1=${sign(now - 301)}`, rawBody: body, secrets: [secret], nowSeconds: now }),
    ).toEqual({
      ok: false,
      reason: 'outside_tolerance',
    });
  });

  it('when the previous secret signed, then it verifies only while it is among the secrets given', () => {
    const header = `t=${now},v1=${sign(now, 'whsec_previous_secret_000000')}`;
    expect(verifyGwcSignature({ header, rawBody: body, secrets: [secret, 'whsec_previous_secret_000000'], nowSeconds: now }).ok).toBe(true);
    expect(verifyGwcSignature({ header, rawBody: body, secrets: [secret], nowSeconds: now })).toEqual({ ok: false, reason: 'no_match' });
  });
});

const event = (type: string, object: Record<string, unknown>): GwcEvent =>
  parseGwcEvent(Buffer.from(JSON.stringify({ id: 'evt_u1', object: 'event', type, created: now, livemode: false, data: { object } })));
const pi = (fields: Record<string, unknown>) => ({ id: 'pi_u1', object: 'payment_intent', amount: 5000, currency: 'usd', ...fields });

describe('gwc event effects (docs/gwc-events.md, Effects)', () => {
  it('when a PaymentIntent succeeds and refunds are already known, then the capture keeps them', () => {
    const effect = gwcEffectOf(event('payment_intent.succeeded', pi({ amount_received: 5000 })), {
      attemptId: 'att_1',
      currency: 'usd',
      capturedAmountMinor: 5000,
      refundedAmountMinor: 1000,
      enrichmentRequestId: null,
    });
    expect(effect).toMatchObject({
      kind: 'observation',
      report: { attemptId: 'att_1', status: 'partially_refunded', capturedAmountMinor: 5000, refundedAmountMinor: 1000 },
    });
  });

  it('when a PaymentIntent is processing, then it is unknown and keeps the established amounts', () => {
    const effect = gwcEffectOf(event('payment_intent.processing', pi({})), {
      attemptId: 'att_1',
      currency: 'usd',
      capturedAmountMinor: 2000,
      refundedAmountMinor: 0,
    });
    expect(effect).toMatchObject({ report: { status: 'unknown', capturedAmountMinor: 2000, refundedAmountMinor: 0 } });
  });

  it('when a Charge was refunded before any capture, then it is canceled with no amounts', () => {
    const charge = {
      id: 'ch_u1',
      object: 'charge',
      amount: 5000,
      amount_captured: 0,
      amount_refunded: 5000,
      currency: 'usd',
      payment_intent: 'pi_u1',
    };
    expect(gwcEffectOf(event('charge.refunded', charge), undefined)).toMatchObject({
      report: {
        status: 'canceled',
        capturedAmountMinor: 0,
        refundedAmountMinor: 0,
        chargeId: 'ch_u1',
        attemptId: 'gwc_payment_intent_pi_u1',
      },
    });
  });

  it('when the object is not the one its type carries, or an amount is not an integer, then the event is invalid', () => {
    expect(gwcEffectOf(event('payment_intent.succeeded', { id: 'ch_1', object: 'charge' }), undefined)).toMatchObject({ kind: 'invalid' });
    expect(gwcEffectOf(event('payment_intent.succeeded', pi({ amount_received: '5000' })), undefined)).toMatchObject({
      kind: 'invalid',
      reason: 'payment_intent.amount_received is not an amount in minor units',
    });
    expect(gwcEffectOf(event('payment_intent.succeeded', pi({ amount_received: 5000, currency: 'USD' })), undefined)).toMatchObject({
      kind: 'invalid',
    });
  });

  it('when svc_preparation_id is a preparation id, then it correlates; anything else is ignored', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(
      gwcEffectOf(event('payment_intent.succeeded', pi({ amount_received: 5000, metadata: { svc_preparation_id: id } })), undefined),
    ).toMatchObject({ report: { enrichmentRequestId: id } });
    const other = gwcEffectOf(
      event('payment_intent.succeeded', pi({ amount_received: 5000, metadata: { svc_preparation_id: 'order-7' } })),
      undefined,
    );
    expect(other.kind === 'observation' && 'enrichmentRequestId' in other.report).toBe(false);
  });
});
