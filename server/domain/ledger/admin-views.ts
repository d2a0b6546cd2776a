import { DomainError } from '../errors.js';
import type { Logger } from '../../logger.js';
import type { InvoicePageStore } from '../invoices/ports-import.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { LedgerPorts, LedgerStore } from './ports.js';
import { LedgerHttpError } from './provider-errors.js';
import { mapAndStoreInvoices } from '../invoices/store-invoices.js';
import { toSyncRunView } from './sync-run-view.js';
import { decodeCursor, encodeCursor } from '../pagination.js';
import { isoTimestamp } from '../timestamps.js';
import type { LedgerConnection } from './types.js';
import type { SyncState } from '../../../contract/common/index.js';

type Storage = UnitOfWork<{ ledger: LedgerStore }>;

/** Operator view of a connection: never tokens. */
export const toConnectionView = (c: LedgerConnection) => ({
  id: c.id,
  connectionId: c.realmId,
  organizationId: c.organizationId,
  integrationId: c.integrationId,
  environment: c.environment,
  status: c.status,
  checkedThrough: isoTimestamp(c.checkedThrough),
  purchaseOrderField: c.purchaseOrderField,
  settingsVersion: c.settingsVersion,
  createdAt: isoTimestamp(c.createdAt),
  updatedAt: isoTimestamp(c.updatedAt),
});

/** Default page of `connections.list`: an operator list is bounded even when no limit is given. */
const DEFAULT_CONNECTIONS_LIMIT = 100;

export async function listConnectionViews(storage: Storage, input: { integrationId?: string | undefined; limit?: number | undefined }) {
  const limit = input.limit ?? DEFAULT_CONNECTIONS_LIMIT;
  const filter = input.integrationId ? { integrationId: input.integrationId, limit } : { limit };
  return (await storage.store.ledger.listConnections(filter)).map(toConnectionView);
}

/**
 * Operator moves of a connection: pause (active → paused), resume (paused →
 * active; disconnected → active only once a new consent stored tokens again),
 * disconnect (any → disconnected; tokens are erased, then revoked at the provider).
 * The disconnect is committed before the provider is called, and no transaction
 * stays open across that call: a failed revoke is logged (without secrets) and
 * never leaves the connection connected.
 */
export async function changeConnection(
  storage: Storage,
  input: { id: string; action: 'pause' | 'resume' | 'disconnect' },
  deps: { runtime?: LedgerPorts | undefined; logger?: Logger | undefined } = {},
) {
  let revoke: { refreshEnc: string } | undefined;
  const view = await storage.transaction(async ({ ledger }) => {
    const c = await ledger.connectionById(input.id, true);
    if (!c) throw new DomainError('not_found', 'No such connection');
    if (input.action === 'pause') {
      if (c.status !== 'active' && c.status !== 'paused') throw new DomainError('conflict', `A ${c.status} connection cannot be paused`);
      await ledger.setConnectionStatus(c.id, 'paused');
    } else if (input.action === 'resume') {
      // A disconnected connection has no tokens until a new consent stores some (that consent leaves it disconnected).
      const reconnected = c.status === 'disconnected' && c.refreshTokenEnc !== '';
      if (c.status !== 'paused' && c.status !== 'active' && !reconnected) {
        throw new DomainError('conflict', `A ${c.status} connection must be reconnected through a new invitation, not resumed`);
      }
      await ledger.setConnectionStatus(c.id, 'active');
    } else {
      if (c.refreshTokenEnc) revoke = { refreshEnc: c.refreshTokenEnc };
      await ledger.disconnectConnection(c.id);
    }
    return toConnectionView((await ledger.connectionById(c.id))!);
  });
  if (revoke && deps.runtime) await revokeStoredToken(deps.runtime, input.id, revoke.refreshEnc, deps.logger);
  return view;
}

