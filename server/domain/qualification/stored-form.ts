import type { Provider } from '../enrichment/index.js';
import { PaymentProviderSchema } from '../../../contract/common/index.js';
import type {
  MissingField,
  Product3Field,
  ProviderQualification,
  Qualification,
  QualificationLevel,
  RiskFinding,
  SourceField,
} from './fields.js';

const PROVIDERS: readonly Provider[] = PaymentProviderSchema.options;

/**
 * A missing field as a tuple: field, reason, path, then the source's object type, id and field (`null` ×3 when the
 * source is not known).
 */
export type StoredMissing = readonly [
  Product3Field,
  MissingField['reason'],
  string,
  SourceField['objectType'] | null,
  string | null,
  string | null,
];

/**
 * How a snapshot stores its qualification (docs/network-qualification.md, "How it is stored"). The providers' outputs
 * mostly share their missing fields (one per line and field): each distinct one is stored once, as a tuple, in
 * `missingFields`, each distinct risk finding once in `riskFindings`, and each provider lists the indexes of its own.
 * A tenth of the objects' JSON on a five-line invoice: storing that JSON for every mapped invoice doubled what mapping
 * adds to an import. The level stays at `<provider>.level`, where a preparation's insert reads it.
 */
export interface StoredQualification {
  readonly gwa: StoredProviderQualification;
  readonly gwb: StoredProviderQualification;
  readonly gwc: StoredProviderQualification;
  readonly missingFields: readonly StoredMissing[];
  readonly riskFindings: readonly RiskFinding[];
}

interface StoredProviderQualification {
  readonly level: QualificationLevel;
  readonly missing: readonly number[];
  readonly risks: readonly number[];
}

/** The stored form of a qualification: each missing field and risk finding once, the providers by index. */
export function storedQualificationOf(qualification: Qualification): StoredQualification {
  const missingFields: StoredMissing[] = [];
  const riskFindings: RiskFinding[] = [];
  // Candidates by path (a line and field, or a transaction field): comparing a few fields is cheaper than building a
  // key for every entry, and this runs for every invoice an import maps.
  const missingAt = new Map<string, number[]>();
  const riskAt = new Map<RiskFinding, number>();
  const missingIndex = (m: MissingField): number => {
    const candidates = missingAt.get(m.path);
    if (candidates !== undefined) {
      for (const at of candidates) {
        const [field, reason, , objectType, externalId, sourceField] = missingFields[at]!;
        if (
          field === m.field &&
          reason === m.reason &&
          objectType === (m.source?.objectType ?? null) &&
          externalId === (m.source?.externalId ?? null) &&
          sourceField === (m.source?.field ?? null)
        )
          return at;
      }
    }
    const at =
      missingFields.push([m.field, m.reason, m.path, m.source?.objectType ?? null, m.source?.externalId ?? null, m.source?.field ?? null]) -
      1;
    if (candidates === undefined) missingAt.set(m.path, [at]);
    else candidates.push(at);
    return at;
  };
  // The providers' findings are the same objects (`carriedRisks` filters one list), so identity finds the shared ones.
  const riskIndex = (r: RiskFinding): number => {
    let at = riskAt.get(r);
    if (at === undefined) {
      at = riskFindings.push(r) - 1;
      riskAt.set(r, at);
    }
    return at;
  };
  const byProvider = Object.fromEntries(
    PROVIDERS.map((provider) => {
      const own = qualification[provider];
      return [provider, { level: own.level, missing: own.missing.map(missingIndex), risks: own.risks.map(riskIndex) }];
    }),
  ) as unknown as Record<Provider, StoredProviderQualification>;
  return { ...byProvider, missingFields, riskFindings };
}

/**
 * A snapshot's stored qualification as the domain's. Also reads the form stored before (each provider's lists of
 * objects, 2026-11-26): snapshots are immutable evidence, so those rows keep it.
 */
export function qualificationOfStored(stored: StoredQualification | Qualification): Qualification {
  if (!('missingFields' in stored)) return stored;
  const missing = stored.missingFields.map(missingOf);
  return Object.fromEntries(
    PROVIDERS.map((provider): [Provider, ProviderQualification] => {
      const own = stored[provider];
      return [
        provider,
        { level: own.level, missing: own.missing.map((i) => missing[i]!), risks: own.risks.map((i) => stored.riskFindings[i]!) },
      ];
    }),
  ) as unknown as Qualification;
}

function missingOf([field, reason, path, objectType, externalId, sourceField]: StoredMissing): MissingField {
  const source = objectType === null ? null : { objectType, externalId: externalId!, field: sourceField! };
  return { field, reason, path, source };
}
