import { describe, expect, it } from 'vitest';
import type { IssueCategory, PaymentProvider } from '../../../contract/common/index.js';
import { enrichInline } from '../../../server/domain/enrichment/index.js';
import {
  FRESHNESS_WINDOW_MS,
  mapInvoice,
  preparationRequest,
  readinessOf,
  toCanonicalInvoice,
  snapshotChecksCache,
  type ReadinessInput,
} from '../../../server/domain/invoices/index.js';
import { input, mapping, sourceInvoice, stored, storedLine } from './support/source.js';

const issue = (code: string, path: string, category: IssueCategory) => ({ code, path, category, message: expect.any(String) });
const checkedThrough = new Date('2026-11-20T12:00:00.000Z');
const now = new Date(checkedThrough.getTime() + 60_000);

function ready(provider: PaymentProvider, overrides: Partial<ReadinessInput> = {}) {
  const mapped = mapInvoice(input({ mappings: [mapping('11'), mapping('12')] }));
  return readinessOf({
    provider,
    invoice: mapped.invoice,
    mapperIssues: mapped.issues,
    deleted: false,
    connectionStatus: 'active',
    checkedThrough,
    syncActive: false,
    now,
    ...overrides,
  });
}

describe('readinessOf', () => {
  it('when a mapped open invoice has confirmed mappings and a fresh active source, then it is ready for every provider', () => {
    for (const provider of ['gwa', 'gwb', 'gwc'] as const) {
      expect(ready(provider)).toStrictEqual({
        ready: true,
        issues: [],
        checkedThrough: '2026-11-20T12:00:00.000Z',
        canonical: expect.any(Object),
        enrichment: expect.any(Object),
      });
    }
  });

  it('when the same invoice lacks units and a PO, then gwa and gwc are not ready and gwb is', () => {
    const mapped = mapInvoice(input({ settings: { purchaseOrderField: null, version: 1 } }));
    const base = {
      invoice: mapped.invoice,
      mapperIssues: mapped.issues,
      deleted: false,
      connectionStatus: 'active' as const,
      checkedThrough,
      syncActive: false,
      now,
    };
    expect(readinessOf({ ...base, provider: 'gwa' }).issues).toStrictEqual([
      issue('missing_purchase_order_number', 'invoice.purchaseOrderReference', 'mapping'),
      issue('missing_unit_of_measure', 'invoice.lineItems[0].unitOfMeasure', 'mapping'),
      issue('missing_unit_of_measure', 'invoice.lineItems[1].unitOfMeasure', 'mapping'),
    ]);
    expect(readinessOf({ ...base, provider: 'gwc' }).issues).toStrictEqual([
      issue('missing_unit_of_measure', 'invoice.lineItems[0].unitOfMeasure', 'mapping'),
      issue('missing_unit_of_measure', 'invoice.lineItems[1].unitOfMeasure', 'mapping'),
    ]);
    expect(readinessOf({ ...base, provider: 'gwb' })).toMatchObject({ ready: true, issues: [] });
  });

  it('when a SKU is longer than 12 characters or not ASCII, then gwa and gwc report it, gwb (no SKU field) does not', () => {
    const invoice = stored({
      lineItems: [
        storedLine(1, { productCode: 'SKU-1234567890', unitOfMeasure: 'EA' }),
        storedLine(2, { productCode: 'Ünit', unitOfMeasure: 'EA' }),
      ],
    });
    const base = { invoice, mapperIssues: [], deleted: false, connectionStatus: 'active' as const, checkedThrough, syncActive: false, now };
    expect(readinessOf({ ...base, provider: 'gwa' }).issues).toStrictEqual([
      issue('identifier_too_long', 'invoice.lineItems[0].productCode', 'validation'),
      issue('identifier_invalid', 'invoice.lineItems[1].productCode', 'validation'),
    ]);
    expect(readinessOf({ ...base, provider: 'gwc' }).issues).toStrictEqual([
      issue('identifier_too_long', 'invoice.lineItems[0].productCode', 'validation'),
    ]);
    expect(readinessOf({ ...base, provider: 'gwb' }).ready).toBe(true);
  });

  it('when a revoked mapping is reported by the mapper, then it blocks gwa and gwc only', () => {
    const mapped = mapInvoice(input({ mappings: [mapping('11', { revoked: true }), mapping('12')] }));
    const base = {
      invoice: mapped.invoice,
      mapperIssues: mapped.issues,
      deleted: false,
      connectionStatus: 'active' as const,
      checkedThrough,
      syncActive: false,
      now,
    };
    expect(readinessOf({ ...base, provider: 'gwb' }).ready).toBe(true);
    expect(readinessOf({ ...base, provider: 'gwc' }).issues).toStrictEqual([
      issue('item_mapping_revoked', 'invoice.lineItems[0].sourceItemId', 'mapping'),
      issue('missing_unit_of_measure', 'invoice.lineItems[0].unitOfMeasure', 'mapping'),
    ]);
  });

  it('when the clock passes the 4-hour window, then freshness moves from fresh to stale', () => {
    expect(ready('gwb', { now: new Date(checkedThrough.getTime() + FRESHNESS_WINDOW_MS) }).ready).toBe(true);
    expect(ready('gwb', { now: new Date(checkedThrough.getTime() + FRESHNESS_WINDOW_MS + 1) }).issues).toStrictEqual([
      issue('source_stale', 'source.checkedThrough', 'freshness'),
    ]);
    expect(ready('gwb', { checkedThrough: null }).issues).toStrictEqual([issue('source_stale', 'source.checkedThrough', 'freshness')]);
    expect(ready('gwb', { checkedThrough: null }).checkedThrough).toBeNull();
  });

  it('when a sync is queued or running, then the invoice is not fresh', () => {
    expect(ready('gwa', { syncActive: true }).issues).toStrictEqual([issue('sync_in_progress', 'source.sync', 'freshness')]);
  });

  it.each([
    ['paused', 'connection_paused'],
    ['disconnected', 'connection_disconnected'],
    ['reauthorization_required', 'reauthorization_required'],
  ] as const)('when the connection is %s, then access blocks with %s', (connectionStatus, code) => {
    expect(ready('gwc', { connectionStatus }).issues).toStrictEqual([issue(code, 'source.connection', 'access')]);
  });

  it('when the invoice was deleted at the source, then it is never ready', () => {
    expect(ready('gwb', { deleted: true }).issues).toStrictEqual([issue('invoice_deleted_at_source', 'source', 'source')]);
  });

  it('when the invoice is partly paid, then payment blocks it for every provider', () => {
    const mapped = mapInvoice(input({ invoice: sourceInvoice({ Balance: 10 }), mappings: [mapping('11'), mapping('12')] }));
    for (const provider of ['gwa', 'gwb', 'gwc'] as const) {
      const base = {
        invoice: mapped.invoice,
        mapperIssues: mapped.issues,
        deleted: false,
        connectionStatus: 'active' as const,
        checkedThrough,
        syncActive: false,
        now,
      };
      expect(readinessOf({ ...base, provider }).issues).toStrictEqual([
        issue('invoice_not_open', 'invoice.status', 'payment'),
        issue('invoice_balance_not_full', 'invoice.balanceAmountMinor', 'payment'),
      ]);
    }
  });

  it('when an amount is unavailable, then the mapper reason is reported once, the unknown status refuses the payment, and no provider rule runs', () => {
    const mapped = mapInvoice(input({ invoice: sourceInvoice({ TotalAmt: 37.805 }), mappings: [mapping('11'), mapping('12')] }));
    const result = ready('gwa', { invoice: mapped.invoice, mapperIssues: mapped.issues });
    expect(result).toStrictEqual({
      ready: false,
      issues: [issue('amount_not_exact', 'invoice.totalAmountMinor', 'validation'), issue('invoice_not_open', 'invoice.status', 'payment')],
      checkedThrough: checkedThrough.toISOString(),
      canonical: null,
      enrichment: null,
    });
  });

  it('when the arithmetic fails, then the mapper and the provider rules report it once', () => {
    const mapped = mapInvoice(input({ invoice: sourceInvoice({ TotalAmt: 40, Balance: 40 }), mappings: [mapping('11'), mapping('12')] }));
    expect(ready('gwc', { invoice: mapped.invoice, mapperIssues: mapped.issues }).issues).toStrictEqual([
      issue('arithmetic_mismatch', 'invoice.totalAmountMinor', 'validation'),
    ]);
  });

  it('when readiness says ready, then the enrichment core accepts the preparation request for that provider and readiness carries its fields', () => {
    for (const provider of ['gwa', 'gwb', 'gwc'] as const) {
      const result = ready(provider);
      expect(result.ready).toBe(true);
      const canonical = toCanonicalInvoice(mapInvoice(input({ mappings: [mapping('11'), mapping('12')] })).invoice);
      if (!canonical.ok) throw new Error('expected a canonical invoice');
      const enriched = enrichInline(provider, preparationRequest(provider, canonical.invoice));
      expect(enriched.ok).toBe(true);
      expect(result.enrichment).toStrictEqual(enriched.ok ? enriched.data : undefined);
    }
  });
});

