import type { Provider } from '../enrichment/index.js';
import type { MappedInvoice, MapperInput } from '../invoices/types.js';
import { CARRIED } from './carriage.js';
import { perProvider, type Qualification, type RiskFinding } from './fields.js';
import { invoiceRisks } from './invoice-risks.js';
import { levelOf } from './levels.js';
import { SourceFields, type QualificationInput } from './source-fields.js';

/**
 * Network qualification of one mapped invoice, per provider output: the level it reaches, the
 * applicable fields it will not send and the placeholder risks on the fields it does send
 * (docs/network-qualification.md). Pure: computed once when the invoice is mapped, never per request.
 * `crossInvoice` adds this invoice's findings of `crossInvoiceRisks` (others are ignored).
 * Nothing here changes an output: the service never repairs or invents a value.
 */
export function qualifyInvoice(input: QualificationInput, crossInvoice: readonly RiskFinding[] = []): Qualification {
  const sources = new SourceFields(input);
  const risks = [...invoiceRisks(input, sources), ...crossInvoice.filter((f) => f.ledgerInvoiceId === input.ledgerInvoiceId)];
  return perProvider((provider) => {
    const { level, missing } = levelOf(provider, input.invoice, sources);
    return { level, missing, risks: carriedRisks(provider, risks) };
  });
}

/** Per provider, only findings on fields that output carries are shown. */
function carriedRisks(provider: Provider, risks: readonly RiskFinding[]): RiskFinding[] {
  const carried = CARRIED[provider];
  return risks.filter((r) => carried[r.field] !== null);
}

/**
 * A stored qualification with the invoice's cross-invoice findings (`crossInvoiceRisks` of its connection's window,
 * stored apart because they change with the other invoices, not with this revision): what endpoint 9 shows.
 */
export function withCrossInvoiceRisks(qualification: Qualification, crossInvoice: readonly RiskFinding[]): Qualification {
  if (crossInvoice.length === 0) return qualification;
  return perProvider((provider) => {
    const own = qualification[provider];
    return { ...own, risks: [...own.risks, ...carriedRisks(provider, crossInvoice)] };
  });
}

/** What qualification reads, from the mapper's input and result (the one place both are at hand). */
export function qualificationInputOf(mapperInput: MapperInput, mapped: MappedInvoice): QualificationInput {
  return {
    ledgerInvoiceId: mapped.ledgerInvoiceId === '' ? null : mapped.ledgerInvoiceId,
    invoice: mapped.invoice,
    source: mapperInput.invoice,
    mappings: mapped.mappings,
  };
}
