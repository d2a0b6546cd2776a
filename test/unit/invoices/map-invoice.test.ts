import { describe, expect, it } from 'vitest';
import type { IssueCategory } from '../../../contract/common/index.js';
import { StoredInvoiceSchema, type StoredInvoice } from '../../../contract/invoices.js';
import { CARD_NUMBER_REDACTED, redactCardNumbers } from '../../../server/domain/guard/redact-card-numbers.js';
import { isProviderIdentifier } from '../../../server/domain/invoices/source-record.js';
import { MAPPER_VERSION, mapInvoice, type MapperInput } from '../../../server/domain/invoices/index.js';
import {
  discountLine,
  input,
  item,
  mapping,
  preferences,
  salesLine,
  shippingLine,
  sourceInvoice,
  stored,
  storedLine,
  subtotalLine,
} from './support/source.js';

/** The mapper's input as the import stores it: every source record redacted (server/domain/ledger/import-run.ts). */
const redactedImport = (overrides: Partial<MapperInput>): MapperInput => {
  const raw = input(overrides);
  const redact = (r: Record<string, unknown>) =>
    redactCardNumbers(r, { isIdentifier: isProviderIdentifier }).value as Record<string, unknown>;
  return { ...raw, invoice: redact(raw.invoice), items: raw.items.map(redact) };
};

const issue = (code: string, path: string, category: IssueCategory) => ({ code, path, category, message: expect.any(String) });

interface Case {
  name: string;
  input: MapperInput;
  invoice: StoredInvoice;
  issues?: ReturnType<typeof issue>[];
}

const lines = (...extra: Record<string, unknown>[]) => [
  salesLine('1', '11', 2, 12.5, 25),
  salesLine('2', '12', 1, 10, 10),
  subtotalLine(35),
  ...extra,
];

