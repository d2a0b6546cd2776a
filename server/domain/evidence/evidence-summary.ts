import type { PaymentProvider } from '../../../contract/common/index.js';
import { EVIDENCE_STATES, evidenceState, factsOfKey, shareDecimal, type EvidenceState } from './evidence-state.js';

/** What the database counted: preparations of one integration, month and currency sharing one fact key. */
export interface FactGroup {
  integrationId: string;
  provider: PaymentProvider;
  month: string;
  currency: string;
  factKey: number;
  count: number;
  netMinor: bigint;
}

export interface StateFigures {
  count: number;
  /** Net minor units (captured − refunded), a decimal string: sums can pass 2^53. */
  netMinor: string;
}

export interface SummaryRow {
  integrationId: string;
  provider: PaymentProvider;
  month: string;
  currency: string;
  states: Record<EvidenceState, StateFigures>;
  count: number;
  netMinor: string;
  /** docs/evidence.md, "The share of verified volume": exact integers and their quotient to 4 places. */
  verifiedShare: { numerator: string; denominator: string; decimal: string | null };
}

/** Fold the database's fact groups into the summary: each key's state decided by `evidenceState`, sums exact. */
export function summarize(groups: readonly FactGroup[]): SummaryRow[] {
  const rows = new Map<
    string,
    {
      row: Omit<SummaryRow, 'states' | 'netMinor' | 'verifiedShare'>;
      counts: Record<EvidenceState, number>;
      sums: Record<EvidenceState, bigint>;
    }
  >();
  for (const g of groups) {
    const id = `${g.integrationId}|${g.month}|${g.currency}`;
    let acc = rows.get(id);
    if (!acc) {
      acc = {
        row: { integrationId: g.integrationId, provider: g.provider, month: g.month, currency: g.currency, count: 0 },
        counts: Object.fromEntries(EVIDENCE_STATES.map((s) => [s, 0])) as Record<EvidenceState, number>,
        sums: Object.fromEntries(EVIDENCE_STATES.map((s) => [s, 0n])) as Record<EvidenceState, bigint>,
      };
      rows.set(id, acc);
    }
    const state = evidenceState(factsOfKey(g.factKey));
    acc.counts[state] += g.count;
    acc.sums[state] += g.netMinor;
    acc.row.count += g.count;
  }
  return [...rows.values()]
    .map(({ row, counts, sums }) => {
      const total = EVIDENCE_STATES.reduce((sum, s) => sum + sums[s], 0n);
      return {
        ...row,
        states: Object.fromEntries(EVIDENCE_STATES.map((s) => [s, { count: counts[s], netMinor: sums[s].toString() }])) as Record<
          EvidenceState,
          StateFigures
        >,
        netMinor: total.toString(),
        verifiedShare: { numerator: sums.verified.toString(), denominator: total.toString(), decimal: shareDecimal(sums.verified, total) },
      };
    })
    .sort((a, b) => cmp(a.integrationId, b.integrationId) || cmp(a.month, b.month) || cmp(a.currency, b.currency));
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
