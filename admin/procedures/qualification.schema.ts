import { z } from 'zod';
import { filters, ordered, orderedIssue } from './evidence.schema.js';

/** The same filters as the evidence ledger's (docs/evidence.md, "Months and ranges"): `[from, to)` on when preparations were saved. */
export const QualificationSummaryInput = z.object(filters).strict().refine(ordered, orderedIssue);
export const QualificationFixesInput = z
  .object({ ...filters, limit: z.number().int().min(1).max(100).optional() })
  .strict()
  .refine(ordered, orderedIssue);