const cases: Case[] = [
  { name: 'a provider invoice is open with balance = total, then it is open with exact minor units', input: input(), invoice: stored() },
  {
    name: 'the balance is between 0 and the total, then it is partially_paid',
    input: input({ invoice: sourceInvoice({ Balance: 10.8 }) }),
    invoice: stored({ status: 'partially_paid', balanceAmountMinor: 1080 }),
  },
  {
    name: 'the balance is 0 and the total positive, then it is paid',
    input: input({ invoice: sourceInvoice({ Balance: 0 }) }),
    invoice: stored({ status: 'paid', balanceAmountMinor: 0 }),
  },
  {
    name: 'the provider voided it (amounts zeroed, PrivateNote starts with Voided), then it is void with voidedAt from LastUpdatedTime',
    input: input({
      invoice: sourceInvoice({
        Line: [salesLine('1', '11', 0, 0, 0), salesLine('2', '12', 0, 0, 0), subtotalLine(0)],
        TxnTaxDetail: { TotalTax: 0 },
        TotalAmt: 0,
        Balance: 0,
        PrivateNote: 'Voided - customer cancelled',
      }),
    }),
    invoice: stored({
      status: 'void',
      subtotalAmountMinor: 0,
      taxAmountMinor: 0,
      totalAmountMinor: 0,
      balanceAmountMinor: 0,
      voidedAt: '2026-11-02T18:30:00.000Z',
      lineItems: [
        storedLine(1, { quantity: '0', unitAmountMinor: 0, subtotalAmountMinor: 0 }),
        storedLine(2, { quantity: '0', unitAmountMinor: 0, subtotalAmountMinor: 0 }),
      ],
    }),
  },
  {
    name: 'the total is zero without a void, then the status is unknown',
    input: input({
      invoice: sourceInvoice({
        Line: [salesLine('1', '11', 1, 0, 0), subtotalLine(0)],
        TxnTaxDetail: { TotalTax: 0 },
        TotalAmt: 0,
        Balance: 0,
      }),
    }),
    invoice: stored({
      status: 'unknown',
      subtotalAmountMinor: 0,
      taxAmountMinor: 0,
      totalAmountMinor: 0,
      balanceAmountMinor: 0,
      lineItems: [storedLine(1, { quantity: '1', unitAmountMinor: 0, subtotalAmountMinor: 0 })],
    }),
  },
  {
    name: 'the source deleted the invoice, then the last snapshot stays with a source issue',
    input: input({ deleted: true }),
    invoice: stored(),
    issues: [issue('invoice_deleted_at_source', 'source', 'source')],
  },
  {
    name: 'the import redacted a card number in the invoice and in an item it reads, then each field is a source issue and the marker is stored',
    input: redactedImport({
      invoice: sourceInvoice({
        Line: lines().map((l, i) => (i === 0 ? { ...l, Description: 'card 4111 1111 1111 1111 exp 12/30' } : l)),
        CustomerMemo: { value: 'Visa 4111-1111-1111-1111' },
      }),
      items: [item('11'), item('12', { Sku: '5555 5555 5555 4444' })],
    }),
    invoice: stored({
      lineItems: [storedLine(1, { description: CARD_NUMBER_REDACTED }), storedLine(2, { productCode: CARD_NUMBER_REDACTED })],
    }),
    issues: [
      issue('card_data_in_source', 'source.Line[0].Description', 'source'),
      issue('card_data_in_source', 'source.CustomerMemo.value', 'source'),
      issue('card_data_in_source', 'source.Item(12).Sku', 'source'),
    ],
  },
  {
    name: 'an amount has more fraction digits than the currency, then it is null and an issue, never rounded',
    input: input({ invoice: sourceInvoice({ TotalAmt: 37.805, Balance: 37.805 }) }),
    invoice: stored({ status: 'unknown', totalAmountMinor: null, balanceAmountMinor: null }),
    issues: [
      issue('amount_not_exact', 'invoice.totalAmountMinor', 'validation'),
      issue('amount_not_exact', 'invoice.balanceAmountMinor', 'validation'),
    ],
  },
  {
    name: 'a unit price has sub-cent precision, then the line unit amount is null with an issue',
    input: input({ invoice: sourceInvoice({ Line: lines().map((l, i) => (i === 0 ? salesLine('1', '11', 2, 12.4999, 25) : l)) }) }),
    invoice: stored({ lineItems: [storedLine(1, { unitAmountMinor: null }), storedLine(2)] }),
    issues: [issue('amount_not_exact', 'invoice.lineItems[0].unitAmountMinor', 'validation')],
  },
  {
    name: 'a number is a float artefact (0.1 + 0.2) or needs exponent notation, then it is not exact',
    input: input({ invoice: sourceInvoice({ TotalAmt: 0.1 + 0.2, Balance: 1e21 }) }),
    invoice: stored({ status: 'unknown', totalAmountMinor: null, balanceAmountMinor: null }),
    issues: [
      issue('amount_not_exact', 'invoice.totalAmountMinor', 'validation'),
      issue('amount_not_exact', 'invoice.balanceAmountMinor', 'validation'),
    ],
  },
  {
    name: 'amounts arrive as decimal strings, then they are read exactly',
    input: input({ invoice: sourceInvoice({ TotalAmt: '37.80', Balance: '37.8' }) }),
    invoice: stored(),
  },
  {
    name: 'the invoice is in JPY (no minor digits), then major units are minor units and the currency is lowercase',
    input: input({
      invoice: sourceInvoice({
        CurrencyRef: { value: 'JPY' },
        Line: [salesLine('1', '11', 2, 1250, 2500), salesLine('2', '12', 1, 1000, 1000), subtotalLine(3500)],
        TxnTaxDetail: { TotalTax: 280 },
        TotalAmt: 3780,
        Balance: 3780,
      }),
    }),
    invoice: stored({ currency: 'jpy' }),
  },
  {
    name: 'the invoice has no CurrencyRef, then the company home currency is used',
    input: input({
      invoice: sourceInvoice({ CurrencyRef: undefined }),
      preferences: preferences({ CurrencyPrefs: { HomeCurrency: { value: 'CAD' } } }),
    }),
    invoice: stored({ currency: 'cad' }),
  },
  {
    name: 'neither invoice nor preferences name a currency, then currency and money stay null',
    input: input({ invoice: sourceInvoice({ CurrencyRef: undefined }), preferences: preferences({ CurrencyPrefs: {} }) }),
    invoice: stored({
      currency: null,
      status: 'unknown',
      subtotalAmountMinor: null,
      taxAmountMinor: null,
      shippingAmountMinor: null,
      discountAmountMinor: null,
      totalAmountMinor: null,
      balanceAmountMinor: null,
      lineItems: [
        storedLine(1, { unitAmountMinor: null, subtotalAmountMinor: null }),
        storedLine(2, { unitAmountMinor: null, subtotalAmountMinor: null }),
      ],
    }),
    issues: [issue('missing_currency', 'invoice.currency', 'validation')],
  },
  {
    name: 'a confirmed mapping exists, then it gives product code, unit and commodity code; else the SKU as is and no unit',
    input: input({
      items: [item('11'), item('12', { Sku: 'a very long SKU of the source, not truncated' })],
      mappings: [mapping('11', { commodityCode: '44121600' })],
    }),
    invoice: stored({
      lineItems: [
        storedLine(1, { productCode: 'PC-11', unitOfMeasure: 'EA', commodityCode: '44121600' }),
        storedLine(2, { productCode: 'a very long SKU of the source, not truncated' }),
      ],
    }),
  },
  {
    name: 'an item has no SKU and no mapping, then the product code is null',
    input: input({ items: [item('11', { Sku: undefined }), item('12')] }),
    invoice: stored({ lineItems: [storedLine(1, { productCode: null }), storedLine(2)] }),
  },
  {
    name: 'the latest mapping of an item is revoked, then no mapping applies and a mapping issue says so',
    input: input({ mappings: [mapping('11'), mapping('11', { id: '00000000-0000-4000-8000-000000000099', version: 2, revoked: true })] }),
    invoice: stored(),
    issues: [issue('item_mapping_revoked', 'invoice.lineItems[0].sourceItemId', 'mapping')],
  },
  {
    name: 'a referenced Item is not imported, then the name comes from ItemRef and a source issue names the item',
    input: input({ items: [item('12')] }),
    invoice: stored({ lineItems: [storedLine(1, { productName: 'Item ref 11', productCode: null }), storedLine(2)] }),
    issues: [issue('missing_dependency', 'invoice.lineItems[0].sourceItemId', 'source')],
  },
  {
    name: 'a percent discount line exists, then its amount is the transaction discount',
    input: input({ invoice: sourceInvoice({ Line: lines(discountLine(3.5, 10)), TotalAmt: 34.3, Balance: 34.3 }) }),
    invoice: stored({ discountAmountMinor: 350, totalAmountMinor: 3430, balanceAmountMinor: 3430 }),
  },
  {
    name: 'subtotal and description-only lines exist, then they are skipped',
    input: input({
      invoice: sourceInvoice({ Line: lines({ DetailType: 'DescriptionOnly', Description: 'Thank you', DescriptionLineDetail: {} }) }),
    }),
    invoice: stored(),
  },
  {
    name: 'a group line exists, then it is an issue and not a stored line',
    input: input({
      invoice: sourceInvoice({
        Line: lines({ Id: '9', DetailType: 'GroupLineDetail', GroupLineDetail: { GroupItemRef: { value: '40' }, Quantity: 1, Line: [] } }),
      }),
    }),
    invoice: stored(),
    issues: [issue('group_line_unsupported', 'source.Line[3]', 'validation')],
  },
  {
    name: 'the invoice is tax-inclusive, then it is an issue',
    input: input({ invoice: sourceInvoice({ GlobalTaxCalculation: 'TaxInclusive' }) }),
    invoice: stored(),
    issues: [issue('tax_inclusive_invoice', 'source.GlobalTaxCalculation', 'validation')],
  },
  {
    name: 'one shipping line exists, then its amount is the shipping',
    input: input({ invoice: sourceInvoice({ Line: lines(shippingLine('3', 5)), TotalAmt: 42.8, Balance: 42.8 }) }),
    invoice: stored({ shippingAmountMinor: 500, totalAmountMinor: 4280, balanceAmountMinor: 4280 }),
  },
  {
    name: 'two shipping lines exist, then shipping is ambiguous and null',
    input: input({ invoice: sourceInvoice({ Line: lines(shippingLine('3', 5), shippingLine('4', 2)), TotalAmt: 44.8, Balance: 44.8 }) }),
    invoice: stored({ shippingAmountMinor: null, totalAmountMinor: 4480, balanceAmountMinor: 4480 }),
    issues: [issue('ambiguous_shipping', 'invoice.shippingAmountMinor', 'validation')],
  },
  {
    name: 'a sales line has no item reference, then it is an issue and not stored',
    input: input({
      invoice: sourceInvoice({ Line: lines({ Id: '5', Amount: 3, DetailType: 'SalesItemLineDetail', SalesItemLineDetail: { Qty: 1 } }) }),
    }),
    invoice: stored(),
    issues: [issue('missing_item_reference', 'source.Line[3].SalesItemLineDetail.ItemRef', 'mapping')],
  },
  {
    name: 'there is no tax detail and the company does not use sales tax, then tax is 0',
    input: input({
      invoice: sourceInvoice({ TxnTaxDetail: undefined, TotalAmt: 35, Balance: 35 }),
      preferences: preferences({ TaxPrefs: { UsingSalesTax: false } }),
    }),
    invoice: stored({ taxAmountMinor: 0, totalAmountMinor: 3500, balanceAmountMinor: 3500 }),
  },
  {
    name: 'there is no tax detail and the company uses sales tax, then tax is unknown (null), never invented',
    input: input({ invoice: sourceInvoice({ TxnTaxDetail: undefined }) }),
    invoice: stored({ taxAmountMinor: null }),
    issues: [issue('tax_unknown', 'invoice.taxAmountMinor', 'validation')],
  },
  {
    name: 'no PO field is configured, then the PO is null even though a custom field holds one',
    input: input({ settings: { purchaseOrderField: null, version: 1 } }),
    invoice: stored({ purchaseOrderReference: null }),
  },
  {
    name: 'the configured label is found in Preferences, then the invoice field with its DefinitionId is read even if renamed',
    input: input({
      invoice: sourceInvoice({ CustomField: [{ DefinitionId: '3', Name: 'PO (old label)', Type: 'StringType', StringValue: ' PO-9 ' }] }),
    }),
    invoice: stored({ purchaseOrderReference: 'PO-9' }),
  },
  {
    name: 'the configured field is empty on the invoice, then the PO is null (never the memo or the number)',
    input: input({
      invoice: sourceInvoice({
        CustomField: [{ DefinitionId: '3', Name: 'Purchase Order', Type: 'StringType' }],
        CustomerMemo: { value: 'PO 55' },
      }),
    }),
    invoice: stored({ purchaseOrderReference: null }),
  },
  {
    name: 'the label is not in Preferences, then the invoice field is matched by its Name',
    input: input({
      settings: { purchaseOrderField: 'crew #', version: 1 },
      preferences: preferences({ SalesFormsPrefs: {} }),
      invoice: sourceInvoice({ CustomField: [{ DefinitionId: '1', Name: 'Crew #', Type: 'StringType', StringValue: 'C-1' }] }),
    }),
    invoice: stored({ purchaseOrderReference: 'C-1' }),
  },
  {
    name: 'the total does not equal subtotal + tax + shipping − discount, then the shared arithmetic check reports it',
    input: input({ invoice: sourceInvoice({ TotalAmt: 40, Balance: 40 }) }),
    invoice: stored({ totalAmountMinor: 4000, balanceAmountMinor: 4000 }),
    issues: [issue('arithmetic_mismatch', 'invoice.totalAmountMinor', 'validation')],
  },
  {
    name: 'a line amount is not quantity × unit price, then the shared arithmetic check reports the line',
    input: input({ invoice: sourceInvoice({ Line: lines().map((l, i) => (i === 1 ? salesLine('2', '12', 1, 10, 11) : l)) }) }),
    invoice: stored({ subtotalAmountMinor: 3600, lineItems: [storedLine(1), storedLine(2, { subtotalAmountMinor: 1100 })] }),
    issues: [
      issue('arithmetic_mismatch', 'invoice.lineItems[1].subtotalAmountMinor', 'validation'),
      issue('arithmetic_mismatch', 'invoice.totalAmountMinor', 'validation'),
    ],
  },
  {
    name: 'the invoice has no DocNumber, then the number is null with an issue',
    input: input({ invoice: sourceInvoice({ DocNumber: undefined }) }),
    invoice: stored({ invoiceNumber: null }),
    issues: [issue('missing_invoice_number', 'invoice.invoiceNumber', 'validation')],
  },
  {
    name: 'Preferences are not imported, then it is a missing dependency (the PO falls back to the field Name)',
    input: input({ preferences: null }),
    invoice: stored(),
    issues: [issue('missing_dependency', 'source.Preferences', 'source')],
  },
];

