import { PaymentProviderSchema, type CategorizedIssue, type PaymentProvider } from '../../../contract/common/index.js';
import {
  INVOICE_PAGE_DEFAULT,
  type CheckoutMode,
  type InvoiceDetail,
  type InvoiceListQuery,
  type InvoiceSummary,
} from '../../../contract/invoices.js';
import type { AuthContext } from '../auth/auth-context.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { DomainError } from '../errors.js';
import { decodeCursor, encodeCursor } from '../pagination.js';
import { readinessOf, sourceStateIssues, type Readiness, type SnapshotChecksCache } from './readiness.js';
import type { InvoiceStore, InvoiceVisibility } from './ports.js';
import type { InvoiceState } from './types.js';
import { checkoutModeOf } from './checkout-mode.js';
import { invoiceIssue } from './issue-categories.js';
import { ledgerInvoiceIdOf, qualificationOfStored, withCrossInvoiceRisks } from '../qualification/index.js';

type Storage = UnitOfWork<{ invoices: InvoiceStore }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Readiness of a stored invoice for one provider now (one implementation with invoice-backed preparation). */
export function readinessOfInvoice(state: InvoiceState, provider: PaymentProvider, now: Date, cache?: SnapshotChecksCache): Readiness {
  // A constraint gives every stored invoice a snapshot (Migration20261126083700_invoice_snapshot_required); a read that still finds
  // none (a snapshot row gone under a left join) reports the fact unavailable instead of dereferencing it.
  if (state.invoice === null) return withoutSnapshot(state, now);
  return readinessOf(
    {
      provider,
      invoice: state.invoice,
      snapshotId: state.snapshotId ?? undefined,
      mapperIssues: state.issues,
      deleted: state.deleted,
      connectionStatus: state.connectionStatus,
      checkedThrough: state.checkedThrough,
      syncActive: state.syncActive,
      now,
    },
    cache,
  );
}

function withoutSnapshot(state: InvoiceState, now: Date): Readiness {
  const issues = [invoiceIssue('fact_unavailable', 'invoice', 'The invoice has no mapped snapshot.'), ...sourceStateOf(state, now)];
  return { ready: false, issues, checkedThrough: state.checkedThrough?.toISOString() ?? null, canonical: null, enrichment: null };
}

/** Readiness with what a checkout of the invoice can be now (`checkoutModeOf`), as endpoints 8 and 9 show it. */
type ReadinessView = Readiness & { checkoutMode: CheckoutMode };

function readinessView(row: InvoiceState, provider: PaymentProvider, now: Date): ReadinessView {
  const readiness = readinessOfInvoice(row, provider, now);
  return { ...readiness, checkoutMode: checkoutModeOf(provider, readiness.issues, row.invoice) };
}

/** The checks of a stored invoice that do not read its snapshot (`sourceStateIssues`), now. */
export function sourceStateOf(state: InvoiceState, now: Date): CategorizedIssue[] {
  const { deleted, connectionStatus, checkedThrough, syncActive } = state;
  return sourceStateIssues({ deleted, connectionStatus, checkedThrough, syncActive, now });
}

function toSummary(
  row: InvoiceState,
  readiness: Pick<Readiness, 'ready' | 'issues' | 'checkedThrough'> & { checkoutMode: CheckoutMode },
): InvoiceSummary {
  return {
    id: row.id,
    ledgerInvoiceId: row.ledgerInvoiceId,
    invoiceNumber: row.invoiceNumber,
    status: row.status,
    currency: row.currency,
    totalAmountMinor: row.totalAmountMinor,
    sourceVersion: row.sourceVersion,
    revision: row.revision,
    snapshotId: row.snapshotId,
    checkedThrough: readiness.checkedThrough,
    ready: readiness.ready,
    checkoutMode: readiness.checkoutMode,
    issues: readiness.issues,
  };
}

/** What the calling key may see: invoices of the ledger integrations linked to its provider integration. */
async function visibilityOf(store: InvoiceStore, ctx: AuthContext): Promise<InvoiceVisibility> {
  return {
    organizationId: ctx.organizationId,
    environment: ctx.environment,
    ledgerIntegrationIds: await store.linkedLedgerIntegrations(ctx.integrationId),
  };
}

/** The cursor is bound to the key's integration and the filters (docs/invoices.md). */
const bindingOf = (scope: string, q: { ledgerInvoiceId?: string | undefined; invoiceNumber?: string | undefined }) =>
  JSON.stringify([scope, q.ledgerInvoiceId ?? null, q.invoiceNumber ?? null]);

