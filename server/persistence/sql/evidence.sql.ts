import { sql as raw, type ExpressionBuilder, type Kysely } from 'kysely';
import type { FactGroup } from '../../domain/evidence/evidence-summary.js';
import type { EvidenceChain, EvidenceException, EvidenceFilter } from '../../domain/evidence/types.js';
import type { Environment, PaymentProvider } from '../../../contract/common/index.js';
import type { Database, Db } from '../kysely.js';
import type { PaymentChainViews } from './payment-chains.js';
import type { QualificationLevel } from '../../domain/qualification/fields.js';

/**
 * The columns of the `preparation_evidence_facts` view (Migration20261125191500_preparation_evidence): a preparation,
 * its chain's payment (null without one) and the facts whose sum is the fact key. A view is not an entity: its columns
 * have their database names and its values are the driver's (timestamps and bigints as text).
 */
export interface PreparationEvidenceFactsView {
  id: string;
  organization_id: string;
  integration_id: string;
  environment: Environment;
  provider: PaymentProvider;
  mode: EvidenceChain['mode'];
  amount_minor: string;
  currency: string;
  created_at: string;
  stored_invoice_id: string;
  snapshot_id: string;
  revision: string;
  payment_id: string | null;
  attempt_id: string | null;
  provider_payment_id: string | null;
  payment_status: string | null;
  payment_amount_minor: string | null;
  payment_currency: string | null;
  captured_minor: string;
  refunded_minor: string;
  enhanced: boolean;
  exception: boolean;
  payment: boolean;
  captured: boolean;
  verified_capture: boolean;
  amount_matches: boolean;
  currency_matches: boolean;
  fact_key: number;
}

type FactsDatabase = Db & PaymentChainViews & { preparation_evidence_facts: PreparationEvidenceFactsView };

/**
 * The tables the chains statement joins to the views, read as database rows like the views: the ORM's mapping reads
 * every output column named like a column of an entity in the statement as that entity's, which would take the views'
 * `created_at`, `currency`, … for the invoice's. Named as plain relations (not entities), the statement's rows are
 * the database's throughout, converted once (`chainOf`).
 */
const invoicesAsRows = raw<{ id: string; ledger_invoice_id: string; invoice_number: string | null }>`stored_invoices`;
const levelsAsRows = raw<{ preparation_id: string; qualification_level: QualificationLevel | null }>`preparation_evidence`;
const exceptionsAsRows = raw<{
  integration_id: string;
  environment: string;
  enrichment_request_id: string;
}>`correlation_exceptions`;

/** The database with the views as tables (`withTables`: types only, the same connection). */
const withFacts = (db: Database): Kysely<FactsDatabase> =>
  db.withTables<PaymentChainViews & { preparation_evidence_facts: PreparationEvidenceFactsView }>();

/** One group of the summary: preparations of one integration, UTC month, currency and fact key (the domain's `FactGroup`). */
export type EvidenceGroup = FactGroup;

/**
 * The first capture with this evidence among the observations of the chain's payment (`f`), those of payments merged
 * into it included (`payment_chain_observations`), in time order: one lateral lookup.
 */
const firstCapture = (
  { selectFrom }: ExpressionBuilder<FactsDatabase & { f: PreparationEvidenceFactsView }, 'f'>,
  evidence: 'provider_verified' | 'merchant_report',
) =>
  selectFrom('payment_chain_observations as o')
    .select(['o.id', 'o.event_id', 'o.occurred_at'])
    .whereRef('o.chain_payment_id', '=', 'f.payment_id')
    // Literals, as the view's own lookups: the evidence kind picks the index's rows.
    .where('o.evidence', '=', raw.lit(evidence))
    .where('o.captured_amount_minor', '>', raw<string>`0`)
    .orderBy('o.occurred_at')
    .orderBy('o.id')
    .limit(raw.lit(1));

/**
 * The chains of the preparations in the filter, one row each, with no per-row queries: the facts come from the
 * `preparation_evidence_facts` view, their only definition (Migration20261125191500_preparation_evidence), which
 * finds each chain's payment by index lookups; the first verified and first reported capture and the invoice are
 * joined here for what the list shows.
 */
