import { createHmac, randomUUID } from 'node:crypto';

/** Letters only: a random hex id can hold a Luhn-valid digit run, which the card-data guard refuses. */
const letters = (id: string) => id.replace(/[^A-Za-z0-9]/g, '').replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!);

function gwcReport(eventId: string): string {
  return JSON.stringify({
    eventId,
    attemptId: `att_${eventId}`,
    status: 'captured',
    currency: 'usd',
    amountMinor: 12500,
    capturedAmountMinor: 12500,
    refundedAmountMinor: 0,
    occurredAt: '2026-01-10T10:00:00.000Z',
    source: 'api',
    paymentIntentId: `pi_${letters(eventId)}`,
  });
}

/** A reconciled 50-line gwc invoice with line-level tax, a transaction discount and shipping. */
export function gwcInvoice50(): Record<string, unknown> {
  const lineItems = Array.from({ length: 50 }, (_, i) => {
    const quantity = (i % 7) + 1;
    const unitAmountMinor = 1000 + i * 37;
    const subtotal = quantity * unitAmountMinor;
    const tax = Math.floor(subtotal / 20);
    return {
      sequence: i + 1,
      productName: `Industrial part ${i + 1}, stainless steel`,
      description: `Part ${i + 1} for line maintenance`,
      productCode: `SKU-${String(i + 1).padStart(4, '0')}`,
      commodityCode: '43211503',
      quantity: String(quantity),
      unitOfMeasure: 'EA',
      unitAmountMinor,
      subtotalAmountMinor: subtotal,
      taxAmountMinor: tax,
      discountAmountMinor: 0,
      totalAmountMinor: subtotal + tax,
    };
  });
  const subtotal = lineItems.reduce((t, l) => t + l.subtotalAmountMinor, 0);
  const tax = lineItems.reduce((t, l) => t + l.taxAmountMinor, 0);
  const shipping = 2500;
  const total = subtotal + tax + shipping;
  return {
    invoice: {
      invoiceNumber: 'INV-50-LINES',
      purchaseOrderReference: 'PO-5050',
      status: 'open',
      currency: 'usd',
      subtotalAmountMinor: subtotal,
      taxAmountMinor: tax,
      shippingAmountMinor: shipping,
      discountAmountMinor: 0,
      totalAmountMinor: total,
      balanceAmountMinor: total,
      issuedAt: '2026-01-02T00:00:00.000Z',
      dueAt: '2026-02-01T00:00:00.000Z',
      voidedAt: null,
      lineItems,
    },
    options: { taxRepresentation: 'line_item', shipping: { fromPostalCode: '94107', toPostalCode: '10001' } },
  };
}

const invoice50 = JSON.stringify(gwcInvoice50());

/** Request bodies the load generator can send, by name (it runs in its own process). */
export const bodyGenerators: Record<string, () => string> = {
  'report:unique': () => gwcReport(randomUUID()),
  'report:retry': () => gwcReport('evt_retry'),
  'enrichment:gwc50': () => invoice50,
};

/**
 * Generators made from the load's `body` (a JSON template), by name:
 * `preparation:unique-key` sends the template with a new letters-only idempotency key each time.
 */
export const templateGenerators: Record<string, (template: string) => () => string> = {
  'preparation:unique-key': (template) => {
    const base = JSON.parse(template) as Record<string, unknown>;
    return () => JSON.stringify({ ...base, idempotencyKey: `bench-${letters(randomUUID())}` });
  },
};

/**
 * Signed gwc event deliveries, by name, made with the endpoint's signing secret: a new `payment_intent.succeeded`
 * for a new PaymentIntent each time, signed as the provider does (`t=<unix>,v1=HMAC-SHA256(secret, "<t>.<body>")`).
 */
export const signedGenerators: Record<string, (secret: string) => () => { body: string; headers: Record<string, string> }> = {
  'gwc-event:unique': (secret) => () => {
    const id = letters(randomUUID());
    const created = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({
      id: `evt_${id}`,
      object: 'event',
      created,
      livemode: false,
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: `pi_${id}`,
          object: 'payment_intent',
          amount: 12500,
          amount_received: 12500,
          currency: 'usd',
          status: 'succeeded',
          metadata: {},
        },
      },
    });
    const signature = createHmac('sha256', secret).update(`${created}.${body}`).digest('hex');
    return { body, headers: { 'gwc-signature': `t=${created},v1=${signature}` } };
  },
};
