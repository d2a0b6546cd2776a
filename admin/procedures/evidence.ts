import { evidenceExportLink, evidenceSummary, listEvidence } from '../../server/domain/evidence/evidence-queries.js';
import { operatorProcedure, router } from '../trpc.js';
import { EVIDENCE_EXPORT_PATH, EvidenceExportInput, EvidenceListInput, EvidenceSummaryInput } from './evidence.schema.js';

/** The evidence ledger (docs/evidence.md): which preparations earned verified evidence, per month, with their chains. */
export const evidenceRouter = router({
  summary: operatorProcedure.input(EvidenceSummaryInput).query(({ ctx, input }) => evidenceSummary(ctx.uow.store.evidence, input)),
  list: operatorProcedure.input(EvidenceListInput).query(({ ctx, input }) => listEvidence(ctx.uow.store.evidence, input)),
  /**
   * tRPC answers one JSON value, so the CSV itself streams from a plain GET route with the same admin token; this
   * checks the filters and says where to fetch it.
   */
  export: operatorProcedure
    .input(EvidenceExportInput)
    .query(({ ctx, input }) => evidenceExportLink(ctx.uow.store.evidence, input, EVIDENCE_EXPORT_PATH)),
});
