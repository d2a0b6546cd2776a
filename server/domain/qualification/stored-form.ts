import {
  perProvider,
  type MissingField,
  type Product3Field,
  type Qualification,
  type QualificationLevel,
  type RiskFinding,
  type SourceField,
} from './fields.js';

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
 * A third of the objects' JSON on a five-line invoice (1.6 KB for 4.5 KB): storing that JSON for every mapped invoice
 * doubled what mapping adds to an import. The level stays at `<provider>.level`, where a preparation's insert reads it.
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
  // Entries by path (a line and field, or a transaction field), so a new entry is compared with the few at its path.
  const missingAt = new Map<string, number[]>();
  const missingIndex = (m: MissingField): number => {
    const tuple = missingTuple(m);
    const candidates = missingAt.get(m.path) ?? [];
    const known = candidates.find((at) => tuple.every((value, i) => value === missingFields[at]![i]));
    if (known !== undefined) return known;
    const at = missingFields.push(tuple) - 1;
    missingAt.set(m.path, [...candidates, at]);
    return at;
  };
  // The providers' findings are the same objects (`carriedRisks` filters one list), so identity finds the shared ones.
  const riskAt = new Map<RiskFinding, number>();
  const riskIndex = (r: RiskFinding): number => {
    let at = riskAt.get(r);
    if (at === undefined) {
      at = riskFindings.push(r) - 1;
      riskAt.set(r, at);
    }
    return at;
  };
  const byProvider = perProvider((provider): StoredProviderQualification => {
    const own = qualification[provider];
    return { level: own.level, missing: own.missing.map(missingIndex), risks: own.risks.map(riskIndex) };
  });
  return { ...byProvider, missingFields, riskFindings };
}

/**
 * A snapshot's stored qualification as the domain's. Also reads the form stored before (each provider's lists of
 * objects, 2026-11-26): snapshots are immutable evidence, so those rows keep it.
 */
export function qualificationOfStored(stored: StoredQualification | Qualification): Qualification {
  if (!('missingFields' in stored)) return stored;
  const missing = stored.missingFields.map(missingOf);
  return perProvider((provider) => {
    const own = stored[provider];
    return { level: own.level, missing: own.missing.map((i) => missing[i]!), risks: own.risks.map((i) => stored.riskFindings[i]!) };
  });
}

function missingTuple(m: MissingField): StoredMissing {
  return [m.field, m.reason, m.path, m.source?.objectType ?? null, m.source?.externalId ?? null, m.source?.field ?? null];
}

function missingOf([field, reason, path, objectType, externalId, sourceField]: StoredMissing): MissingField {
  const source = objectType === null ? null : { objectType, externalId: externalId!, field: sourceField! };
  return { field, reason, path, source };
}
