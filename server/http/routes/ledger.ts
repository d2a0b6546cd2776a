import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { contract } from '../../../contract/index.js';
import { createInvitation } from '../../domain/ledger/create-invitation.js';
import { getLatestSyncRun, queueSync } from '../../domain/ledger/queue-sync.js';
import type { LedgerRuntime } from '../../integrations/ledger/runtime.js';
import { DomainError } from '../../domain/errors.js';
import { authOf } from '../auth-of.js';

const s = initServer();

function required(runtime: LedgerRuntime | undefined): LedgerRuntime {
  // Spec endpoint 14: configuration failures are 500.
  if (!runtime) throw new DomainError('internal_error', 'The accounting source is not configured on this service');
  return runtime;
}

/** Endpoints 14-16: invitations, sync queue and sync status. */
export const ledgerHandlers = (runtime: LedgerRuntime | undefined) => ({
  createInvitation: s.route(
    contract.ledger.createInvitation,
    async ({ body, req }: { body: Parameters<typeof createInvitation>[2]['body']; req: Request }) => {
      const invitation = await createInvitation(req.storage, required(runtime), { ctx: authOf(req), body });
      return { status: 201 as const, body: { object: 'ledger.connection_invitation' as const, invitation } };
    },
  ),
  queueSync: s.route(contract.ledger.queueSync, async ({ params, body, req }) => {
    const data = await queueSync(req.storage, required(runtime), {
      ctx: authOf(req),
      realmId: params.connectionId,
      fullReconciliation: body.fullReconciliation ?? false,
    });
    return { status: 202 as const, body: { object: 'ledger.sync_run' as const, data } };
  }),
  getSync: s.route(contract.ledger.getSync, async ({ params, req }) => {
    const data = await getLatestSyncRun(req.storage, { ctx: authOf(req), realmId: params.connectionId });
    return { status: 200 as const, body: { object: 'ledger.sync_run' as const, data } };
  }),
});
