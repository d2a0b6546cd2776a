import type { StoredInvoice, StoredLine } from '../../../../contract/invoices.js';
import type { ItemMapping, MapperInput } from '../../../../server/domain/invoices/index.js';

/**
 * Provider-shaped records (accounting source entity shapes: Invoice with
 * SalesItemLineDetail lines and a computed SubTotalLine, Items, Preferences with
 * custom-field labels), as the importer stores them after JSON.parse.
 */
type Json = Record<string, unknown>;

export function salesLine(id: string, itemId: string, qty: unknown, unitPrice: unknown, amount: unknown, extra: Json = {}): Json {
  return {
    Id: id,
    LineNum: Number(id),
    Description: `Line ${id}`,
    Amount: amount,
    DetailType: 'SalesItemLineDetail',
    SalesItemLineDetail: {
      ItemRef: { value: itemId, name: `Item ref ${itemId}` },
      Qty: qty,
      UnitPrice: unitPrice,
      TaxCodeRef: { value: 'TAX' },
    },
    ...extra,
  };
}

export const subtotalLine = (amount: number): Json => ({ Amount: amount, DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} });
export const discountLine = (amount: unknown, percent?: number): Json => ({
  Amount: amount,
  DetailType: 'DiscountLineDetail',
  DiscountLineDetail: percent === undefined ? { PercentBased: false } : { PercentBased: true, DiscountPercent: percent },
});
export const shippingLine = (id: string, amount: unknown): Json => ({
  Id: id,
  LineNum: Number(id),
  Amount: amount,
  DetailType: 'SalesItemLineDetail',
  SalesItemLineDetail: { ItemRef: { value: 'SHIPPING_ITEM_ID' } },
});

/** An open USD invoice: 2 × 12.50 + 1 × 10.00 = 35.00, tax 2.80, total 37.80, PO in custom field 3. */
export function sourceInvoice(overrides: Json = {}): Json {
  return {
    Id: '1001',
    SyncToken: '3',
    DocNumber: 'INV-1001',
    TxnDate: '2026-11-01',
    DueDate: '2026-12-01',
    CurrencyRef: { value: 'USD', name: 'United States Dollar' },
    CustomerRef: { value: '7', name: 'Buyer Inc' },
    CustomField: [{ DefinitionId: '3', Name: 'Purchase Order', Type: 'StringType', StringValue: 'PO-77' }],
    Line: [salesLine('1', '11', 2, 12.5, 25), salesLine('2', '12', 1, 10, 10), subtotalLine(35)],
    TxnTaxDetail: { TxnTaxCodeRef: { value: '2' }, TotalTax: 2.8, TaxLine: [] },
    GlobalTaxCalculation: 'TaxExcluded',
    ApplyTaxAfterDiscount: false,
    TotalAmt: 37.8,
    Balance: 37.8,
    PrivateNote: 'Thanks',
    MetaData: { CreateTime: '2026-11-01T09:00:00-08:00', LastUpdatedTime: '2026-11-02T10:30:00-08:00' },
    ...overrides,
  };
}

export function item(id: string, overrides: Json = {}): Json {
  return {
    Id: id,
    SyncToken: '0',
    Name: `Product ${id}`,
    Sku: `SKU-${id}`,
    Type: 'NonInventory',
    UnitPrice: 1,
    Active: true,
    ...overrides,
  };
}

export function preferences(overrides: Json = {}): Json {
  return {
    Id: '1',
    SyncToken: '5',
    CurrencyPrefs: { MultiCurrencyEnabled: false, HomeCurrency: { value: 'USD' } },
    TaxPrefs: { UsingSalesTax: true, PartnerTaxEnabled: false },
    SalesFormsPrefs: {
      CustomField: [
        {
          CustomField: [
            { Name: 'SalesFormsPrefs.UseSalesCustom1', Type: 'BooleanType', BooleanValue: true },
            { Name: 'SalesFormsPrefs.SalesCustomName1', Type: 'StringType', StringValue: 'Crew #' },
            { Name: 'SalesFormsPrefs.UseSalesCustom3', Type: 'BooleanType', BooleanValue: true },
            { Name: 'SalesFormsPrefs.SalesCustomName3', Type: 'StringType', StringValue: 'Purchase Order' },
          ],
        },
      ],
      AllowDiscount: true,
      AllowShipping: true,
    },
    ...overrides,
  };
}

export function mapping(sourceItemId: string, overrides: Partial<ItemMapping> = {}): ItemMapping {
  return {
    id: `00000000-0000-4000-8000-0000000000${sourceItemId}`,
    sourceItemId,
    productCode: `PC-${sourceItemId}`,
    unitOfMeasure: 'EA',
    commodityCode: null,
    version: 1,
    evidence: 'catalog review',
    approvedBy: 'ops@example.com',
    approvedAt: '2026-10-01T00:00:00.000Z',
    revoked: false,
    ...overrides,
  };
}

export function input(overrides: Partial<MapperInput> = {}): MapperInput {
  return {
    invoice: sourceInvoice(),
    items: [item('11'), item('12')],
    preferences: preferences(),
    settings: { purchaseOrderField: 'Purchase Order', version: 1 },
    mappings: [],
    deleted: false,
    ...overrides,
  };
}

export function storedLine(index: 1 | 2, overrides: Partial<StoredLine> = {}): StoredLine {
  const base: StoredLine =
    index === 1
      ? {
          sourceLineId: '1',
          sourceItemId: '11',
          sequence: 1,
          productName: 'Product 11',
          description: 'Line 1',
          productCode: 'SKU-11',
          unitOfMeasure: null,
          commodityCode: null,
          quantity: '2',
          unitAmountMinor: 1250,
          subtotalAmountMinor: 2500,
          taxAmountMinor: null,
          discountAmountMinor: null,
          totalAmountMinor: null,
        }
      : {
          sourceLineId: '2',
          sourceItemId: '12',
          sequence: 2,
          productName: 'Product 12',
          description: 'Line 2',
          productCode: 'SKU-12',
          unitOfMeasure: null,
          commodityCode: null,
          quantity: '1',
          unitAmountMinor: 1000,
          subtotalAmountMinor: 1000,
          taxAmountMinor: null,
          discountAmountMinor: null,
          totalAmountMinor: null,
        };
  return { ...base, ...overrides };
}

export function stored(overrides: Partial<StoredInvoice> = {}): StoredInvoice {
  return {
    invoiceNumber: 'INV-1001',
    purchaseOrderReference: 'PO-77',
    status: 'open',
    currency: 'usd',
    subtotalAmountMinor: 3500,
    taxAmountMinor: 280,
    shippingAmountMinor: 0,
    discountAmountMinor: 0,
    totalAmountMinor: 3780,
    balanceAmountMinor: 3780,
    taxRepresentation: 'transaction',
    discountRepresentation: 'transaction',
    issuedAt: '2026-11-01T00:00:00.000Z',
    dueAt: '2026-12-01T00:00:00.000Z',
    voidedAt: null,
    lineItems: [storedLine(1), storedLine(2)],
    ...overrides,
  };
}