/** Endpoint 8: a keyset page of the visible invoices, with readiness for the key's provider. */
export async function listInvoices(storage: Storage, ctx: AuthContext, query: InvoiceListQuery, now = new Date()) {
  const store = storage.store.invoices;
  const provider = PaymentProviderSchema.parse(ctx.provider);
  const limit = query.limit ?? INVOICE_PAGE_DEFAULT;
  const binding = bindingOf(ctx.integrationId, query);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, binding);
  const visibility = await visibilityOf(store, ctx);
  const rows = await store.listStoredInvoices({
    visibility,
    ledgerInvoiceId: query.ledgerInvoiceId,
    invoiceNumber: query.invoiceNumber,
    after,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const invoices = page.map((row) => toSummary(row, readinessView(row, provider, now)));
  const last = page.at(-1);
  return { invoices, nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }, binding) : null };
}

async function toDetail(store: InvoiceStore, row: InvoiceState, readiness: ReadinessView): Promise<InvoiceDetail> {
  const ids = await store.sourceRecordIds(row.connectionId, row.dependencies);
  return {
    ...toSummary(row, readiness),
    invoice: row.invoice,
    provenance: {
      sourceIntegrationId: row.integrationId,
      sourceConnectionId: row.realmId,
      sourceRecordId: row.sourceRecordId,
      mapperVersion: row.mapperVersion ?? '',
      dependencies: row.dependencies.map((d) => ({
        sourceRecordId: ids.get(`${d.objectType}:${d.externalId}`) ?? null,
        objectType: d.objectType,
        externalId: d.externalId,
      })),
      mappings: [...row.mappings],
    },
    qualification: qualificationOf(row),
  };
}

/** What was computed when the invoice was mapped (never here): the snapshot's qualification and its cross-invoice findings. */
function qualificationOf(row: InvoiceState): InvoiceDetail['qualification'] {
  if (row.qualification === null || row.invoice === null) return null;
  const context = { ledgerInvoiceId: ledgerInvoiceIdOf(row.ledgerInvoiceId), invoice: row.invoice, mappings: row.mappings };
  // The domain's readonly lists as the contract's plain arrays (the same JSON).
  return withCrossInvoiceRisks(
    qualificationOfStored(row.qualification, context),
    row.crossInvoiceRisks ?? [],
  ) as InvoiceDetail['qualification'];
}

/** Endpoint 9: one visible invoice; missing, malformed and out-of-scope ids answer with one and the same 404. */
export async function getInvoice(storage: Storage, ctx: AuthContext, invoiceId: string, now = new Date()): Promise<InvoiceDetail> {
  const store = storage.store.invoices;
  const row = UUID.test(invoiceId) ? await store.storedInvoiceById(await visibilityOf(store, ctx), invoiceId.toLowerCase()) : undefined;
  if (!row) throw new DomainError('not_found', 'No such invoice');
  return toDetail(store, row, readinessView(row, PaymentProviderSchema.parse(ctx.provider), now));
}

/**
 * Readiness across every payment provider, for operators: ready only when ready
 * for each, with the union of their issues.
 */
function readinessForAll(row: InvoiceState, now: Date): ReadinessView {
  const each = PaymentProviderSchema.options.map((p) => readinessView(row, p, now));
  const seen = new Set<string>();
  const issues = each.flatMap((r) => r.issues).filter((i) => !seen.has(`${i.code}|${i.path}`) && seen.add(`${i.code}|${i.path}`));
  // The least any provider can do: enhanced only when enhanced for all, blocked when blocked for one.
  const modes = each.map((r) => r.checkoutMode);
  const checkoutMode = modes.includes('blocked') ? 'blocked' : modes.includes('ordinary') ? 'ordinary' : 'enhanced';
  return { ...each[0]!, ready: each.every((r) => r.ready), issues, checkoutMode };
}

/** Operator overview (`invoices.list`): one connection's invoices (or all), readiness for one provider or for all. */
export async function listInvoicesForOperator(
  storage: Storage,
  input: {
    connectionId?: string | undefined;
    provider?: PaymentProvider | undefined;
    ready?: boolean | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
  },
  now = new Date(),
) {
  const limit = input.limit ?? INVOICE_PAGE_DEFAULT;
  const binding = bindingOf(`operator:${input.connectionId ?? '*'}`, {});
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor, binding);
  const rows = await storage.store.invoices.listStoredInvoices({
    visibility: undefined,
    connectionId: input.connectionId,
    after,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const summaries = page
    .map((row) => toSummary(row, input.provider ? readinessView(row, input.provider, now) : readinessForAll(row, now)))
    .filter((s) => input.ready === undefined || s.ready === input.ready);
  const last = page.at(-1);
  return {
    invoices: summaries,
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }, binding) : null,
  };
}

/** Operator detail (`invoices.get`). */
export async function getInvoiceForOperator(
  storage: Storage,
  input: { id: string; provider?: PaymentProvider | undefined },
  now = new Date(),
) {
  const store = storage.store.invoices;
  const row = await store.storedInvoiceById(undefined, input.id);
  if (!row) throw new DomainError('not_found', 'No such invoice');
  return toDetail(store, row, input.provider ? readinessView(row, input.provider, now) : readinessForAll(row, now));
}
