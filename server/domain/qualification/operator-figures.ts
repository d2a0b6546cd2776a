import { evidenceState, factsOfKey } from '../evidence/evidence-state.js';
import type { ProviderQualification, QualificationLevel, SourceField } from './fields.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { Provider } from '../enrichment/index.js';
import type { FixGroup, FixInvoice, FixPreparation, LevelGroup, QualificationStore } from './ports.js';
import { qualificationOfStored } from './stored-form.js';
import { withCrossInvoiceRisks } from './qualify.js';
import { levelOfMissing, raises } from './level-rule.js';

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

/** How many invoices each fix of `qualification.fixes` names, the largest amounts first. */
export const FIX_INVOICES_SHOWN = 10;

/** One source fix as `qualification.fixes` answers it, before its rank. */
export interface RankedFix extends FixGroup {
  /** The invoices behind the figures, the largest first, at most FIX_INVOICES_SHOWN. */
  invoices: FixInvoiceShown[];
}

export interface FixInvoiceShown {
  storedInvoiceId: string;
  ledgerInvoiceId: string;
  /** The current snapshot, whose qualification names the fix. */
  snapshotId: string;
  amountMinor: bigint;
  /** Whether this fix alone lifts the invoice (`liftsMinor`) or only with other fixes (`withOtherFixesMinor`). */
  alone: boolean;
  /** The invoice's preparations in the range, oldest first. */
  preparationIds: string[];
}

/** A fix of one output: its key, what it is, and whether it alone lifts that output. */
interface OutputFix {
  key: string;
  fix: Pick<FixGroup, 'kind' | 'code' | 'source'>;
  alone: boolean;
}

const keyOf = (kind: FixGroup['kind'], code: string, source: SourceField) =>
  JSON.stringify([kind, code, source.objectType, source.externalId, source.field]);

/**
 * The source fixes one output names, as it stands now: each missing field the source does not hold (`not_in_source`),
 * alone when making it whole raises the output's level (the level rule, `levelOfMissing`) or is the output's last gap
 * the source can fix; each placeholder risk, alone when it is the output's only one and the output sends enhanced data
 * (fixing it leaves nothing for the networks' checks to downgrade). Fields the source cannot fix (`not_mapped`,
 * `not_carried`) are no source fix: they bound the level the source can reach.
 */
function fixesOfOutput(provider: Provider, own: ProviderQualification): OutputFix[] {
  const out = new Map<string, OutputFix>();
  // Each missing field's fix key once; `null`: no fix at the source.
  const keys = own.missing.map((m) => (m.reason === 'not_in_source' && m.source ? keyOf('missing', m.field, m.source) : null));
  const fixableKeys = new Set(keys.filter((k) => k !== null));
  own.missing.forEach((m, i) => {
    const key = keys[i];
    if (key == null || out.has(key)) return;
    const rest = own.missing.filter((_, j) => keys[j] !== key);
    const alone = raises(own.level, levelOfMissing(provider, rest)) || fixableKeys.size === 1;
    out.set(key, { key, fix: { kind: 'missing', code: m.field, source: m.source! }, alone });
  });
  const riskKeys = new Set(own.risks.flatMap((r) => (r.source ? [keyOf('risk', r.code, r.source)] : [])));
  for (const r of own.risks) {
    if (!r.source) continue;
    const key = keyOf('risk', r.code, r.source);
    if (!out.has(key))
      out.set(key, { key, fix: { kind: 'risk', code: r.code, source: r.source }, alone: own.level !== 'none' && riskKeys.size === 1 });
  }
  return [...out.values()];
}

/**
 * Source fixes ranked by the enhanced volume they would lift (docs/network-qualification.md, "Operator figures").
 * Each invoice with preparations in the range counts once, with the amount of its latest preparation (re-preparations of
 * one invoice are one payment at stake, not several), and is read as it stands now, its current snapshot with its
 * cross-invoice findings: a fix already made at the source is no longer listed. Per fix and currency: `liftsMinor`, the
 * volume of invoices this fix alone would lift (for a missing field, a higher level for an output the invoice was
 * prepared for; for a risk, the output's only risk); `withOtherFixesMinor`, the volume it holds back together with other
 * fixes. Ranked by the first, then the second, then the invoices, then by source, code and currency.
 */
