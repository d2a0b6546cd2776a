import { DomainError } from '../errors.js';
import type { EvidenceStore } from './ports.js';
import { decodeCursor, encodeCursor } from '../pagination.js';
import { csvRecord, tenantText } from './csv.js';
import { ageHours, evidenceState, factKeysOf, factsOfKey, monthOf, type EvidenceState } from './evidence-state.js';
import { summarize } from './evidence-summary.js';
import type { EvidenceChain, EvidenceFilter, QualificationLevelFilter } from './types.js';

/** The filters every evidence read takes (docs/evidence.md, "Procedures and download"). */
export interface EvidenceInput {
  organizationId?: string | undefined;
  integrationId?: string | undefined;
  from: string;
  to: string;
  state?: EvidenceState | undefined;
  /** The qualification level the preparations' outputs had when saved (docs/network-qualification.md, "Where it shows"). */
  level?: QualificationLevelFilter | undefined;
}

function filterOf(input: EvidenceInput): EvidenceFilter {
  return {
    organizationId: input.organizationId,
    integrationId: input.integrationId,
    from: new Date(input.from),
    to: new Date(input.to),
    factKeys: input.state === undefined ? undefined : factKeysOf(input.state),
    level: input.level,
  };
}

/** One preparation's row: its state, its chain and its amounts (the list, the CSV and the console's detail). */
export function evidenceRow(chain: EvidenceChain, now: Date) {
  const state = evidenceState(factsOfKey(chain.factKey));
  const payment = chain.payment;
  const captured = payment?.capturedAmountMinor ?? 0;
  const refunded = payment?.refundedAmountMinor ?? 0;
  const capture = chain.verifiedCapture
    ? { source: 'provider_verified' as const, ...chain.verifiedCapture }
    : chain.reportedCapture
      ? { source: 'merchant_report' as const, ...chain.reportedCapture }
      : null;
  return {
    preparationId: chain.id,
    organizationId: chain.organizationId,
    integrationId: chain.integrationId,
    environment: chain.environment,
    provider: chain.provider,
    createdAt: chain.createdAt.toISOString(),
    month: monthOf(chain.createdAt),
    state,
    ageHours: state === 'unconfirmed' ? ageHours(chain.createdAt, now) : null,
    mode: chain.mode,
    invoice: { id: chain.storedInvoiceId, ledgerInvoiceId: chain.ledgerInvoiceId, number: chain.invoiceNumber },
    snapshotId: chain.snapshotId,
    revision: chain.revision,
    qualificationLevel: chain.qualificationLevel,
    amountMinor: chain.amountMinor,
    currency: chain.currency,
    payment: payment && {
      id: payment.id,
      attemptId: payment.attemptId,
      providerPaymentId: payment.providerPaymentId,
      status: payment.status,
      amountMinor: payment.amountMinor,
      currency: payment.currency,
    },
    evidence: capture && {
      source: capture.source,
      observationId: capture.observationId,
      eventId: capture.eventId,
      at: capture.occurredAt.toISOString(),
    },
    capturedAmountMinor: captured,
    refundedAmountMinor: refunded,
    netAmountMinor: captured - refunded,
    exceptions: chain.exceptions,
  };
}
export type EvidenceRow = ReturnType<typeof evidenceRow>;

/** `evidence.summary`: per integration, UTC month and currency, count and net volume per state, and the verified share. */
export async function evidenceSummary(store: EvidenceStore, input: Omit<EvidenceInput, 'state'>) {
  const groups = await store.groups(filterOf(input));
  return {
    from: new Date(input.from).toISOString(),
    to: new Date(input.to).toISOString(),
    timeZone: 'UTC' as const,
    rows: summarize(groups),
  };
}

/** `evidence.list`: one row per preparation, oldest first, keyset pages; the cursor is bound to the filters. */
export async function listEvidence(
  store: EvidenceStore,
  input: EvidenceInput & { cursor?: string | undefined; limit?: number | undefined },
  now = new Date(),
) {
  const limit = input.limit ?? 50;
  const binding = JSON.stringify([
    'evidence',
    input.organizationId ?? null,
    input.integrationId ?? null,
    new Date(input.from).toISOString(),
    new Date(input.to).toISOString(),
    input.state ?? null,
    input.level ?? null,
  ]);
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor, binding);
  const chains = await store.chains(filterOf(input), { after, limit: limit + 1 });
  const page = chains.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page.map((c) => evidenceRow(c, now)),
    nextCursor: chains.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }, binding) : null,
  };
}

