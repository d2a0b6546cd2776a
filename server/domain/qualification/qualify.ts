import type { MappedInvoice, MapperInput } from '../invoices/types.js';
import { carriedRisks } from './carriage.js';
import { perProvider, type Qualification, type RiskFinding } from './fields.js';
import { qualificationOfStored, storedQualificationOf } from './stored-form.js';
import type { QualificationInput } from './source-fields.js';

/**
 * Network qualification of one mapped invoice, per provider output: the level it reaches, the
 * applicable fields it will not send and the placeholder risks on the fields it does send
 * (docs/network-qualification.md), as a snapshot stores it (`storedQualificationOf`) and shows it.
 * `crossInvoice` adds this invoice's findings of `crossInvoiceRisks` (others are ignored).
 * Nothing here changes an output: the service never repairs or invents a value.
 */
export function qualifyInvoice(input: QualificationInput, crossInvoice: readonly RiskFinding[] = []): Qualification {
  const qualification = qualificationOfStored(storedQualificationOf(input), input);
  return withCrossInvoiceRisks(
    qualification,
    crossInvoice.filter((f) => f.ledgerInvoiceId === input.ledgerInvoiceId),
  );
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
    ledgerInvoiceId: ledgerInvoiceIdOf(mapped.ledgerInvoiceId),
    invoice: mapped.invoice,
    source: mapperInput.invoice,
    mappings: mapped.mappings,
  };
}

/** A stored invoice's source id as qualification names it: `null` when the source gave none (stored as ''). */
export function ledgerInvoiceIdOf(stored: string): string | null {
  return stored === '' ? null : stored;
}