/** Revoke a disconnected connection's refresh token (its whole grant) at the provider; failures are logged, never thrown. */
async function revokeStoredToken(
  runtime: LedgerPorts,
  connectionId: string,
  refreshEnc: string,
  logger: Logger | undefined,
): Promise<void> {
  try {
    await runtime.client.revokeToken(runtime.cipher.decrypt(refreshEnc, connectionId));
    logger?.info({ connectionId }, 'ledger tokens revoked after disconnect');
  } catch (err) {
    // Only the status and fault code (LedgerHttpError.summary) — never the token or the provider's body.
    const reason = err instanceof LedgerHttpError ? err.summary : 'the stored token could not be decrypted';
    logger?.warn({ connectionId, reason }, 'ledger token revoke failed; the connection is disconnected and its tokens erased here');
  }
}

export async function listSyncRunViews(
  storage: Storage,
  input: { realmId?: string | undefined; state?: string | undefined; cursor?: string | undefined; limit?: number | undefined },
) {
  const limit = input.limit ?? 25;
  const rows = await storage.store.ledger.listRuns({
    ...(input.realmId ? { realmId: input.realmId } : {}),
    ...(input.state ? { state: input.state as SyncState } : {}),
    ...(input.cursor ? { before: decodeCursor(input.cursor) } : {}),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  return {
    data: page.map(toSyncRunView),
    nextCursor: rows.length > limit ? encodeCursor({ createdAt: page.at(-1)!.createdAt, id: page.at(-1)!.id }) : null,
  };
}

export async function getSyncRunView(storage: Storage, input: { id: string }) {
  const row = await storage.store.ledger.runById(input.id);
  if (!row) throw new DomainError('not_found', 'No such sync run');
  return toSyncRunView(row);
}

/**
 * Operator procedure `syncRuns.fail`: a queued or running run becomes failed
 * (`failed_by_operator`), so the next sync request queues a new one. An attempt
 * still working on it sees the change before its next provider call and stops
 * without writing (docs/ledger-sync.md). Final runs answer 409.
 */
export async function failSyncRun(storage: Storage, input: { id: string }) {
  return storage.transaction(async ({ ledger }) => {
    const run = await ledger.runById(input.id, true);
    if (!run) throw new DomainError('not_found', 'No such sync run');
    if (run.state !== 'queued' && run.state !== 'running')
      throw new DomainError('conflict', `A ${run.state} run is final and cannot be failed`);
    await ledger.finishRun(run.id, 'failed', { code: 'failed_by_operator', message: 'An operator failed the run' }, new Date());
    return toSyncRunView((await ledger.runById(run.id))!);
  });
}

/** Operator view of invitations: never the connect secret or any hash. */
export async function listInvitationViews(storage: Storage, input: { integrationId?: string | undefined; limit?: number | undefined }) {
  const rows = await storage.store.ledger.listInvitations({
    ...(input.integrationId ? { integrationId: input.integrationId } : {}),
    limit: input.limit ?? 50,
  });
  return rows.map((r) => ({
    id: r.id,
    organizationId: r.organizationId,
    integrationId: r.integrationId,
    environment: r.environment,
    recipientEmail: r.recipientEmail,
    status: r.status,
    connectionId: r.realmId,
    expiresAt: isoTimestamp(r.expiresAt),
    createdAt: isoTimestamp(r.createdAt),
    sentAt: isoTimestamp(r.sentAt),
    consumedAt: isoTimestamp(r.consumedAt),
  }));
}

/**
 * Operator settings of a connection: `purchaseOrderField` names the invoice custom
 * field (by its label) that holds the buyer's PO; null reads no PO at all (a PO is
 * never guessed from other fields).
 */
export async function configureConnectionSettings(
  storage: UnitOfWork<{ ledger: LedgerStore; invoicePages: InvoicePageStore }>,
  input: { id: string; purchaseOrderField: string | null },
) {
  return storage.transaction(async (store) => {
    const { ledger } = store;
    if (!(await ledger.connectionById(input.id, true))) throw new DomainError('not_found', 'No such connection');
    if (await ledger.configureConnection(input.id, { purchaseOrderField: input.purchaseOrderField })) {
      // Every invoice of the connection was mapped under the old settings: new revisions at once.
      await mapAndStoreInvoices(store, { connection: (await ledger.connectionById(input.id))!, now: new Date() });
    }
    return toConnectionView((await ledger.connectionById(input.id))!);
  });
}
