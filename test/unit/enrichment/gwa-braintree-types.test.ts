import type { TransactionLineItem, TransactionRequest } from 'braintree';
import { describe, expect, it } from 'vitest';
import type { GwaLineItem, GwaTransactionEnrichmentData } from '../../../contract/enrichment.js';
import { enrichGwa } from '../../../server/domain/enrichment/index.js';
import { happyInvoice } from './support/invoices.js';
import { dataOf } from './support/run.js';

/*
 * Compile-time proof, checked by `tsc --noEmit`, that the gwa output fits the
 * gwa SDK's own sale request type (@types/braintree 3.4.4, TransactionRequest):
 * spreading `data` next to a nonce must type-check without casts.
 */
type Assignable<From, To> = [From] extends [To] ? true : false;
/** Assignability allows extra keys, but the SDK rejects unknown keys at run time (InvalidKeysError). */
type OnlyKnownKeys<From, To> = [Exclude<keyof From, keyof To>] extends [never] ? true : false;
const dataFitsSaleRequest: Assignable<GwaTransactionEnrichmentData, TransactionRequest> = true;
const lineFitsSdkLine: Assignable<GwaLineItem, TransactionLineItem> = true;
const dataKeysKnown: OnlyKnownKeys<GwaTransactionEnrichmentData, TransactionRequest> = true;
const lineKeysKnown: OnlyKnownKeys<GwaLineItem, TransactionLineItem> = true;

describe('gwa output and the gwa SDK types', () => {
  it('when the gwa output is spread into a sale request, then it type-checks as the SDK TransactionRequest', () => {
    const data = dataOf(enrichGwa({ invoice: happyInvoice() }));
    const sale: TransactionRequest = { ...data, paymentMethodNonce: 'fake-valid-nonce', options: { submitForSettlement: true } };
    expect([dataFitsSaleRequest, lineFitsSdkLine, dataKeysKnown, lineKeysKnown]).toStrictEqual([true, true, true, true]);
    expect(sale.amount).toBe('134.90');
    expect(sale.lineItems).toHaveLength(2);
  });
});