describe('mapInvoice', () => {
  it.each(cases)('when $name', ({ input: given, invoice, issues = [] }) => {
    const mapped = mapInvoice(given);
    expect(mapped.invoice).toStrictEqual(invoice);
    expect(mapped.issues).toStrictEqual(issues);
    expect(StoredInvoiceSchema.parse(mapped.invoice)).toStrictEqual(invoice);
  });

  it('when the total does not add up but a line text is beyond the canonical schema, then the arithmetic is not checked', () => {
    const longText = 'x'.repeat(4097);
    const mismatched = { TotalAmt: 40, Balance: 40 };
    const line = (description: string) => [
      salesLine('1', '11', 2, 12.5, 25, { Description: description }),
      salesLine('2', '12', 1, 10, 10),
    ];
    const valid = mapInvoice(input({ invoice: sourceInvoice({ ...mismatched, Line: line('Line 1') }) }));
    expect(valid.issues.map((i) => i.code)).toStrictEqual(['arithmetic_mismatch']);
    const refused = mapInvoice(input({ invoice: sourceInvoice({ ...mismatched, Line: line(longText) }) }));
    expect(refused.invoice.lineItems[0]!.description).toBe(longText);
    expect(refused.issues).toStrictEqual([]);
  });

  it('when an invoice is mapped, then provenance lists dependencies, applied mappings and a stable revision', () => {
    const applied = mapping('11');
    const mapped = mapInvoice(input({ mappings: [applied] }));
    expect(mapped).toMatchObject({ mapperVersion: MAPPER_VERSION, ledgerInvoiceId: '1001', sourceVersion: '3', deleted: false });
    expect(mapped.dependencies).toStrictEqual([
      { objectType: 'Invoice', externalId: '1001', version: '3' },
      { objectType: 'Preferences', externalId: '1', version: '5' },
      { objectType: 'Item', externalId: '11', version: '0' },
      { objectType: 'Item', externalId: '12', version: '0' },
    ]);
    const { commodityCode: _c, revoked: _r, ...provenance } = applied;
    expect(mapped.mappings).toStrictEqual([provenance]);
    expect(mapInvoice(input({ mappings: [applied] })).revision).toBe(mapped.revision);
    expect(mapped.revision).toMatch(/^r1_[0-9a-f]{40}$/);
  });

  it('when the invoice, an item, the settings or a mapping changes, then the revision changes', () => {
    const base = mapInvoice(input()).revision;
    const changed = [
      input({ invoice: sourceInvoice({ SyncToken: '4' }) }),
      input({ items: [item('11', { SyncToken: '1' }), item('12')] }),
      input({ settings: { purchaseOrderField: 'Purchase Order', version: 2 } }),
      input({ mappings: [mapping('11')] }),
      input({ mappings: [mapping('11', { revoked: true })] }),
    ].map((i) => mapInvoice(i).revision);
    expect(new Set([base, ...changed]).size).toBe(6);
  });

  it('when the mapper reports an issue, then its message explains the fact', () => {
    const mapped = mapInvoice(input({ invoice: sourceInvoice({ TotalAmt: 37.805, Balance: 37.8 }) }));
    expect(mapped.issues).toStrictEqual([
      {
        code: 'amount_not_exact',
        path: 'invoice.totalAmountMinor',
        category: 'validation',
        message:
          'A source amount is not an exact nonnegative whole number of minor units; it is never rounded. 37.805 has more than 2 fraction digits.',
      },
    ]);
  });
});
