/**
 * The evidence state of one preparation (docs/evidence.md): the only place it is decided. Every figure the
 * operator sees (summary, list, CSV, console) is this function applied to facts the database produced.
 */

export const EVIDENCE_STATES = ['verified', 'reported_only', 'unconfirmed', 'exception', 'ordinary'] as const;
export type EvidenceState = (typeof EVIDENCE_STATES)[number];

/** The facts of one preparation's chain that decide its state (docs/evidence.md, "Facts"). */
export interface EvidenceFacts {
  enhanced: boolean;
  exception: boolean;
  payment: boolean;
  captured: boolean;
  verifiedCapture: boolean;
  amountMatches: boolean;
  currencyMatches: boolean;
}

/** docs/evidence.md, "States": the first that applies wins. */
export function evidenceState(f: EvidenceFacts): EvidenceState {
  if (!f.enhanced) return 'ordinary';
  if (f.exception || (f.payment && !(f.amountMatches && f.currencyMatches))) return 'exception';
  if (f.payment && f.captured) return f.verifiedCapture ? 'verified' : 'reported_only';
  return 'unconfirmed';
}

/**
 * The facts packed as bits, the way the `preparation_evidence_facts` view reports them (its `fact_key`, bit for bit
 * in this order: Migration20261125191500_preparation_evidence): the summary groups by this key, so the
 * database aggregates millions of rows into a few groups while the state is still decided here, and a state filter
 * becomes the list of keys whose state it is.
 */
const BITS: readonly (keyof EvidenceFacts)[] = [
  'enhanced',
  'exception',
  'payment',
  'captured',
  'verifiedCapture',
  'amountMatches',
  'currencyMatches',
];
export const FACT_KEY_COUNT = 1 << BITS.length;

export function factsOfKey(key: number): EvidenceFacts {
  const facts = {} as EvidenceFacts;
  BITS.forEach((name, bit) => (facts[name] = (key & (1 << bit)) !== 0));
  return facts;
}

export function keyOfFacts(facts: EvidenceFacts): number {
  return BITS.reduce((key, name, bit) => (facts[name] ? key | (1 << bit) : key), 0);
}

/** Every fact key whose state is `state`: what a state filter asks the database for. */
export function factKeysOf(state: EvidenceState): number[] {
  const keys: number[] = [];
  for (let key = 0; key < FACT_KEY_COUNT; key++) if (evidenceState(factsOfKey(key)) === state) keys.push(key);
  return keys;
}

/** Whole hours since `since`; an unconfirmed preparation's age. */
export function ageHours(since: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - since.getTime()) / 3_600_000));
}

/**
 * `numerator / denominator` rounded half up to 4 places, with integers only (the share of verified volume; money
 * sums can pass 2^53, and a float quotient would not be exact). `null` when the denominator is 0.
 */
export function shareDecimal(numerator: bigint, denominator: bigint): string | null {
  if (denominator === 0n) return null;
  const scaled = (numerator * 20000n + denominator) / (2n * denominator);
  const whole = scaled / 10000n;
  const fraction = (scaled % 10000n).toString().padStart(4, '0');
  return `${whole}.${fraction}`;
}

/** The UTC calendar month of an instant, `YYYY-MM` (docs/evidence.md, "Months and ranges"). */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}
