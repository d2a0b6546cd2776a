import type { CanonicalInvoice, CanonicalLine } from '../../../../contract/canonical-invoice.js';

/**
 * Factories for canonical invoices. Amounts left out are derived so the invoice
 * reconciles; amounts given are taken as they are, so a test states only the
 * fact it breaks.
 */

/** A line of `quantity` (whole or decimal) × `unitAmountMinor`; subtotal and total derived unless given. */
export function makeLine(overrides: Partial<CanonicalLine> = {}): CanonicalLine {
  const quantity = overrides.quantity ?? '1';
  const unitAmountMinor = overrides.unitAmountMinor ?? 1000;
  const subtotalAmountMinor = overrides.subtotalAmountMinor ?? exactProduct(quantity, unitAmountMinor);
  const taxAmountMinor = overrides.taxAmountMinor ?? 0;
  const discountAmountMinor = overrides.discountAmountMinor ?? 0;
  return {
    sequence: 1,
    productName: 'Widget',
    description: null,
    productCode: 'WID-1',
    commodityCode: null,
    unitOfMeasure: 'EA',
    ...overrides,
    quantity,
    unitAmountMinor,
    subtotalAmountMinor,
    taxAmountMinor,
    discountAmountMinor,
    totalAmountMinor: overrides.totalAmountMinor ?? subtotalAmountMinor + taxAmountMinor - discountAmountMinor,
  };
}

/** An open, unpaid USD invoice; tax and discount default to the sum of the lines' (line level). */
export function makeInvoice(overrides: Partial<CanonicalInvoice> = {}): CanonicalInvoice {
  const lineItems = overrides.lineItems ?? [makeLine()];
  const add = (pick: (line: CanonicalLine) => number) => lineItems.reduce((total, line) => total + pick(line), 0);
  const subtotalAmountMinor = overrides.subtotalAmountMinor ?? add((l) => l.subtotalAmountMinor);
  const taxAmountMinor = overrides.taxAmountMinor ?? add((l) => l.taxAmountMinor);
  const shippingAmountMinor = overrides.shippingAmountMinor ?? 0;
  const discountAmountMinor = overrides.discountAmountMinor ?? add((l) => l.discountAmountMinor);
  const totalAmountMinor = overrides.totalAmountMinor ?? subtotalAmountMinor + taxAmountMinor + shippingAmountMinor - discountAmountMinor;
  return {
    invoiceNumber: 'INV-1001',
    purchaseOrderReference: 'PO-7781',
    status: 'open',
    currency: 'usd',
    issuedAt: '2025-01-02T00:00:00.000Z',
    dueAt: '2025-02-01T00:00:00.000Z',
    voidedAt: null,
    ...overrides,
    lineItems,
    subtotalAmountMinor,
    taxAmountMinor,
    shippingAmountMinor,
    discountAmountMinor,
    totalAmountMinor,
    balanceAmountMinor: overrides.balanceAmountMinor ?? totalAmountMinor,
  };
}

/** quantity × unit in minor units, computed independently of the code under test. */
function exactProduct(quantity: string, unitAmountMinor: number): number {
  const [whole = '0', fraction = ''] = quantity.split('.');
  const scale = 10n ** BigInt(fraction.length);
  const product = BigInt(whole + fraction) * BigInt(unitAmountMinor);
  if (product % scale !== 0n) throw new Error(`makeLine: ${quantity} × ${unitAmountMinor} is fractional; give subtotalAmountMinor`);
  return Number(product / scale);
}

/**
 * The invoice every provider's happy-path test maps: two lines out of sequence
 * order, a commodity code, a description, transaction-level tax and discount, shipping.
 */
export function happyInvoice(): CanonicalInvoice {
  return makeInvoice({
    lineItems: [
      makeLine({
        sequence: 2,
        productName: 'Industrial widget, blue, stainless steel housing',
        description: 'Blue widget with stainless steel housing',
        productCode: 'WID-1',
        commodityCode: '43211503',
        quantity: '2',
        unitAmountMinor: 2500,
      }),
      makeLine({ sequence: 1, productName: 'Gadget', productCode: 'GAD-9', unitOfMeasure: 'BOX', unitAmountMinor: 7000 }),
    ],
    taxAmountMinor: 990,
    shippingAmountMinor: 1500,
    discountAmountMinor: 1000,
  });
}
