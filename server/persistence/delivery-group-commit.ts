import type { Database } from './kysely.js';
import { batched, roundsWithoutSharedKeys, settleInRounds } from './sql/batch.js';
import { recordDeliveriesAtOnce } from './sql/webhooks.sql.js';
import { asKeyTaken } from './stores/key-taken.js';
import type { AtOnceDelivery, AtOnceWrite } from '../domain/webhooks/types.js';

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
 * Deliveries of concurrent requests recorded at once as one multi-row statement (group commit, `batched`): each
 * caller is answered once the statement that holds its delivery has committed. When a statement is refused (a unique
 * violation aborts all of it), its deliveries are sent again one by one, so each gets its own outcome or error,
 * exactly as if it had been alone (a unique violation as the domain's `KeyTaken`).
 */
export function groupCommittedDeliveries(db: Database): AtOnceWrite {
  const write = batched((deliveries: AtOnceDelivery[]) =>
    settleInRounds(deliveries, roundsWithoutSharedKeys(deliveries, keysOf), (some) => recordDeliveriesAtOnce(db, some)),
  );
  return async (delivery) => {
    const settled = await write(delivery);
    if (!settled.ok) throw asKeyTaken(settled.error);
    return settled.value;
  };
}
