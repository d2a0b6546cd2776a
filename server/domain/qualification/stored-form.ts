import type { Provider } from '../enrichment/index.js';
import type { ConfirmedMapping, StoredInvoice } from '../../../contract/invoices.js';
import { carriedRisks } from './carriage.js';
import {
  LINE_FIELDS,
  perProvider,
  type LineField,
  type MissingField,
  type Product3Field,
  type Qualification,
  type QualificationLevel,
  type RiskFinding,
  type SourceField,
  type TransactionField,
} from './fields.js';
import { invoiceRisks } from './invoice-risks.js';
import { missingAtOf, missingFieldOf, type MissingAt } from './levels.js';
import { SourceFields, sourceFactsOf, sourceLineDiscountsOf, type QualificationInput, type SourceFacts } from './source-fields.js';

/**
 * How a snapshot stores its qualification (docs/network-qualification.md, "How it is stored"): what was decided when the
 * invoice was mapped, and nothing its own stored invoice can give again. Each provider keeps its level (where a
 * preparation's insert reads it) and the indexes of its missing fields and risk findings; each distinct missing field is
 * kept once as `field` or `field@line` (the line's index), and named again when read (why, path, source field) from
 * the stored invoice, its confirmed mappings and `source`, the few facts of the source record that it does not hold.
 * Storing each missing field's explanation with every mapped invoice made mapping cost as much again in an import.
 */
export interface StoredQualification extends ProvidersByIndex {
  readonly missingAt: readonly string[];
  readonly source: SourceFacts;
}

/** What both forms that name entries by index share: each provider's level and indexes, and the risk findings once. */
type ProvidersByIndex = { readonly [P in Provider]: StoredProviderQualification } & { readonly riskFindings: readonly RiskFinding[] };

interface StoredProviderQualification {
  readonly level: QualificationLevel;
  readonly missing: readonly number[];
  readonly risks: readonly number[];
}

/** What a stored qualification is read with: the snapshot's stored invoice and confirmed mappings, and its source id. */
export interface StoredInvoiceContext {
  /** The invoice's id at the source; `null` when not known. */
  readonly ledgerInvoiceId: string | null;
  readonly invoice: StoredInvoice;
  readonly mappings: readonly ConfirmedMapping[];
}

/** The qualification of a mapped invoice as its snapshot stores it: computed here, once, when the invoice is mapped. */
export function storedQualificationOf(input: QualificationInput): StoredQualification {
  const source = sourceFactsOf(input.source, input.invoice);
  const discounts = sourceLineDiscountsOf(input.source, input.invoice, source);
  const risks = invoiceRisks(input, new SourceFields(input, source), discounts);
  const missingAt: string[] = [];
  const missingIndex = new Map<string, number>();
  const riskFindings: RiskFinding[] = [];
  const riskIndex = new Map<RiskFinding, number>();
  const indexOf = <T>(value: T, list: T[], index: Map<T, number>): number => {
    let at = index.get(value);
    if (at === undefined) {
      at = list.push(value) - 1;
      index.set(value, at);
    }
    return at;
  };
  const byProvider = perProvider((provider): StoredProviderQualification => {
    const { level, missing } = missingAtOf(provider, input.invoice, discounts);
    return {
      level,
      missing: missing.map((at) => indexOf(missingAtCode(at), missingAt, missingIndex)),
      risks: carriedRisks(provider, risks).map((r) => indexOf(r, riskFindings, riskIndex)),
    };
  });
  return { ...byProvider, missingAt, riskFindings, source };
}

/**
 * A snapshot's stored qualification as the domain's (`context`: its snapshot's stored invoice; the earlier forms need
 * none). Also reads the forms stored before (2026-11-26: each provider's lists of objects; 2026-11-27: each missing
 * field as a tuple of its explanation): snapshots are immutable evidence, so those rows keep them.
 */
export function qualificationOfStored(
  stored: StoredQualification | EarlierStoredQualification | Qualification,
  context: StoredInvoiceContext | null,
): Qualification {
  if ('missingAt' in stored) {
    if (context === null) throw new Error('a stored qualification of this form is read with its stored invoice');
    const sources = new SourceFields(context, stored.source);
    const missingAt = stored.missingAt.map(parseMissingAt);
    return readByIndex(stored, (provider, i) => missingFieldOf(provider, context.invoice, sources, missingAt[i]!));
  }
  if ('missingFields' in stored) {
    const missing = stored.missingFields.map(missingOfTuple);
    return readByIndex(stored, (_, i) => missing[i]!);
  }
  return stored;
}

/** Each provider's level, and its missing fields and risk findings by index (`missingAt`: the missing field at an index). */
function readByIndex(stored: ProvidersByIndex, missingAt: (provider: Provider, index: number) => MissingField): Qualification {
  return perProvider((provider) => {
    const own = stored[provider];
    return {
      level: own.level,
      missing: own.missing.map((i) => missingAt(provider, i)),
      risks: own.risks.map((i) => stored.riskFindings[i]!),
    };
  });
}

function missingAtCode(at: MissingAt): string {
  return at.line === undefined ? at.field : `${at.field}@${at.line}`;
}

function parseMissingAt(code: string): MissingAt {
  const at = code.indexOf('@');
  if (at < 0) return { field: code as TransactionField };
  const field = code.slice(0, at);
  if (!(LINE_FIELDS as readonly string[]).includes(field)) throw new Error(`not a line field: ${field}`);
  return { field: field as LineField, line: Number(code.slice(at + 1)) };
}

/** The form stored on 2026-11-27: each distinct missing field's explanation as a tuple, the providers by index. */
export interface EarlierStoredQualification extends ProvidersByIndex {
  readonly missingFields: readonly StoredMissing[];
}

/** Field, reason, path, then the source's object type, id and field (`null` ×3 when the source is not known). */
type StoredMissing = readonly [
  Product3Field,
  MissingField['reason'],
  string,
  SourceField['objectType'] | null,
  string | null,
  string | null,
];

function missingOfTuple([field, reason, path, objectType, externalId, sourceField]: StoredMissing): MissingField {
  const source = objectType === null ? null : { objectType, externalId: externalId!, field: sourceField! };
  return { field, reason, path, source };
}
