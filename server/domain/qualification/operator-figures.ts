import { evidenceState, factsOfKey } from '../evidence/evidence-state.js';
import type { Qualification, QualificationLevel, SourceField } from './fields.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { FixGroup, FixPreparation, FixSnapshot, LevelGroup, QualificationStore } from './ports.js';
import { qualificationOfStored } from './stored-form.js';

type Storage = UnitOfWork<{ qualification: QualificationStore }>;

/** The filters of `qualification.summary` and `qualification.fixes` (instants, `[from, to)` on when preparations were saved). */
export interface QualificationFiguresInput {
  organizationId?: string | undefined;
  integrationId?: string | undefined;
  from: string;
  to: string;
}

/** How many source fixes `qualification.fixes` lists when not told. */
export const FIXES_DEFAULT_LIMIT = 20;

const LEVEL_ORDER: readonly (QualificationLevel | null)[] = ['product_3', 'partial', 'none', null];

export interface LevelRow {
  month: string;
  level: QualificationLevel | null;
  currency: string;
  preparations: number;
  /** Preparations in the evidence ledger's `verified` state, and their net volume (minor units, a decimal string). */
  verifiedPreparations: number;
  verifiedNetMinor: string;
}

/** Fold the counted groups into rows per month, level and currency; `verified` is the evidence ledger's state, decided there. */
export function levelRows(groups: readonly LevelGroup[]): LevelRow[] {
  const rows = new Map<string, { row: Omit<LevelRow, 'verifiedNetMinor'>; verified: bigint }>();
  for (const g of groups) {
    const id = `${g.month}|${g.level}|${g.currency}`;
    let acc = rows.get(id);
    if (!acc) {
      acc = {
        row: { month: g.month, level: g.level, currency: g.currency, preparations: 0, verifiedPreparations: 0 },
        verified: 0n,
      };
      rows.set(id, acc);
    }
    acc.row.preparations += g.count;
    if (evidenceState(factsOfKey(g.factKey)) === 'verified') {
      acc.row.verifiedPreparations += g.count;
      acc.verified += g.netMinor;
    }
  }
  return [...rows.values()]
    .map(({ row, verified }) => ({ ...row, verifiedNetMinor: verified.toString() }))
    .sort((a, b) => cmp(a.month, b.month) || LEVEL_ORDER.indexOf(a.level) - LEVEL_ORDER.indexOf(b.level) || cmp(a.currency, b.currency));
}

const filterOf = (input: QualificationFiguresInput) => ({
  organizationId: input.organizationId,
  integrationId: input.integrationId,
  from: new Date(input.from),
  to: new Date(input.to),
});

/** `qualification.summary`: preparations and verified volume by recorded level, per UTC month (docs/network-qualification.md). */
export async function qualificationSummary(storage: Storage, input: QualificationFiguresInput) {
  const groups = await storage.store.qualification.levelGroups(filterOf(input));
  return {
    from: new Date(input.from).toISOString(),
    to: new Date(input.to).toISOString(),
    timeZone: 'UTC' as const,
    rows: levelRows(groups),
  };
}

/**
 * Source fixes of preparations: from each preparation's pinned snapshot, for its output, the missing fields the source
 * does not hold and the risk findings, each with the source record and field to fix; per fix and currency, the
 * preparations it holds back and the sum of their amounts (a preparation counts once per fix), the largest first (ties:
 * more preparations, then by source, code and currency). Each snapshot's qualification is read once.
 */
export function fixGroupsOf(
  preparations: readonly FixPreparation[],
  snapshots: ReadonlyMap<string, FixSnapshot>,
  limit: number,
): FixGroup[] {
  const read = new Map<string, Qualification | null>();
  const qualificationOf = (snapshotId: string): Qualification | null => {
    let q = read.get(snapshotId);
    if (q === undefined) {
      const stored = snapshots.get(snapshotId);
      q = stored ? qualificationOfStored(stored.qualification, stored.context) : null;
      read.set(snapshotId, q);
    }
    return q;
  };
  const groups = new Map<string, FixGroup>();
  for (const p of preparations) {
    const own = qualificationOf(p.snapshotId)?.[p.provider];
    if (!own) continue;
    const fixes = new Map<string, Pick<FixGroup, 'kind' | 'code' | 'source'>>();
    const add = (kind: FixGroup['kind'], code: string, source: SourceField) =>
      fixes.set(JSON.stringify([kind, code, source.objectType, source.externalId, source.field]), { kind, code, source });
    for (const m of own.missing) if (m.reason === 'not_in_source' && m.source) add('missing', m.field, m.source);
    for (const r of own.risks) if (r.source) add('risk', r.code, r.source);
    for (const [key, fix] of fixes) {
      const id = `${key}|${p.currency}`;
      let group = groups.get(id);
      if (!group) groups.set(id, (group = { ...fix, currency: p.currency, preparations: 0, amountMinor: 0n }));
      group.preparations += 1;
      group.amountMinor += p.amountMinor;
    }
  }
  return [...groups.values()]
    .sort(
      (a, b) =>
        (a.amountMinor === b.amountMinor ? 0 : a.amountMinor > b.amountMinor ? -1 : 1) ||
        b.preparations - a.preparations ||
        cmp(a.source.objectType, b.source.objectType) ||
        cmp(a.source.externalId, b.source.externalId) ||
        cmp(a.source.field, b.source.field) ||
        cmp(a.code, b.code) ||
        cmp(a.currency, b.currency),
    )
    .slice(0, limit);
}

/** `qualification.fixes`: source fixes ranked by the volume of the preparations they hold back, per currency. */
export async function qualificationFixes(storage: Storage, input: QualificationFiguresInput & { limit?: number | undefined }) {
  const { preparations, snapshots } = await storage.store.qualification.fixInputs(filterOf(input));
  const groups = fixGroupsOf(preparations, snapshots, input.limit ?? FIXES_DEFAULT_LIMIT);
  return {
    from: new Date(input.from).toISOString(),
    to: new Date(input.to).toISOString(),
    fixes: groups.map((g: FixGroup, i) => ({
      rank: i + 1,
      kind: g.kind,
      code: g.code,
      source: g.source,
      currency: g.currency,
      preparations: g.preparations,
      volumeMinor: g.amountMinor.toString(),
    })),
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
