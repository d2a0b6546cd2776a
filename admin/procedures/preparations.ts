import { z } from 'zod';
import { getPreparationForOperator, listPreparationsForOperator } from '../../server/domain/preparations/preparation-queries.js';
import { listUnconfirmedPreparations } from '../../server/domain/webhooks/gwc/unconfirmed.js';
import { operatorProcedure, router } from '../trpc.js';

/** Saved invoice-backed preparations, for operators (docs/decisions.md, "Invoice-backed preparation"). */
export const preparationsRouter = router({
  list: operatorProcedure
    .input(
      z
        .object({
          invoiceId: z.string().uuid().optional(),
          integrationId: z.string().uuid().optional(),
          cursor: z.string().min(1).max(512).optional(),
          limit: z.number().int().min(1).max(100).optional(),
        })
        .strict()
        .default({}),
    )
    .query(({ ctx, input }) => listPreparationsForOperator(ctx.uow, input)),
  get: operatorProcedure
    .input(z.object({ id: z.string().uuid() }).strict())
    .query(({ ctx, input }) => getPreparationForOperator(ctx.uow, input)),
  /** gwc preparations with no provider-verified capture yet, with the endpoint checks to review (docs/gwc-events.md). */
  unconfirmed: operatorProcedure
    .input(
      z
        .object({
          integrationId: z.string().uuid().optional(),
          olderThanHours: z
            .number()
            .int()
            .min(0)
            .max(24 * 366)
            .optional(),
        })
        .strict()
        .default({}),
    )
    .query(({ ctx, input }) => listUnconfirmedPreparations(ctx.uow, ctx.webhooks, input)),
});
