import { z } from 'zod';
import { ReportStatusSchema } from '../../contract/payment-reports.js';
import { getPayment, listCorrelationExceptions, listPayments } from '../../server/domain/payment-reports/payment-queries.js';
import { operatorProcedure, router } from '../trpc.js';

const page = { cursor: z.string().min(1).max(200).optional(), limit: z.number().int().min(1).max(100).default(25) };

export const paymentsRouter = router({
  list: operatorProcedure
    .input(
      z
        .object({ integrationId: z.string().uuid().optional(), status: ReportStatusSchema.optional(), ...page })
        .strict()
        .default({}),
    )
    .query(({ ctx, input }) => listPayments(ctx.uow, input)),
  get: operatorProcedure.input(z.object({ id: z.string().uuid() }).strict()).query(({ ctx, input }) => getPayment(ctx.uow, input)),
});

export const correlationExceptionsRouter = router({
  list: operatorProcedure
    .input(
      z
        .object({
          organizationId: z.string().uuid().optional(),
          kind: z.enum(['amount_mismatch', 'currency_mismatch']).optional(),
          ...page,
        })
        .strict()
        .default({}),
    )
    .query(({ ctx, input }) => listCorrelationExceptions(ctx.uow, input)),
});