describe('readinessOf with a snapshot checks cache (snapshots are immutable: kept by id and provider)', () => {
  const snapshot = () => {
    const mapped = mapInvoice(input({ mappings: [mapping('11'), mapping('12')] }));
    return { invoice: mapped.invoice, mapperIssues: mapped.issues, snapshotId: 'snap-1' };
  };
  const base = { deleted: false, connectionStatus: 'active' as const, checkedThrough, syncActive: false, now };

  it('when the same snapshot is checked again, then its snapshot results are kept, frozen, per provider, and equal to a fresh check', () => {
    const cache = snapshotChecksCache();
    for (const provider of ['gwa', 'gwb', 'gwc'] as const) {
      const first = readinessOf({ ...base, ...snapshot(), provider }, cache);
      const again = readinessOf({ ...base, ...snapshot(), provider }, cache);
      // The same objects: computed once for this snapshot id and provider.
      expect(again.enrichment).toBe(first.enrichment);
      expect(again.canonical).toBe(first.canonical);
      expect(Object.isFrozen(first.enrichment)).toBe(true);
      // What a check without the cache gives.
      expect(again).toStrictEqual(ready(provider));
    }
    const gwa = readinessOf({ ...base, ...snapshot(), provider: 'gwa' }, cache);
    const gwc = readinessOf({ ...base, ...snapshot(), provider: 'gwc' }, cache);
    expect(gwa.enrichment).not.toStrictEqual(gwc.enrichment);
  });

  it('when the source state changes, then a kept snapshot is still checked for deletion, freshness and access each time', () => {
    const cache = snapshotChecksCache();
    expect(readinessOf({ ...base, ...snapshot(), provider: 'gwc' }, cache).ready).toBe(true);
    const paused = readinessOf(
      { ...base, ...snapshot(), provider: 'gwc', connectionStatus: 'paused', syncActive: true, deleted: true },
      cache,
    );
    expect(paused.issues).toStrictEqual([
      issue('invoice_deleted_at_source', 'source', 'source'),
      issue('sync_in_progress', 'source.sync', 'freshness'),
      issue('connection_paused', 'source.connection', 'access'),
    ]);
    const late = new Date(checkedThrough.getTime() + FRESHNESS_WINDOW_MS + 1);
    expect(readinessOf({ ...base, ...snapshot(), provider: 'gwc', now: late }, cache).issues).toStrictEqual([
      issue('source_stale', 'source.checkedThrough', 'freshness'),
    ]);
    expect(readinessOf({ ...base, ...snapshot(), provider: 'gwc' }, cache).ready).toBe(true);
  });

  it('when no cache is given (or no snapshot id), then nothing is kept: each check computes its own results', () => {
    const cache = snapshotChecksCache();
    const { snapshotId: _unused, ...anonymous } = snapshot();
    for (const [input, withCache] of [
      [{ ...base, ...snapshot(), provider: 'gwc' as const }, undefined],
      [{ ...base, ...anonymous, provider: 'gwc' as const }, cache],
    ] as const) {
      const first = readinessOf(input, withCache);
      const again = readinessOf(input, withCache);
      expect(again.enrichment).not.toBe(first.enrichment);
      expect(again.enrichment).toStrictEqual(first.enrichment);
      expect(Object.isFrozen(first.enrichment)).toBe(false);
    }
  });

  it('when the cache is full, then it starts over rather than grow', () => {
    const cache = snapshotChecksCache(2);
    const checks = (id: string) => readinessOf({ ...base, ...snapshot(), snapshotId: id, provider: 'gwb' }, cache).enrichment;
    const a = checks('a');
    checks('b');
    expect(checks('a')).toBe(a);
    checks('c');
    expect(checks('a')).not.toBe(a);
  });
});