/** The CSV's columns, in this order, always (docs/evidence.md). */
export const EVIDENCE_CSV_COLUMNS = [
  'preparation_id',
  'created_at',
  'month',
  'organization_id',
  'integration_id',
  'environment',
  'provider',
  'state',
  'age_hours',
  'mode',
  'invoice_id',
  'ledger_invoice_id',
  'invoice_number',
  'snapshot_id',
  'revision',
  'amount_minor',
  'currency',
  'payment_id',
  'attempt_id',
  'provider_payment_id',
  'payment_status',
  'payment_amount_minor',
  'payment_currency',
  'evidence_source',
  'evidence_event_id',
  'evidence_at',
  'captured_amount_minor',
  'refunded_amount_minor',
  'net_amount_minor',
  'exception_count',
  'exceptions',
  'qualification_level',
] as const;

/** A row's CSV cells: text a tenant or provider wrote neutralised (`tenantText`), numbers as numbers. */
export function csvValues(r: EvidenceRow): (string | number | null)[] {
  return [
    r.preparationId,
    r.createdAt,
    r.month,
    r.organizationId,
    r.integrationId,
    r.environment,
    r.provider,
    r.state,
    r.ageHours,
    r.mode,
    r.invoice.id,
    tenantText(r.invoice.ledgerInvoiceId),
    tenantText(r.invoice.number),
    r.snapshotId,
    tenantText(r.revision),
    r.amountMinor,
    r.currency,
    r.payment?.id ?? null,
    tenantText(r.payment?.attemptId ?? null),
    tenantText(r.payment?.providerPaymentId ?? null),
    tenantText(r.payment?.status ?? null),
    r.payment?.amountMinor ?? null,
    // The captured, refunded and net amounts are in the payment's currency; without a payment they are 0 in the preparation's.
    r.payment?.currency ?? r.currency,
    r.evidence?.source ?? null,
    tenantText(r.evidence?.eventId ?? null),
    r.evidence?.at ?? null,
    r.capturedAmountMinor,
    r.refundedAmountMinor,
    r.netAmountMinor,
    r.exceptions.length,
    tenantText(r.exceptions.map((e) => `${e.kind}:${e.expected}>${e.observed}`).join(';') || null),
    r.qualificationLevel,
  ];
}

/**
 * `evidence.export`: where the CSV of these filters downloads from. A download is a file the operator keeps, so a
 * filter naming no organization or integration (a typo) is a 404 here, not an empty file.
 */
export async function evidenceExportLink(store: EvidenceStore, input: EvidenceInput, path: string) {
  if (!(await evidenceTargetsExist(store, input))) {
    throw new DomainError('not_found', 'No such organization or integration (or the integration is not the organization’s)');
  }
  const query = new URLSearchParams(Object.entries(input).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return {
    method: 'GET' as const,
    path: `${path}?${query.toString()}`,
    contentType: 'text/csv; charset=utf-8',
    columns: [...EVIDENCE_CSV_COLUMNS],
  };
}

/** Whether the organization and integration the filters name exist (and the integration is the organization's). */
export function evidenceTargetsExist(store: EvidenceStore, input: EvidenceInput): Promise<boolean> {
  return store.filterTargetsExist(input);
}

const BATCH = 1000;

/**
 * `evidence.export`: the CSV, header first, then the rows in batches of keyset pages, so memory stays flat whatever
 * the range; each batch is one statement.
 */
export async function* evidenceCsv(store: EvidenceStore, input: EvidenceInput, now = new Date()): AsyncGenerator<string> {
  yield csvRecord(EVIDENCE_CSV_COLUMNS);
  const filter = filterOf(input);
  let after: { createdAt: Date; id: string } | undefined;
  for (;;) {
    const chains = await store.chains(filter, { after, limit: BATCH });
    if (chains.length > 0) yield chains.map((c) => csvRecord(csvValues(evidenceRow(c, now)))).join('');
    if (chains.length < BATCH) return;
    const last = chains[chains.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}
