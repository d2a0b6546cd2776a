import { describe, expect, it } from 'vitest';
import type { StoredInvoice } from '../../../contract/invoices.js';
import type { PreparationRequest } from '../../../contract/preparations.js';
import { DomainError } from '../../../server/domain/errors.js';
import { mapInvoice } from '../../../server/domain/invoices/index.js';
import { decidePreparation, evaluate, type PreparationKind } from '../../../server/domain/preparations/evaluate.js';
import type { InvoiceState } from '../../../server/domain/invoices/index.js';
import { input, mapping } from '../invoices/support/source.js';

const now = new Date('2026-11-20T12:01:00.000Z');

/** A stored invoice as the preparation reads it: mapped from the source fixture, fresh active source. */
function row(invoice: StoredInvoice): InvoiceState {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    integrationId: '00000000-0000-4000-8000-000000000002',
    connectionId: '00000000-0000-4000-8000-000000000003',
    realmId: '9341',
    connectionStatus: 'active',
    checkedThrough: new Date('2026-11-20T12:00:00.000Z'),
    syncActive: false,
    sourceRecordId: '00000000-0000-4000-8000-000000000004',
    ledgerInvoiceId: '1001',
    invoiceNumber: invoice.invoiceNumber,
    status: invoice.status,
    currency: invoice.currency,
    totalAmountMinor: invoice.totalAmountMinor,
    sourceVersion: '3',
    revision: 'r1',
    deleted: false,
    createdAt: now,
    snapshotId: '00000000-0000-4000-8000-000000000005',
    mapperVersion: '1',
    invoice,
    issues: [],
    dependencies: [],
    mappings: [],
    qualification: null,
    crossInvoiceRisks: null,
  };
}

const mapped = mapInvoice(input({ mappings: [mapping('11'), mapping('12')] }));
const request = (extra: Partial<PreparationRequest> = {}): PreparationRequest => ({
  invoiceId: '00000000-0000-4000-8000-000000000001',
  amountMinor: 3780,
  currency: 'usd',
  idempotencyKey: 'k',
  ...extra,
});

function decide(invoice: StoredInvoice, kind: PreparationKind, extra: Partial<PreparationRequest> = {}) {
  try {
    return decidePreparation(evaluate(row(invoice), 'gwc', request(extra), now), kind);
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    return { refused: e.type, status: e.status, issues: e.issues.map((i) => `${i.code} ${i.path}`) };
  }
}

describe('decidePreparation: ordinary mode is for enhanced-data gaps only', () => {
  it('when the invoice is ready, then both kinds are enhanced', () => {
    expect(decide(mapped.invoice, 'enrichment')).toMatchObject({ mode: 'enhanced' });
    expect(decide(mapped.invoice, 'payment_preparation')).toMatchObject({ mode: 'enhanced' });
  });

  it('when only a unit is missing, then endpoint 12 is ordinary with the issue and endpoint 11 refuses 422', () => {
    const invoice = { ...mapped.invoice, lineItems: mapped.invoice.lineItems.map((l, i) => (i === 0 ? { ...l, unitOfMeasure: null } : l)) };
    expect(decide(invoice, 'payment_preparation')).toStrictEqual({
      mode: 'ordinary',
      data: {
        mode: 'ordinary',
        enrichment: null,
        optimizationIssues: [expect.objectContaining({ code: 'missing_unit_of_measure', path: 'invoice.lineItems[0].unitOfMeasure' })],
      },
    });
    expect(decide(invoice, 'enrichment')).toStrictEqual({
      refused: 'validation_error',
      status: 422,
      issues: ['missing_unit_of_measure invoice.lineItems[0].unitOfMeasure'],
    });
  });

  for (const [fact, change] of [
    ['total', { totalAmountMinor: null }],
    ['balance', { balanceAmountMinor: null }],
    ['currency', { currency: null }],
  ] as const) {
    it(`when the ${fact} is not known (and the status still reads open), then endpoint 12 refuses exactly like endpoint 11`, () => {
      const invoice = { ...mapped.invoice, ...change } as StoredInvoice;
      const eleven = decide(invoice, 'enrichment');
      expect(eleven).toMatchObject({ refused: 'validation_error', status: 422 });
      expect(decide(invoice, 'payment_preparation')).toStrictEqual(eleven);
    });
  }

  it('when a paid invoice cannot become canonical (a line amount unknown), then the full-invoice rule still refuses it (409 conflict) on both', () => {
    const invoice: StoredInvoice = {
      ...mapped.invoice,
      status: 'paid',
      balanceAmountMinor: 0,
      lineItems: mapped.invoice.lineItems.map((l, i) => (i === 0 ? { ...l, subtotalAmountMinor: null } : l)),
    };
    const expected = {
      refused: 'conflict',
      status: undefined,
      issues: expect.arrayContaining([
        'invoice_not_open invoice.status',
        'invoice_balance_not_full invoice.balanceAmountMinor',
        'fact_unavailable invoice.lineItems[0].subtotalAmountMinor',
      ]),
    };
    expect(decide(invoice, 'payment_preparation')).toStrictEqual(expected);
    expect(decide(invoice, 'enrichment')).toStrictEqual(expected);
  });

  it('when the invoice has no snapshot, then both kinds refuse 422 fact_unavailable', () => {
    const none = { ...row(mapped.invoice), snapshotId: null, invoice: null };
    for (const kind of ['enrichment', 'payment_preparation'] as const) {
      expect(() => decidePreparation(evaluate(none, 'gwc', request(), now), kind)).toThrow(
        expect.objectContaining({
          type: 'validation_error',
          status: 422,
          issues: [expect.objectContaining({ code: 'fact_unavailable', path: 'invoice' })],
        }),
      );
    }
  });
});
