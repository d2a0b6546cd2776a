import type { Database } from './kysely.js';
import { batched, settleTogetherOrAlone, type Settled } from './sql/batch.js';
import { recordDeliveriesAtOnce } from './sql/webhooks.sql.js';
import { asKeyTaken } from './stores/key-taken.js';
import type { AtOnceDelivery, AtOnceOutcome, AtOnceWrite } from '../domain/webhooks/types.js';

/**
 * The keys a delivery recorded at once claims or checks: its two unique identities on its endpoint, its provider
 * payment id, its attempt and its observation's eventId in its integration and environment.
 */
function keysOf(d: AtOnceDelivery): string[] {
  const { event, scope } = d;
  const tenant = `${scope.integrationId}|${scope.environment}`;
  const keys = [`identity|${event.endpointId}|${event.kind}|${event.notificationAt.toISOString()}|${event.subjectId}`];
  if (event.providerEventId !== null) keys.push(`event|${event.endpointId}|${event.providerEventId}`);
  if (d.providerPaymentId !== null) keys.push(`payment|${tenant}|${d.providerPaymentId}`);
  if (d.first) {
    keys.push(`attempt|${tenant}|${d.first.attemptId}`, `observation|${tenant}|${d.first.observation.eventId}`);
    if (d.first.projection.providerPaymentId !== null) keys.push(`payment|${tenant}|${d.first.projection.providerPaymentId}`);
  }
  return keys;
}

/**
 * Deliveries that may share one statement: none shares a key with another (`keysOf`). The statement checks what was
 * there before it, not what it writes itself: two deliveries of one new PaymentIntent in one statement would both
 * insert its payment. A delivery sharing a key with an earlier one goes to a later statement, which sees it.
 */
function rounds(deliveries: AtOnceDelivery[]): number[][] {
  const planned: { indexes: number[]; keys: Set<string> }[] = [];
  deliveries.forEach((d, index) => {
    const keys = keysOf(d);
    let round = planned.find((candidate) => !keys.some((key) => candidate.keys.has(key)));
    if (!round) planned.push((round = { indexes: [], keys: new Set() }));
    round.indexes.push(index);
    for (const key of keys) round.keys.add(key);
  });
  return planned.map((r) => r.indexes);
}

/**
 * Deliveries of concurrent requests recorded at once as one multi-row statement (group commit, `batched`): each
 * caller is answered once the statement that holds its delivery has committed. When a statement is refused (a unique
 * violation aborts all of it), its deliveries are sent again one by one, so each gets its own outcome or error,
 * exactly as if it had been alone (a unique violation as the domain's `KeyTaken`).
 */
export function groupCommittedDeliveries(db: Database): AtOnceWrite {
  const write = batched(async (deliveries: AtOnceDelivery[]): Promise<Settled<AtOnceOutcome>[]> => {
    const settled: Settled<AtOnceOutcome>[] = new Array(deliveries.length);
    for (const indexes of rounds(deliveries)) {
      const outcomes = await settleTogetherOrAlone(
        indexes.map((i) => deliveries[i]!),
        (some) => recordDeliveriesAtOnce(db, some),
      );
      indexes.forEach((i, n) => (settled[i] = outcomes[n]!));
    }
    return settled;
  });
  return async (delivery) => {
    const settled = await write(delivery);
    if (!settled.ok) throw asKeyTaken(settled.error);
    return settled.value;
  };
}
