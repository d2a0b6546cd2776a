import { describe, expect, it } from 'vitest';
import {
  enrichmentRequestIdOf,
  gwaSettlementArgs,
  mergeGwbOrder,
  mergeGwcPaymentIntent,
  mergeGwcPreparation,
  type PreparationRecord,
  type GwbOrderEnrichmentData,
  type GwcPaymentIntentEnrichmentData,
} from '../../sdk/src/index.js';

const gwc: GwcPaymentIntentEnrichmentData = {
  payment_details: { order_reference: 'PO-1' },
  amount_details: {
    enforce_arithmetic_validation: true,
    line_items: [{ product_name: 'W', product_code: 'W1', unit_cost: 100, quantity: 1, unit_of_measure: 'EA' }],
  },
};
const gwb: GwbOrderEnrichmentData = {
  reference_id: 'PO-1',
  line_items: [{ uid: 'line-1', name: 'W', quantity: '1', base_price_money: { amount: 100, currency: 'USD' } }],
  metadata: { invoice_number: 'INV-1' },
};

const preparation: PreparationRecord = {
  id: '3f0c1b8e-52a4-4d7e-9a1b-2c3d4e5f6a7b',
  invoiceId: '0d3c9a6e-1f2b-4c5d-8e9f-a0b1c2d3e4f5',
  snapshotId: '7e6d5c4b-3a29-4817-a6b5-c4d3e2f1a0b9',
  revision: 'r1_abc',
  sourceIntegrationId: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  sourceConnectionId: '9130',
  checkedThrough: '2026-11-23T10:00:00.000Z',
  createdAt: '2026-11-23T10:01:00.000Z',
  amountMinor: 100,
  currency: 'usd',
};

describe('SDK merge helpers', () => {
  it("when a gwc preparation is enhanced, then its fields merge over the caller's, with the preparation id, amount and currency", () => {
    const params = {
      amount: 1,
      currency: 'eur',
      payment_details: { customer_reference: 'C-9' },
      metadata: { order: 'o-1' },
      idempotency_key: 'k',
    };
    const merged = mergeGwcPreparation(params, { data: { mode: 'enhanced', enrichment: gwc, optimizationIssues: [] }, preparation });
    expect(merged).toEqual({
      amount: 100,
      currency: 'usd',
      idempotency_key: 'k',
      metadata: { order: 'o-1', svc_preparation_id: preparation.id },
      payment_details: { customer_reference: 'C-9', order_reference: 'PO-1' },
      amount_details: gwc.amount_details,
    });
  });

  it('when a gwc preparation is ordinary, then payment_details and amount_details are left out and the preparation id is still set', () => {
    const params = { amount: 1, currency: 'usd', payment_details: { customer_reference: 'C-9' }, amount_details: { tip: { amount: 1 } } };
    const issues = [
      { code: 'missing_unit_of_measure', path: 'invoice.lineItems[0].unitOfMeasure', message: 'm', category: 'mapping' as const },
    ];
    const merged = mergeGwcPreparation(params, { data: { mode: 'ordinary', enrichment: null, optimizationIssues: issues }, preparation });
    expect(merged).toEqual({ amount: 100, currency: 'usd', metadata: { svc_preparation_id: preparation.id } });
  });

  it('when a preparation is present, then its id is the enrichmentRequestId and it is never merged; else the request id is', () => {
    const prepared = {
      body: { data: gwc, preparation: { id: '6f1c1f3e-8f1a-4d8e-9c55-0c2a4b9f6a11', amountMinor: 100 } },
      requestId: 'req_1',
    };
    expect(enrichmentRequestIdOf(prepared)).toBe('6f1c1f3e-8f1a-4d8e-9c55-0c2a4b9f6a11');
    expect(enrichmentRequestIdOf({ body: { data: gwc }, requestId: 'req_2' })).toBe('req_2');
    expect(enrichmentRequestIdOf({ body: undefined, requestId: null })).toBeUndefined();
    const params = mergeGwcPaymentIntent({ amount: 100, currency: 'usd' }, prepared.body.data);
    expect(params).not.toHaveProperty('preparation');
  });

  it("when merging gwc, then payment_details are merged over the caller's and amount_details replace theirs", () => {
    const merged = mergeGwcPaymentIntent(
      { amount: 100, payment_details: { customer_reference: 'C-9', order_reference: 'old' }, amount_details: { tip: { amount: 5 } } },
      gwc,
    );
    expect(merged.payment_details).toEqual({ customer_reference: 'C-9', order_reference: 'PO-1' });
    expect(merged.amount_details).toBe(gwc.amount_details);
    expect(merged.amount).toBe(100);
  });

  it('when merging gwb, then the fragment replaces lines and metadata entries are combined', () => {
    const merged = mergeGwbOrder({ location_id: 'L1', line_items: [], metadata: { cart: 'c' } }, gwb);
    expect(merged).toEqual({
      location_id: 'L1',
      reference_id: 'PO-1',
      line_items: gwb.line_items,
      metadata: { cart: 'c', invoice_number: 'INV-1' },
    });
  });

  it('when settling gwa, then amount is positional and never among the options', () => {
    const { amount, options } = gwaSettlementArgs({
      amount: '1.00',
      orderId: 'INV',
      purchaseOrderNumber: 'PO',
      taxAmount: '0.00',
      shippingAmount: '0.00',
      discountAmount: '0.00',
      lineItems: [] as never,
    });
    expect(amount).toBe('1.00');
    expect(Object.keys(options).sort()).toEqual([
      'discountAmount',
      'lineItems',
      'orderId',
      'purchaseOrderNumber',
      'shippingAmount',
      'taxAmount',
    ]);
  });
});
