import type { QboEntity, SandboxCompany } from './company.js';

const money = (n: number) => Math.round(n * 100) / 100;
const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '-00:00');
const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * A generated company in the provider's shapes: `items` items (with and without
 * Sku) and `invoices` invoices of `linesPerInvoice` SalesItemLineDetail lines
 * plus the computed SubTotalLine. Every 4th invoice has no PO custom field, every
 * 5th uses an item without Sku and every 7th is partly paid, so the demo has
 * both ready and not-ready invoices for the readiness rules of stored invoices.
 */
export function generateCompany(options: {
  invoices: number;
  items: number;
  linesPerInvoice: number;
  realmId?: string;
  now?: Date;
}): SandboxCompany {
  const now = options.now ?? new Date();
  const base = new Date(now.getTime() - 20 * 86_400_000);
  const stamp = (i: number, total: number) => iso(new Date(base.getTime() + Math.floor((i * 19 * 86_400_000) / Math.max(total, 1))));
  const items: QboEntity[] = [];
  for (let i = 1; i <= options.items; i++) {
    items.push({
      Id: String(i),
      SyncToken: '0',
      Name: `Product ${i}`,
      ...(i % 5 === 0 ? {} : { Sku: `SKU-${String(i).padStart(5, '0')}` }),
      Type: 'NonInventory',
      UnitPrice: money(5 + (i % 40) * 2.5),
      Description: `Product number ${i}`,
      Active: true,
      Taxable: true,
      FullyQualifiedName: `Product ${i}`,
      MetaData: { CreateTime: stamp(0, 1), LastUpdatedTime: stamp(i % 100, 100) },
    });
  }
  const invoices: QboEntity[] = [];
  for (let n = 1; n <= options.invoices; n++) {
    const lines: Record<string, unknown>[] = [];
    let subtotal = 0;
    for (let l = 1; l <= options.linesPerInvoice; l++) {
      const itemNo = n % 5 === 0 && l === 1 ? 5 : ((n * 7 + l * 13) % Math.max(options.items, 1)) + 1;
      const item = items[itemNo - 1] ?? items[0]!;
      const qty = (l % 3) + 1;
      const amount = money(qty * Number(item.UnitPrice));
      subtotal = money(subtotal + amount);
      lines.push({
        Id: String(l),
        LineNum: l,
        Description: item.Description,
        Amount: amount,
        DetailType: 'SalesItemLineDetail',
        SalesItemLineDetail: {
          ItemRef: { value: item.Id, name: item.Name },
          Qty: qty,
          UnitPrice: item.UnitPrice,
          TaxCodeRef: { value: 'TAX' },
        },
      });
    }
    lines.push({ Amount: subtotal, DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} });
    const tax = money(subtotal * 0.08);
    const total = money(subtotal + tax);
    const txn = new Date(base.getTime() + (n % 19) * 86_400_000);
    invoices.push({
      Id: String(1000 + n),
      SyncToken: '0',
      DocNumber: `INV-${String(n).padStart(6, '0')}`,
      TxnDate: day(txn),
      DueDate: day(new Date(txn.getTime() + 30 * 86_400_000)),
      CurrencyRef: { value: 'USD', name: 'United States Dollar' },
      CustomerRef: { value: String((n % 20) + 1), name: `Customer ${(n % 20) + 1}` },
      CustomField: n % 4 === 0 ? [] : [{ DefinitionId: '3', Name: 'Purchase Order', Type: 'StringType', StringValue: `PO-${n}` }],
      Line: lines,
      TxnTaxDetail: { TxnTaxCodeRef: { value: '2' }, TotalTax: tax, TaxLine: [] },
      GlobalTaxCalculation: 'TaxExcluded',
      ApplyTaxAfterDiscount: false,
      TotalAmt: total,
      Balance: n % 7 === 0 ? money(total / 2) : total,
      EmailStatus: 'NotSet',
      MetaData: { CreateTime: stamp(n, options.invoices), LastUpdatedTime: stamp(n, options.invoices) },
    });
  }
  return {
    realmId: options.realmId ?? '9341452000000001',
    companyName: 'Demo Hardware Co',
    Preferences: {
      Id: '1',
      SyncToken: '0',
      CurrencyPrefs: { MultiCurrencyEnabled: false, HomeCurrency: { value: 'USD' } },
      TaxPrefs: { UsingSalesTax: true, PartnerTaxEnabled: false },
      SalesFormsPrefs: {
        CustomField: [
          {
            CustomField: [
              { Name: 'SalesFormsPrefs.UseSalesCustom3', Type: 'BooleanType', BooleanValue: true },
              { Name: 'SalesFormsPrefs.SalesCustomName3', Type: 'StringType', StringValue: 'Purchase Order' },
            ],
          },
        ],
        AllowDiscount: true,
        AllowShipping: true,
        AllowDeposit: false,
        CustomTxnNumbers: true,
      },
      ProductAndServicesPrefs: { QuantityWithPriceAndRate: true },
      MetaData: { CreateTime: stamp(0, 1), LastUpdatedTime: stamp(1, 100) },
    },
    Item: items,
    Invoice: invoices,
    deleted: [],
  };
}

