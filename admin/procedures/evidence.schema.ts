import { z } from 'zod';
import { QualificationLevelSchema } from '../../contract/invoices.js';
import { EVIDENCE_STATES } from '../../server/domain/evidence/evidence-state.js';

/** Where the CSV of `evidence.export` downloads from (a plain GET: tRPC answers one JSON value, docs/evidence.md). */
export const EVIDENCE_EXPORT_PATH = '/admin/evidence/export.csv';

const id = z.string().uuid();
/** An instant with its offset; the range is half-open, `[from, to)`, on when the preparation was saved (docs/evidence.md). */
const Instant = z
  .string()
  .datetime({ offset: true })
  // PostgreSQL has no year 0 and JavaScript dates end at +275760: both ends are kept far inside.
  .refine((v) => {
    const at = Date.parse(v);
    // Text that is no instant at all has its issue from `datetime` already.
    return Number.isNaN(at) || (at >= 0 && at < Date.UTC(10000, 0, 1));
  }, 'An instant from 1970 to 9999');

/** The filters of every read over saved preparations (evidence.*, qualification.*). */
export const filters = {
  organizationId: id.optional(),
  integrationId: id.optional(),
  from: Instant,
  to: Instant,
};
// Written so an invalid instant (NaN) is not also reported as out of order: its own issue is the one that helps.
export const ordered = <T extends { from: string; to: string }>(v: T) => !(Date.parse(v.from) >= Date.parse(v.to));
export const orderedIssue = { message: 'to must be later than from', path: ['to'] };

/** Preparations by the qualification level their output had when saved; `not_assessed`: saved without one. */
const level = z.enum([...QualificationLevelSchema.options, 'not_assessed']).optional();

export const EvidenceSummaryInput = z.object(filters).strict().refine(ordered, orderedIssue);
export const EvidenceExportInput = z
  .object({ ...filters, state: z.enum(EVIDENCE_STATES).optional(), level })
  .strict()
  .refine(ordered, orderedIssue);
export const EvidenceListInput = z
  .object({
    ...filters,
    state: z.enum(EVIDENCE_STATES).optional(),
    level,
    cursor: z.string().min(1).max(512).optional(),
    limit: z.number().int().min(1).max(200).optional(),
  })
  .strict()
  .refine(ordered, orderedIssue);
