import type { Database } from './kysely.js';
import { batched, roundsWithoutSharedKeys, settleInRounds, type Settled } from './sql/batch.js';
import { recordFirstOrFindPrevious } from './sql/payment-reports.sql.js';
import { asKeyTaken } from './stores/key-taken.js';
import type { FirstWrite } from '../domain/payment-reports/record-payment-report.js';
import type { FirstOutcome, FirstReport } from '../domain/payment-reports/types.js';

/**
 * Reports that may share one statement: no two with the same attemptId in one integration and environment
 * (`roundsWithoutSharedKeys`). Reports repeating an eventId already in the batch are not sent at all: they are
 * answered from the first one's outcome.
 */
function plan(reports: FirstReport[]): { sent: number[]; rounds: number[][]; sameEventAs: Map<number, number> } {
  const firstOfEvent = new Map<string, number>();
  const sameEventAs = new Map<number, number>();
  const sent: number[] = [];
  reports.forEach((r, index) => {
    const event = `${r.scope.integrationId}|${r.scope.environment}|${r.observation.eventId}`;
    const earlier = firstOfEvent.get(event);
    if (earlier !== undefined) return void sameEventAs.set(index, earlier);
    firstOfEvent.set(event, index);
    sent.push(index);
  });
  const attemptOf = (i: number) => {
    const r = reports[i]!;
    return [`${r.scope.integrationId}|${r.scope.environment}|${r.attemptId}`];
  };
  return { sent, rounds: roundsWithoutSharedKeys(sent, attemptOf), sameEventAs };
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
    const { sent, rounds, sameEventAs } = plan(reports);
    // `rounds` index `sent`: each round's positions are mapped back to the batch's.
    const outcomes = await settleInRounds(
      sent.map((i) => reports[i]!),
      rounds,
      (some) => recordFirstOrFindPrevious(db, some),
    );
    const settled: Settled<FirstOutcome>[] = new Array(reports.length);
    sent.forEach((i, n) => (settled[i] = outcomes[n]!));
    for (const [index, first] of sameEventAs) settled[index] = afterSameEvent(reports[first]!, settled[first]!);
    return settled;
  });
  return async (report) => {
    const settled = await write(report);
    if (!settled.ok) throw asKeyTaken(settled.error);
    return settled.value;
  };
}