export function fixGroupsOf(
  preparations: readonly FixPreparation[],
  invoices: ReadonlyMap<string, FixInvoice>,
  limit: number,
): RankedFix[] {
  const byInvoice = new Map<string, FixPreparation[]>();
  for (const p of preparations) {
    const list = byInvoice.get(p.storedInvoiceId);
    if (list) list.push(p);
    else byInvoice.set(p.storedInvoiceId, [p]);
  }
  const groups = new Map<string, RankedFix>();
  for (const [storedInvoiceId, prepared] of byInvoice) {
    const invoice = invoices.get(storedInvoiceId);
    if (!invoice) continue;
    prepared.sort(bySavedOrder);
    const latest = prepared.at(-1)!;
    const providers = new Set(prepared.map((p) => p.provider));
    const preparationIds = prepared.map((p) => p.id);
    const qualification = withCrossInvoiceRisks(qualificationOfStored(invoice.qualification, invoice.context), invoice.crossInvoiceRisks);
    const fixes = new Map<string, OutputFix>();
    for (const provider of providers) {
      for (const f of fixesOfOutput(provider, qualification[provider])) {
        const known = fixes.get(f.key);
        if (!known || (f.alone && !known.alone)) fixes.set(f.key, f);
      }
    }
    for (const { key, fix, alone } of fixes.values()) {
      const id = `${key}|${latest.currency}`;
      let group = groups.get(id);
      if (!group) {
        group = {
          ...fix,
          currency: latest.currency,
          invoiceCount: 0,
          preparations: 0,
          liftsMinor: 0n,
          withOtherFixesMinor: 0n,
          invoices: [],
        };
        groups.set(id, group);
      }
      group.invoiceCount += 1;
      group.preparations += prepared.length;
      if (alone) group.liftsMinor += latest.amountMinor;
      else group.withOtherFixesMinor += latest.amountMinor;
      group.invoices.push({
        storedInvoiceId,
        ledgerInvoiceId: invoice.ledgerInvoiceId,
        snapshotId: invoice.snapshotId,
        amountMinor: latest.amountMinor,
        alone,
        preparationIds,
      });
    }
  }
  return [...groups.values()]
    .sort(
      (a, b) =>
        cmpDesc(a.liftsMinor, b.liftsMinor) ||
        cmpDesc(a.withOtherFixesMinor, b.withOtherFixesMinor) ||
        b.invoiceCount - a.invoiceCount ||
        cmp(a.source.objectType, b.source.objectType) ||
        cmp(a.source.externalId, b.source.externalId) ||
        cmp(a.source.field, b.source.field) ||
        cmp(a.code, b.code) ||
        cmp(a.currency, b.currency),
    )
    .slice(0, limit)
    .map((group) => ({
      ...group,
      invoices: group.invoices
        .sort(
          (a, b) => Number(b.alone) - Number(a.alone) || cmpDesc(a.amountMinor, b.amountMinor) || cmp(a.storedInvoiceId, b.storedInvoiceId),
        )
        .slice(0, FIX_INVOICES_SHOWN),
    }));
}

/** Saved order, oldest first: by when saved, then by id (the order of every preparation read). */
const bySavedOrder = (a: FixPreparation, b: FixPreparation) => a.createdAt.getTime() - b.createdAt.getTime() || cmp(a.id, b.id);

const cmpDesc = (a: bigint, b: bigint) => (a === b ? 0 : a > b ? -1 : 1);

/** `qualification.fixes`: source fixes ranked by the enhanced volume they would lift, per currency, each with the invoices behind it. */
export async function qualificationFixes(storage: Storage, input: QualificationFiguresInput & { limit?: number | undefined }) {
  const { preparations, invoices } = await storage.store.qualification.fixInputs(filterOf(input));
  const groups = fixGroupsOf(preparations, invoices, input.limit ?? FIXES_DEFAULT_LIMIT);
  return {
    from: new Date(input.from).toISOString(),
    to: new Date(input.to).toISOString(),
    fixes: groups.map((g, i) => ({
      rank: i + 1,
      kind: g.kind,
      code: g.code,
      source: g.source,
      currency: g.currency,
      liftsMinor: g.liftsMinor.toString(),
      withOtherFixesMinor: g.withOtherFixesMinor.toString(),
      invoiceCount: g.invoiceCount,
      preparations: g.preparations,
      invoices: g.invoices.map((v) => ({ ...v, amountMinor: v.amountMinor.toString() })),
    })),
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
