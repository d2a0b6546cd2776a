import { batched } from '../../persistence/sql/batch.js';
import { recordFirstOrFindPrevious, type FirstOutcome, type FirstReport } from '../../persistence/sql/payment-reports.sql.js';
import type { Sql } from '../../persistence/sql/sql.js';
import type { FirstWrite } from './record-payment-report.js';

type Settled = { ok: true; outcome: FirstOutcome } | { ok: false; error: unknown };

/** Reports that may share one statement: no two with the same eventId or attemptId in one integration and environment. */
function rounds(reports: FirstReport[]): number[][] {
  const out: { indexes: number[]; keys: Set<string> }[] = [];
  reports.forEach((r, index) => {
    const scope = `${r.scope.integrationId}|${r.scope.environment}`;
    const keys = [`${scope}|event|${r.observation.eventId}`, `${scope}|attempt|${r.attemptId}`];
    let round = out.find((candidate) => keys.every((k) => !candidate.keys.has(k)));
    if (!round) out.push((round = { indexes: [], keys: new Set() }));
    round.indexes.push(index);
    keys.forEach((k) => round.keys.add(k));
  });
  return out.map((r) => r.indexes);
}

/**
 * First reports and retries of concurrent requests sent as one multi-row
 * statement (group commit); each caller is answered once the statement that
 * holds its row has committed. When a statement is refused (a unique
 * violation aborts all of it), its reports are sent again one by one, so each
 * gets its own outcome or error, exactly as if it had been alone.
 */
export function groupCommittedFirstReports(sql: Sql): FirstWrite {
  const write = batched(async (reports: FirstReport[]): Promise<Settled[]> => {
    const settled: Settled[] = new Array(reports.length);
    for (const indexes of rounds(reports)) {
      try {
        const outcomes = await recordFirstOrFindPrevious(
          sql,
          indexes.map((i) => reports[i]!),
        );
        indexes.forEach((i, n) => (settled[i] = { ok: true, outcome: outcomes[n]! }));
      } catch {
        for (const i of indexes) {
          try {
            settled[i] = { ok: true, outcome: (await recordFirstOrFindPrevious(sql, [reports[i]!]))[0]! };
          } catch (error) {
            settled[i] = { ok: false, error };
          }
        }
      }
    }
    return settled;
  });
  return async (report) => {
    const result = await write(report);
    if (!result.ok) throw result.error;
    return result.outcome;
  };
}
