import { describe, expect, it } from 'vitest';
import type { PaymentProvider } from '../../../contract/common/index.js';
import { mapInvoice, readinessOf, type MapperInput, type ReadinessInput } from '../../../server/domain/invoices/index.js';
import { CARD_NUMBER_REDACTED } from '../../../server/domain/guard/redact-card-numbers.js';
import { input, item, mapping, preferences, salesLine, shippingLine, sourceInvoice, subtotalLine } from './support/source.js';

const PROVIDERS = ['gwa', 'gwb', 'gwc'] as const;
const checkedThrough = new Date('2026-11-20T12:00:00.000Z');
const now = new Date(checkedThrough.getTime() + 60_000);
const mapped = [mapping('11'), mapping('12')];

/** An invoice ready for every provider: both items mapped, PO configured, fresh active source. */
const clean = (overrides: Partial<MapperInput> = {}) => input({ mappings: mapped, ...overrides });

const poLabels = preferences({
  SalesFormsPrefs: {
    CustomField: [
      {
        CustomField: [
          { Name: 'SalesFormsPrefs.SalesCustomName1', Type: 'StringType', StringValue: 'Purchase Order' },
          { Name: 'SalesFormsPrefs.SalesCustomName3', Type: 'StringType', StringValue: 'Purchase Order' },
        ],
      },
    ],
  },
});
const lines = (...extra: Record<string, unknown>[]) => [salesLine('1', '11', 2, 12.5, 25), salesLine('2', '12', 1, 10, 10), ...extra];

interface Case {
  code: string;
  /** Exactly the providers whose output uses the fact the code is about (docs/issue-codes.md). */
  blocks: readonly PaymentProvider[];
  mapper?: MapperInput;
  state?: Partial<ReadinessInput>;
}

/** One invoice per code a stored invoice's readiness can report; the request-only codes are the preparation tests'. */
const cases: Case[] = [
  { code: 'invoice_deleted_at_source', blocks: PROVIDERS, mapper: clean({ deleted: true }), state: { deleted: true } },
  { code: 'missing_dependency', blocks: PROVIDERS, mapper: clean({ items: [item('11')] }) },
  // The import stored a field that held a card number as the marker (server/domain/guard/redact-card-numbers.ts).
  { code: 'card_data_in_source', blocks: PROVIDERS, mapper: clean({ invoice: sourceInvoice({ PrivateNote: CARD_NUMBER_REDACTED }) }) },
  {
    code: 'item_mapping_revoked',
    blocks: ['gwa', 'gwc'],
    mapper: clean({ mappings: [mapping('11'), mapping('12', { version: 2, revoked: true })] }),
  },
  { code: 'purchase_order_field_ambiguous', blocks: ['gwa', 'gwb'], mapper: clean({ preferences: poLabels }) },
  {
    code: 'amount_not_exact',
    blocks: PROVIDERS,
    mapper: clean({ invoice: sourceInvoice({ Line: [salesLine('1', '11', 2, 12.5, 25.001), salesLine('2', '12', 1, 10, 10)] }) }),
  },
  { code: 'tax_inclusive_invoice', blocks: PROVIDERS, mapper: clean({ invoice: sourceInvoice({ GlobalTaxCalculation: 'TaxInclusive' }) }) },
  { code: 'tax_unknown', blocks: PROVIDERS, mapper: clean({ invoice: sourceInvoice({ TxnTaxDetail: undefined }) }) },
  {
    code: 'group_line_unsupported',
    blocks: PROVIDERS,
    mapper: clean({ invoice: sourceInvoice({ Line: lines({ Id: '3', DetailType: 'GroupLineDetail', Amount: 5, GroupLineDetail: {} }) }) }),
  },
  {
    code: 'unsupported_line_type',
    blocks: PROVIDERS,
    mapper: clean({ invoice: sourceInvoice({ Line: lines({ Id: '3', DetailType: 'MysteryLineDetail', Amount: 5 }) }) }),
  },
  {
    code: 'ambiguous_shipping',
    blocks: PROVIDERS,
    mapper: clean({ invoice: sourceInvoice({ Line: lines(shippingLine('3', 5), shippingLine('4', 5), subtotalLine(35)) }) }),
  },
  { code: 'missing_invoice_number', blocks: PROVIDERS, mapper: clean({ invoice: sourceInvoice({ DocNumber: undefined }) }) },
  {
    code: 'missing_currency',
    blocks: PROVIDERS,
    mapper: clean({
      invoice: sourceInvoice({ CurrencyRef: undefined }),
      preferences: preferences({ CurrencyPrefs: { MultiCurrencyEnabled: false } }),
    }),
  },
  {
    code: 'missing_item_reference',
    blocks: PROVIDERS,
    mapper: clean({
      invoice: sourceInvoice({
        Line: [salesLine('1', '11', 2, 12.5, 25), { ...salesLine('2', '12', 1, 10, 10), SalesItemLineDetail: { Qty: 1 } }],
      }),
    }),
  },
  {
    code: 'invalid_quantity',
    blocks: PROVIDERS,
    mapper: clean({ invoice: sourceInvoice({ Line: [salesLine('1', '11', 'two', 12.5, 25), salesLine('2', '12', 1, 10, 10)] }) }),
  },
  { code: 'invoice_not_open', blocks: PROVIDERS, mapper: clean({ invoice: sourceInvoice({ Balance: 0 }) }) },
  { code: 'invoice_balance_not_full', blocks: PROVIDERS, mapper: clean({ invoice: sourceInvoice({ Balance: 10 }) }) },
  { code: 'source_stale', blocks: PROVIDERS, state: { checkedThrough: null } },
  { code: 'sync_in_progress', blocks: PROVIDERS, state: { syncActive: true } },
  { code: 'connection_paused', blocks: PROVIDERS, state: { connectionStatus: 'paused' } },
  { code: 'connection_disconnected', blocks: PROVIDERS, state: { connectionStatus: 'disconnected' } },
  { code: 'reauthorization_required', blocks: PROVIDERS, state: { connectionStatus: 'reauthorization_required' } },
];

function readiness(provider: PaymentProvider, mapper: MapperInput, state: Partial<ReadinessInput> = {}) {
  const result = mapInvoice(mapper);
  return readinessOf({
    provider,
    invoice: result.invoice,
    mapperIssues: result.issues,
    deleted: false,
    connectionStatus: 'active',
    checkedThrough,
    syncActive: false,
    now,
    ...state,
  });
}

describe('only the rules a provider uses block it', () => {
  it('when nothing is wrong, then the base invoice is ready for every provider', () => {
    for (const provider of PROVIDERS) expect(readiness(provider, clean())).toMatchObject({ ready: true, issues: [] });
  });

  for (const { code, blocks, mapper = clean(), state } of cases) {
    it(`when an invoice has ${code}, then it blocks exactly ${blocks.join(', ')}, and any other provider's fields are unchanged`, () => {
      for (const provider of PROVIDERS) {
        const result = readiness(provider, mapper, state);
        const reported = result.issues.some((i) => i.code === code);
        expect({ provider, reported, ready: result.ready }).toEqual({
          provider,
          reported: blocks.includes(provider),
          ready: !blocks.includes(provider),
        });
        // A provider the fault does not block must send exactly what it sends for the invoice without the fault.
        if (!blocks.includes(provider)) expect(result.enrichment).toStrictEqual(readiness(provider, clean()).enrichment);
      }
    });
  }
});
