import { Router, type Response } from 'express';
import { evidenceCsv, evidenceTargetsExist } from '../server/domain/evidence/evidence-queries.js';
import type { EvidenceStore } from '../server/domain/evidence/ports.js';
import type { UnitOfWork } from '../server/domain/unit-of-work.js';
import { issuesFromZodError } from '../server/domain/zod-issues.js';
import type { Logger } from '../server/logger.js';
import { isAdminAuthorized } from './context.js';
import { EVIDENCE_EXPORT_PATH, EvidenceExportInput } from './procedures/evidence.schema.js';

/**
 * `evidence.export` as a download: the CSV streamed batch by batch, each written only once the socket took the
 * previous one, so memory stays flat for any range (docs/evidence.md). Same token as /admin/trpc; filters in the
 * query string, checked by the procedure's schema.
 */
export function evidenceExportRoute(storage: UnitOfWork<{ evidence: EvidenceStore }>, adminToken: string, logger: Logger): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.get(EVIDENCE_EXPORT_PATH, async (req, res) => {
    res.set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    if (!isAdminAuthorized(req.headers.authorization, adminToken)) {
      return res.status(401).json({ error: { type: 'authentication_error', message: 'Send Authorization: Bearer <SVC_ADMIN_TOKEN>' } });
    }
    const parsed = EvidenceExportInput.safeParse(req.query);
    if (!parsed.success) {
      return res
        .status(400)
        .json({ error: { type: 'validation_error', message: 'Invalid input', issues: issuesFromZodError(parsed.error) } });
    }
    const input = parsed.data;
    // On the pool, outside any transaction: a download streams for as long as it takes without holding a connection.
    const store = storage.store.evidence;
    if (!(await evidenceTargetsExist(store, input))) {
      return res.status(404).json({ error: { type: 'not_found', message: 'No such organization or integration' } });
    }
    const name = `evidence-${input.from.slice(0, 10)}-${input.to.slice(0, 10)}.csv`;
    res.status(200).set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"` });
    let aborted = false;
    res.on('close', () => (aborted = !res.writableFinished));
    try {
      for await (const chunk of evidenceCsv(store, input)) {
        if (aborted) return;
        if (!res.write(chunk)) await drained(res);
      }
      res.end();
    } catch (err) {
      // Headers are gone: the client sees a cut-off download (no final CRLF-terminated record count guarantee), the log says why.
      logger.error({ err, reqId: req.id }, 'evidence export failed');
      res.destroy(err as Error);
    }
  });
  return router;
}

/** Until the socket took what was written, or went away; both listeners are removed either way (one wait per batch). */
function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
