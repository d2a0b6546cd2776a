import { describe, expect, it } from 'vitest';
import {
  GwaTransactionEnrichmentRequestSchema,
  GwbOrderEnrichmentRequestSchema,
  GwcPaymentIntentEnrichmentRequestSchema,
} from '../../../contract/enrichment.js';
import { makeInvoice } from './support/invoices.js';

const invoice = makeInvoice();

/** Shape only: 400 territory. Provider limits and arithmetic pass zod and become 422 issues. */
describe('enrichment request contract', () => {
  it.each([
    ['no options', {}],
    ['a 10-character postal code', { options: { shipsFromPostalCode: 'AB12 3-CD9' } }],
    ['the invoice number as PO source', { options: { purchaseOrderNumberSource: 'invoice_number' } }],
  ])('when a gwa body has %s, then it is accepted', (_, extra) => {
    expect(GwaTransactionEnrichmentRequestSchema.safeParse({ invoice, ...extra }).success).toBe(true);
  });

  it.each([
    ['an unknown top-level key', { invoice, amount: 1 }],
    ['an unknown option', { invoice, options: { currency: 'usd' } }],
    ['an 11-character postal code', { invoice, options: { shipsFromPostalCode: '12345678901' } }],
    ['a postal code with other characters', { invoice, options: { shipsFromPostalCode: '1$345' } }],
    ['an empty postal code', { invoice, options: { shipsFromPostalCode: '' } }],
    ['an unknown PO source', { invoice, options: { purchaseOrderNumberSource: 'customer' } }],
    ['an amount sent as a string', { invoice: { ...invoice, totalAmountMinor: '1000' } }],
    ['no invoice', {}],
  ])('when a gwa body has %s, then it is rejected', (_, body) => {
    expect(GwaTransactionEnrichmentRequestSchema.safeParse(body).success).toBe(false);
  });

  it.each([
    ['line representations', { taxRepresentation: 'line_item', discountRepresentation: 'line_item' }, true],
    ['order representations', { taxRepresentation: 'order', discountRepresentation: 'order' }, true],
    ['a 41-character orderReference (a 422 issue, not a 400)', { orderReference: 'R'.repeat(41) }, true],
    ["gwc's `transaction` value", { taxRepresentation: 'transaction' }, false],
    ['options nested like gwc', { options: { orderReference: 'X' } }, false],
    ['a 161-character orderReference', { orderReference: 'R'.repeat(161) }, false],
  ])('when a gwb body has %s, then acceptance is %s', (_, extra, accepted) => {
    expect(GwbOrderEnrichmentRequestSchema.safeParse({ invoice, ...extra }).success).toBe(accepted);
  });

  it.each([
    [
      'every option',
      {
        orderReference: 'O',
        customerReference: 'C',
        taxRepresentation: 'line_item',
        discountRepresentation: 'transaction',
        shipping: { fromPostalCode: '94107', toPostalCode: null },
      },
      true,
    ],
    ['a null customer reference', { customerReference: null }, true],
    ["gwb's `order` value", { taxRepresentation: 'order' }, false],
    ['an unknown shipping key', { shipping: { amount: 5 } }, false],
    ['an 11-character postal code', { shipping: { toPostalCode: '12345 67890' } }, false],
    ['a numeric postal code', { shipping: { toPostalCode: 94107 } }, false],
  ])('when gwc options have %s, then acceptance is %s', (_, options, accepted) => {
    expect(GwcPaymentIntentEnrichmentRequestSchema.safeParse({ invoice, options }).success).toBe(accepted);
  });
});
