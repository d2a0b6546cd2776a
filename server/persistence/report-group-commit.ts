import type { Database } from './kysely.js';
import { batched, settleTogetherOrAlone, type Settled } from './sql/batch.js';
import { recordFirstOrFindPrevious } from './sql/payment-reports.sql.js';
import { asKeyTaken } from './stores/key-taken.js';
import type { FirstWrite } from '../domain/payment-reports/record-payment-report.js';
import type { FirstOutcome, FirstReport } from '../domain/payment-reports/types.js';

/**
 * Reports that may share one statement: no two with the same attemptId in one
 * integration and environment. Reports repeating an eventId already in the
 * batch are not sent at all: they are answered from the first one's outcome.
 */
function plan(reports: FirstReport[]): { rounds: number[][]; sameEventAs: Map<number, number> } {
  const rounds: { indexes: number[]; attempts: Set<string> }[] = [];
  const firstOfEvent = new Map<string, number>();
  const sameEventAs = new Map<number, number>();
  reports.forEach((r, index) => {
    const scope = `${r.scope.integrationId}|${r.scope.environment}`;
    const event = `${scope}|${r.observation.eventId}`;
    const earlier = firstOfEvent.get(event);
    if (earlier !== undefined) return void sameEventAs.set(index, earlier);
    firstOfEvent.set(event, index);
    const attempt = `${scope}|${r.attemptId}`;
    let round = rounds.find((candidate) => !candidate.attempts.has(attempt));
    if (!round) rounds.push((round = { indexes: [], attempts: new Set() }));
    round.indexes.push(index);
    round.attempts.add(attempt);
  });
  return { rounds: rounds.map((r) => r.indexes), sameEventAs };
}

/** A report with the eventId of one sent before it sees what that one left: its stored row, or the same outcome. */
function afterSameEvent(first: FirstReport, outcome: Settled<FirstOutcome>): Settled<FirstOutcome> {
  if (!outcome.ok || !outcome.value.inserted) return outcome;
  return { ok: true, value: { previous: { id: first.observation.id, payloadHash: first.observation.payloadHash }, inserted: false } };
}

/**
 * First reports and retries of concurrent requests sent as one multi-row
 * statement (group commit); each caller is answered once the statement that
 * holds its row has committed. When a statement is refused (a unique
 * violation aborts all of it), its reports are sent again one by one, so each
 * gets its own outcome or error, exactly as if it had been alone (a unique violation as the domain's `KeyTaken`).
 */
export function groupCommittedFirstReports(db: Database): FirstWrite {
  const write = batched(async (reports: FirstReport[]): Promise<Settled<FirstOutcome>[]> => {
    const settled: Settled<FirstOutcome>[] = new Array(reports.length);
    const { rounds, sameEventAs } = plan(reports);
    for (const indexes of rounds) {
      const outcomes = await settleTogetherOrAlone(
        indexes.map((i) => reports[i]!),
        (some) => recordFirstOrFindPrevious(db, some),
      );
      indexes.forEach((i, n) => (settled[i] = outcomes[n]!));
    }
    for (const [index, first] of sameEventAs) settled[index] = afterSameEvent(reports[first]!, settled[first]!);
    return settled;
  });
  return async (report) => {
    const settled = await write(report);
    if (!settled.ok) throw asKeyTaken(settled.error);
    return settled.value;
  };
}