function chainsQuery(facts: Kysely<FactsDatabase>, filter: EvidenceFilter) {
  const { organizationId, integrationId, level } = filter;
  return facts
    .selectFrom('preparation_evidence_facts as f')
    .leftJoinLateral(
      (eb) => firstCapture(eb, 'provider_verified').as('v'),
      (join) => join.onTrue(),
    )
    .leftJoinLateral(
      (eb) => firstCapture(eb, 'merchant_report').as('r'),
      (join) => join.onTrue(),
    )
    .innerJoin(invoicesAsRows.as('si'), (join) => join.onRef('si.id', '=', 'f.stored_invoice_id'))
    .innerJoin(levelsAsRows.as('pe'), (join) => join.onRef('pe.preparation_id', '=', 'f.id'))
    .selectAll('f')
    .select([
      'v.id as verified_id',
      'v.event_id as verified_event_id',
      'v.occurred_at as verified_at',
      'r.id as reported_id',
      'r.event_id as reported_event_id',
      'r.occurred_at as reported_at',
      'si.ledger_invoice_id',
      'si.invoice_number',
      'pe.qualification_level',
    ])
    .where('f.created_at', '>=', filter.from.toISOString())
    .where('f.created_at', '<', filter.to.toISOString())
    .$if(organizationId !== undefined, (q) => q.where('f.organization_id', '=', organizationId!))
    .$if(integrationId !== undefined, (q) => q.where('f.integration_id', '=', integrationId!))
    .$if(level === 'not_assessed', (q) => q.where('pe.qualification_level', 'is', null))
    .$if(level !== undefined && level !== 'not_assessed', (q) => q.where('pe.qualification_level', '=', level as QualificationLevel));
}

/** A chain's row: the view's columns, the first captures, the invoice and the exceptions. */
type ChainRow = Awaited<ReturnType<typeof chainsPage>>[number];

/** A chain's row as the domain's chain: the view's values are the database's (amounts and times as text), converted once here. */
function chainOf(r: ChainRow): EvidenceChain {
  return {
    id: r.id,
    organizationId: r.organization_id,
    integrationId: r.integration_id,
    environment: r.environment,
    provider: r.provider,
    mode: r.mode,
    amountMinor: Number(r.amount_minor),
    currency: r.currency,
    createdAt: new Date(r.created_at),
    storedInvoiceId: r.stored_invoice_id,
    ledgerInvoiceId: r.ledger_invoice_id,
    invoiceNumber: r.invoice_number,
    qualificationLevel: r.qualification_level,
    snapshotId: r.snapshot_id,
    revision: r.revision,
    factKey: r.fact_key,
    payment:
      r.payment_id === null
        ? null
        : {
            id: r.payment_id,
            attemptId: r.attempt_id!,
            providerPaymentId: r.provider_payment_id,
            status: r.payment_status,
            amountMinor: r.payment_amount_minor === null ? null : Number(r.payment_amount_minor),
            currency: r.payment_currency,
            capturedAmountMinor: Number(r.captured_minor),
            refundedAmountMinor: Number(r.refunded_minor),
          },
    verifiedCapture:
      r.verified_id === null ? null : { observationId: r.verified_id, eventId: r.verified_event_id!, occurredAt: new Date(r.verified_at!) },
    reportedCapture:
      r.reported_id === null ? null : { observationId: r.reported_id, eventId: r.reported_event_id!, occurredAt: new Date(r.reported_at!) },
    exceptions: r.exceptions,
  };
}