/**
 * Invoices that each show one rule of stored invoices (docs/invoices.md), added to
 * the demo company after the generated ones: a discount and shipping, a void, a
 * tax-inclusive invoice, a group line, a line without an item, an amount with more
 * decimals than the currency has, a euro invoice, and a second invoice numbered
 * like the first (ambiguous number).
 */
export function ruleInvoices(company: SandboxCompany): QboEntity[] {
  const [first, second] = company.Item;
  const stamp = (company.Invoice.at(-1)?.MetaData as { LastUpdatedTime?: string } | undefined)?.LastUpdatedTime ?? iso(new Date());
  const line = (id: string, item: QboEntity, qty: number, extra: Record<string, unknown> = {}) => ({
    Id: id,
    LineNum: Number(id),
    Description: item.Description,
    Amount: money(qty * Number(item.UnitPrice)),
    DetailType: 'SalesItemLineDetail',
    SalesItemLineDetail: {
      ItemRef: { value: item.Id, name: item.Name },
      Qty: qty,
      UnitPrice: item.UnitPrice,
      TaxCodeRef: { value: 'TAX' },
    },
    ...extra,
  });
  const invoice = (
    n: number,
    docNumber: string,
    lines: Record<string, unknown>[],
    totals: { total: number; tax: number; balance?: number },
    extra = {},
  ) => ({
    Id: String(2000 + n),
    SyncToken: '0',
    DocNumber: docNumber,
    TxnDate: stamp.slice(0, 10),
    DueDate: stamp.slice(0, 10),
    CurrencyRef: { value: 'USD', name: 'United States Dollar' },
    CustomerRef: { value: '1', name: 'Customer 1' },
    CustomField: [{ DefinitionId: '3', Name: 'Purchase Order', Type: 'StringType', StringValue: `PO-R${n}` }],
    Line: lines,
    TxnTaxDetail: { TxnTaxCodeRef: { value: '2' }, TotalTax: totals.tax, TaxLine: [] },
    GlobalTaxCalculation: 'TaxExcluded',
    TotalAmt: totals.total,
    Balance: totals.balance ?? totals.total,
    MetaData: { CreateTime: stamp, LastUpdatedTime: stamp },
    ...extra,
  });
  const a = line('1', first!, 2);
  const b = line('2', second!, 1);
  const subtotal = money(Number(a.Amount) + Number(b.Amount));
  const shipping = {
    Id: '3',
    LineNum: 3,
    Amount: 12.5,
    DetailType: 'SalesItemLineDetail',
    SalesItemLineDetail: { ItemRef: { value: 'SHIPPING_ITEM_ID' } },
  };
  const discount = { Id: '4', LineNum: 4, Amount: 5, DetailType: 'DiscountLineDetail', DiscountLineDetail: { PercentBased: false } };
  const plain = (n: number, doc: string, extra = {}, lines: Record<string, unknown>[] = [a, b]) => {
    const sub = lines.reduce((t, l) => money(t + Number(l.Amount)), 0);
    return invoice(n, doc, lines, { total: money(sub + 2), tax: 2 }, extra);
  };
  return [
    invoice(1, 'RULE-DISCOUNT-SHIPPING', [a, b, shipping, discount], { total: money(subtotal + 12.5 - 5 + 3), tax: 3 }),
    invoice(
      2,
      'RULE-VOID',
      [{ ...a, Amount: 0, SalesItemLineDetail: { ...a.SalesItemLineDetail, Qty: 0 } }],
      { total: 0, tax: 0 },
      {
        PrivateNote: 'Voided - entered twice',
      },
    ),
    plain(3, 'RULE-TAX-INCLUSIVE', { GlobalTaxCalculation: 'TaxInclusive' }),
    plain(4, 'RULE-GROUP-LINE', {}, [
      a,
      { Id: '2', LineNum: 2, Amount: b.Amount, DetailType: 'GroupLineDetail', GroupLineDetail: { Line: [b] } },
    ]),
    plain(5, 'RULE-NO-ITEM', {}, [a, { ...b, SalesItemLineDetail: { Qty: 1, UnitPrice: b.SalesItemLineDetail.UnitPrice } }]),
    invoice(6, 'RULE-INEXACT', [{ ...a, Amount: 10.005 }], { total: 12.005, tax: 2 }),
    plain(7, 'RULE-EURO', { CurrencyRef: { value: 'EUR', name: 'Euro' } }),
    plain(8, 'INV-000001'),
  ];
}

/** The company `npm start` serves when no ledger is configured: generated invoices plus one invoice per mapping rule. */
export function demoCompany(): SandboxCompany {
  const company = generateCompany({ invoices: 24, items: 12, linesPerInvoice: 3 });
  company.Invoice.push(...ruleInvoices(company));
  return company;
}
