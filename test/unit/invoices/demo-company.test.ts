import { describe, expect, it } from 'vitest';
import { mapInvoice } from '../../../server/domain/invoices/map-invoice.js';
import { readinessOf } from '../../../server/domain/invoices/readiness.js';
import { referencedItemIds } from '../../../server/domain/invoices/store-invoices.js';
import { demoCompany } from '../../../server/ledger-sandbox/demo-company.js';

/** The demo company shows each mapping rule on one invoice (README walkthrough, docs/invoices.md). */
describe('demo company rule invoices', () => {
  const company = demoCompany();
  const map = (docNumber: string, purchaseOrderField: string | null = 'Purchase Order') => {
    const invoice = company.Invoice.find((i) => i.DocNumber === docNumber && String(i.Id).startsWith('2'))!;
    const items = company.Item.filter((i) => referencedItemIds(invoice).includes(String(i.Id)));
    return mapInvoice({
      invoice,
      items,
      preferences: company.Preferences,
      settings: { purchaseOrderField, version: 1 },
      mappings: [],
      deleted: false,
    });
  };
  const codes = (docNumber: string) => [...new Set(map(docNumber).issues.map((i) => i.code))].sort();

  it.each([
    ['RULE-DISCOUNT-SHIPPING', []],
    ['RULE-TAX-INCLUSIVE', ['tax_inclusive_invoice']],
    // A line the mapper cannot use leaves the stored lines short of the total: the arithmetic says so too.
    ['RULE-GROUP-LINE', ['arithmetic_mismatch', 'group_line_unsupported']],
    ['RULE-NO-ITEM', ['arithmetic_mismatch', 'missing_item_reference']],
    ['RULE-INEXACT', ['amount_not_exact']],
  ])('when %s is mapped, then the mapper reports %j', (docNumber, expected) => {
    expect(codes(docNumber)).toEqual(expected);
  });

  it('when the discount-and-shipping invoice is mapped, then the discount and the shipping are transaction amounts and it is ready for gwb', () => {
    const mapped = map('RULE-DISCOUNT-SHIPPING');
    expect(mapped.invoice).toMatchObject({
      status: 'open',
      shippingAmountMinor: 1250,
      discountAmountMinor: 500,
      taxAmountMinor: 300,
      purchaseOrderReference: 'PO-R1',
    });
    const now = new Date();
    const readiness = readinessOf({
      provider: 'gwb',
      invoice: mapped.invoice,
      mapperIssues: mapped.issues,
      deleted: false,
      connectionStatus: 'active',
      checkedThrough: now,
      syncActive: false,
      now,
    });
    expect(readiness).toMatchObject({ ready: true, issues: [] });
  });

  it('when the void and the euro invoices are read for gwa, then they are not open and not in USD', () => {
    expect(map('RULE-VOID').invoice.status).toBe('void');
    const euro = map('RULE-EURO');
    expect(euro.invoice.currency).toBe('eur');
    const now = new Date();
    const readiness = readinessOf({
      provider: 'gwa',
      invoice: euro.invoice,
      mapperIssues: euro.issues,
      deleted: false,
      connectionStatus: 'active',
      checkedThrough: now,
      syncActive: false,
      now,
    });
    expect(readiness.issues.map((i) => i.code)).toContain('unsupported_currency');
  });
});