/** The statement of one page of chains (`evidenceChains`). */
function chainsPage(db: Database, filter: EvidenceFilter, page: { after?: { createdAt: Date; id: string } | undefined; limit: number }) {
  const { factKeys } = filter;
  const { after } = page;
  const facts = withFacts(db);
  return facts
    .with('f', () => chainsQuery(facts, filter))
    .selectFrom((eb) =>
      eb
        .selectFrom('f')
        .selectAll()
        .$if(factKeys !== undefined, (q) => q.where('f.fact_key', '=', raw<number>`any(${factKeys}::int[])`))
        .$if(after !== undefined, (q) =>
          q.where((eb) => eb(eb.refTuple('f.created_at', 'f.id'), '>', eb.tuple(after!.createdAt.toISOString(), after!.id))),
        )
        .orderBy('f.created_at')
        .orderBy('f.id')
        .limit(page.limit)
        .as('f'),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom(exceptionsAsRows.as('c'))
          .select(
            raw<EvidenceException[]>`json_agg(json_build_object('kind', c.kind, 'expected', c.expected, 'observed', c.observed,
                                           'observationId', c.observation_id,
                                           'at', to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                         order by c.created_at, c.id)`.as('list'),
          )
          .whereRef('c.integration_id', '=', 'f.integration_id')
          .whereRef('c.environment', '=', 'f.environment')
          // The request id is the preparation's id as the merchant sent it (any case).
          .where(raw<string>`lower(c.enrichment_request_id)`, '=', raw<string>`f.id::text`)
          .as('x'),
      (join) => join.onTrue(),
    )
    .selectAll('f')
    .select(raw<EvidenceException[]>`coalesce(x.list, '[]'::json)`.as('exceptions'))
    .orderBy('f.created_at')
    .orderBy('f.id')
    .execute();
}

/**
 * One page of chains in (created_at, id) order after `after`, at most `limit`: the list and each batch of the CSV.
 * The page is chosen before the exceptions are gathered, so only the rows returned pay for them.
 */
export async function evidenceChains(
  db: Database,
  filter: EvidenceFilter,
  page: { after?: { createdAt: Date; id: string } | undefined; limit: number },
): Promise<EvidenceChain[]> {
  return (await chainsPage(db, filter, page)).map(chainOf);
}

/**
 * The summary's groups: preparations counted and their net amounts summed per integration, UTC month, currency (the
 * payment's when there is one, else the preparation's) and fact key, from the `preparation_evidence` projection (one
 * narrow row per preparation, kept by the database in the same transaction as every write that changes it). The state
 * of each key is decided by the domain, never here.
 */
export async function evidenceGroups(db: Database, filter: EvidenceFilter): Promise<EvidenceGroup[]> {
  const { organizationId, integrationId } = filter;
  const groupColumns = ['e.integrationId', 'e.provider', 'e.month', 'e.currency', 'e.factKey'] as const;
  const rows = await db
    .selectFrom('preparation_evidence as e')
    .select(groupColumns)
    // Aggregates are the database's values: a count and a sum of bigints as text.
    // Aliased apart from the entity's own names, which the ORM would read (and convert) as the entity's columns.
    .select((eb) => [eb.fn.countAll<string>().as('groupCount'), eb.cast<string>(eb.fn.sum('e.netMinor'), 'text').as('netSum')])
    .where('e.createdAt', '>=', filter.from)
    .where('e.createdAt', '<', filter.to)
    .$if(organizationId !== undefined, (q) => q.where('e.organizationId', '=', organizationId!))
    .$if(integrationId !== undefined, (q) => q.where('e.integrationId', '=', integrationId!))
    .groupBy(groupColumns)
    .orderBy('e.integrationId')
    .orderBy('e.month')
    .orderBy('e.currency')
    .orderBy('e.factKey')
    .$narrowType<{ provider: PaymentProvider }>()
    .execute();
  return rows.map(({ groupCount, netSum, ...group }) => ({ ...group, count: Number(groupCount), netMinor: BigInt(netSum) }));
}

/** Whether the organization and the integration a filter names exist (and the integration is the organization's, when both are named). */
export async function evidenceFilterTargetsExist(
  db: Database,
  filter: { organizationId?: string | undefined; integrationId?: string | undefined },
): Promise<boolean> {
  const { organizationId, integrationId } = filter;
  if (organizationId === undefined && integrationId === undefined) return true;
  const row = await db
    .selectNoFrom(({ and, exists, selectFrom }) =>
      and([
        ...(organizationId === undefined
          ? []
          : [exists(selectFrom('organizations as o').select(raw.lit(1).as('one')).where('o.id', '=', organizationId))]),
        ...(integrationId === undefined
          ? []
          : [
              exists(
                selectFrom('integrations as i')
                  .select(raw.lit(1).as('one'))
                  .where('i.id', '=', integrationId)
                  .$if(organizationId !== undefined, (q) => q.where('i.organization', '=', organizationId!)),
              ),
            ]),
      ])
        .$castTo<boolean>()
        .as('ok'),
    )
    .executeTakeFirst();
  return row?.ok === true;
}
