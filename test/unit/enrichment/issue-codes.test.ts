import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CanonicalInvoice } from '../../../contract/canonical-invoice.js';
import {
  enrichInline,
  ISSUE_CODES,
  type EnrichmentRequest,
  type IssueCode,
  type Provider,
} from '../../../server/domain/enrichment/index.js';
import { makeInvoice, makeLine } from './support/invoices.js';
import { issuesOf } from './support/run.js';

const PROVIDERS: Provider[] = ['gwa', 'gwb', 'gwc'];
type ProducibleCode = {
  [C in IssueCode]: (typeof ISSUE_CODES)[C]['producedBy'] extends readonly [] ? never : C;
}[IssueCode];

interface Scenario {
  invoice: CanonicalInvoice;
  /** Ask for line-level representation of tax or discount. */
  lineLevel?: 'tax' | 'discount';
  /** Expected path, per provider when the request shapes differ. */
  path: string | Partial<Record<Provider, string>>;
}

const line = makeLine;
/** One scenario per producible code; the Record type makes a missing code a compile error. */
const scenarios: Record<ProducibleCode, Scenario> = {
  invoice_not_open: { invoice: makeInvoice({ status: 'draft' }), path: 'invoice.status' },
  invoice_balance_not_full: { invoice: makeInvoice({ balanceAmountMinor: 10 }), path: 'invoice.balanceAmountMinor' },
  arithmetic_mismatch: { invoice: makeInvoice({ subtotalAmountMinor: 999, totalAmountMinor: 999 }), path: 'invoice.subtotalAmountMinor' },
  zero_amount_invoice: {
    invoice: makeInvoice({ lineItems: [line({ discountAmountMinor: 1000 })] }),
    path: 'invoice.totalAmountMinor',
  },
  duplicate_sequence: { invoice: makeInvoice({ lineItems: [line(), line()] }), path: 'invoice.lineItems[1].sequence' },
  invalid_quantity: {
    invoice: makeInvoice({ lineItems: [line(), line({ sequence: 2, quantity: '0' })] }),
    path: 'invoice.lineItems[1].quantity',
  },
  unsupported_currency: { invoice: makeInvoice({ currency: 'xyz' }), path: 'invoice.currency' },
  too_many_line_items: {
    invoice: makeInvoice({ lineItems: Array.from({ length: 250 }, (_, i) => line({ sequence: i })) }),
    path: 'invoice.lineItems',
  },
  missing_purchase_order_number: { invoice: makeInvoice({ purchaseOrderReference: null }), path: 'invoice.purchaseOrderReference' },
  purchase_order_number_too_long: {
    invoice: makeInvoice({ purchaseOrderReference: 'P'.repeat(18) }),
    path: 'invoice.purchaseOrderReference',
  },
  purchase_order_number_invalid: { invoice: makeInvoice({ purchaseOrderReference: 'PO—1' }), path: 'invoice.purchaseOrderReference' },
  missing_product_code: { invoice: makeInvoice({ lineItems: [line({ productCode: null })] }), path: 'invoice.lineItems[0].productCode' },
  missing_unit_of_measure: {
    invoice: makeInvoice({ lineItems: [line({ unitOfMeasure: null })] }),
    path: 'invoice.lineItems[0].unitOfMeasure',
  },
  identifier_too_long: {
    invoice: makeInvoice({ lineItems: [line({ commodityCode: '1'.repeat(13) })] }),
    path: 'invoice.lineItems[0].commodityCode',
  },
  identifier_invalid: { invoice: makeInvoice({ lineItems: [line({ productCode: 'SKU•1' })] }), path: 'invoice.lineItems[0].productCode' },
  zero_amount_line: {
    invoice: makeInvoice({ lineItems: [line(), line({ sequence: 2, unitAmountMinor: 0 })] }),
    path: 'invoice.lineItems[1].unitAmountMinor',
  },
  product_name_too_long: {
    invoice: makeInvoice({ lineItems: [line({ productName: 'n'.repeat(1025) })] }),
    path: 'invoice.lineItems[0].productName',
  },
  order_reference_too_long: { invoice: makeInvoice({ purchaseOrderReference: 'P'.repeat(41) }), path: 'invoice.purchaseOrderReference' },
  line_tax_not_allocated: {
    invoice: makeInvoice({ taxAmountMinor: 80 }),
    lineLevel: 'tax',
    path: { gwb: 'taxRepresentation', gwc: 'options.taxRepresentation' },
  },
  line_discount_not_allocated: {
    invoice: makeInvoice({ discountAmountMinor: 80 }),
    lineLevel: 'discount',
    path: { gwb: 'discountRepresentation', gwc: 'options.discountRepresentation' },
  },
  tax_not_representable: {
    invoice: makeInvoice({ lineItems: [line({ unitAmountMinor: 0 })], shippingAmountMinor: 1000, taxAmountMinor: 80 }),
    path: 'invoice.taxAmountMinor',
  },
  discount_not_representable: {
    invoice: makeInvoice({ shippingAmountMinor: 500, discountAmountMinor: 1200 }),
    path: 'invoice.discountAmountMinor',
  },
  tax_shipping_discount_exceed_amount: {
    invoice: makeInvoice({ discountAmountMinor: 600, shippingAmountMinor: 100 }),
    path: 'invoice.totalAmountMinor',
  },
};

function requestFor<P extends Provider>(provider: P, { invoice, lineLevel }: Scenario): EnrichmentRequest<P> {
  const gwb = {
    ...(lineLevel === 'tax' ? { taxRepresentation: 'line_item' as const } : {}),
    ...(lineLevel === 'discount' ? { discountRepresentation: 'line_item' as const } : {}),
  };
  const requests: { [Q in Provider]: EnrichmentRequest<Q> } = {
    gwa: { invoice },
    gwb: { invoice, ...gwb },
    gwc: { invoice, options: gwb },
  };
  return requests[provider];
}

describe('issue codes', () => {
  const cases = (Object.keys(scenarios) as ProducibleCode[]).flatMap((code) =>
    PROVIDERS.map((provider) => ({ code, provider, produces: (ISSUE_CODES[code].producedBy as readonly Provider[]).includes(provider) })),
  );

  it.each(cases)(
    'when the $code scenario is enriched for $provider, then the code appears exactly where the registry says',
    ({ code, provider, produces }) => {
      const scenario = scenarios[code];
      const found = issuesOf(enrichInline(provider, requestFor(provider, scenario)));
      if (produces) {
        const path = typeof scenario.path === 'string' ? scenario.path : scenario.path[provider];
        expect(found).toContainEqual({ code, path });
      } else {
        expect(found.map((i) => i.code)).not.toContain(code);
      }
    },
  );

  it('when docs/issue-codes.md is read, then it lists every code with the providers that produce it', () => {
    const document = readFileSync(new URL('../../../docs/issue-codes.md', import.meta.url), 'utf8');
    // The enrichment table only; the stored-invoice table has its own test (test/unit/invoices).
    const markdown = document.slice(0, document.indexOf('## Stored invoice codes'));
    const rows = [...markdown.matchAll(/^\| `([a-z_]+)` \| .+ \| ([^|]+) \|$/gm)].map(([, code, providers]) => [code, providers?.trim()]);
    const expected = Object.entries(ISSUE_CODES).map(([code, entry]) => [
      code,
      entry.producedBy.length > 0 ? entry.producedBy.join(', ') : '—',
    ]);
    expect(rows).toStrictEqual(expected);
  });
});
