import {
  changeConnection,
  configureConnectionSettings,
  failSyncRun,
  getSyncRunView,
  listConnectionViews,
  listInvitationViews,
  listSyncRunViews,
} from '../../server/domain/ledger/admin-views.js';
import { operatorProcedure, router } from '../trpc.js';
import { createInvitationForKey, queueSyncForConnection } from '../../server/domain/ledger/operator-actions.js';
import {
  ConnectionIdInput,
  ConnectionSyncInput,
  InvitationCreateInput,
  ConnectionsListInput,
  InvitationsListInput,
  SyncRunFailInput,
  SyncRunGetInput,
  SyncRunsListInput,
} from './ledger.schema.js';
import { ConnectionConfigureInput } from './invoices.schema.js';

/** Accounting-source connections: list, configure (PO field), sync (queue a run), pause, resume, disconnect (revokes the tokens at the provider; tokens are never shown). */
export const connectionsRouter = router({
  list: operatorProcedure.input(ConnectionsListInput).query(({ ctx, input }) => listConnectionViews(ctx.uow, input ?? {})),
  pause: operatorProcedure.input(ConnectionIdInput).mutation(({ ctx, input }) => changeConnection(ctx.uow, { ...input, action: 'pause' })),
  resume: operatorProcedure
    .input(ConnectionIdInput)
    .mutation(({ ctx, input }) => changeConnection(ctx.uow, { ...input, action: 'resume' })),
  configure: operatorProcedure.input(ConnectionConfigureInput).mutation(({ ctx, input }) => configureConnectionSettings(ctx.uow, input)),
  disconnect: operatorProcedure
    .input(ConnectionIdInput)
    .mutation(({ ctx, input }) =>
      changeConnection(ctx.uow, { ...input, action: 'disconnect' }, { runtime: ctx.ledger, logger: ctx.logger }),
    ),
  sync: operatorProcedure.input(ConnectionSyncInput).mutation(({ ctx, input }) => queueSyncForConnection(ctx.uow, ctx.ledger, input)),
});

/** Sync runs, newest first, with a cursor; `fail` ends a queued or running run (docs/ledger-sync.md). */
export const syncRunsRouter = router({
  list: operatorProcedure.input(SyncRunsListInput).query(({ ctx, input }) =>
    listSyncRunViews(ctx.uow, {
      state: input?.state,
      cursor: input?.cursor,
      limit: input?.limit,
      realmId: input?.connectionId,
    }),
  ),
  get: operatorProcedure.input(SyncRunGetInput).query(({ ctx, input }) => getSyncRunView(ctx.uow, input)),
  fail: operatorProcedure.input(SyncRunFailInput).mutation(({ ctx, input }) => failSyncRun(ctx.uow, input)),
});

export const invitationsRouter = router({
  create: operatorProcedure.input(InvitationCreateInput).mutation(({ ctx, input }) => createInvitationForKey(ctx.uow, ctx.ledger, input)),
  list: operatorProcedure.input(InvitationsListInput).query(({ ctx, input }) => listInvitationViews(ctx.uow, input ?? {})),
});
