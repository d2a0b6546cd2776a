import { qualificationFixes, qualificationSummary } from '../../server/domain/qualification/operator-figures.js';
import { operatorProcedure, router } from '../trpc.js';
import { QualificationFixesInput, QualificationSummaryInput } from './qualification.schema.js';

/** Network qualification for operators (docs/network-qualification.md, "Where it shows"): levels per month and the fixes that lift them. */
export const qualificationRouter = router({
  summary: operatorProcedure.input(QualificationSummaryInput).query(({ ctx, input }) => qualificationSummary(ctx.uow, input)),
  fixes: operatorProcedure.input(QualificationFixesInput).query(({ ctx, input }) => qualificationFixes(ctx.uow, input)),
});
