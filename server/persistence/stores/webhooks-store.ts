import type { WebhookStore } from '../../domain/webhooks/ports.js';
import type { Database } from '../kysely.js';
import * as sql from '../sql/webhooks.sql.js';
import { claimingKeys } from './key-taken.js';

export function webhooksStore(db: Database): WebhookStore {
  return {
    findEndpointForDelivery: (id) => sql.findEndpointForDelivery(db, id),
    claimEvent: (scope, event, providerPaymentId) => sql.claimEvent(db, scope, event, providerPaymentId),
    recordDeliveryAtOnce: async (delivery) => (await claimingKeys(sql.recordDeliveriesAtOnce(db, [delivery])))[0]!,
    findEventStatus: (identity) => sql.findEventStatus(db, identity),
    setEventOutcome: (id, outcome) => sql.setEventOutcome(db, id, outcome),
    noteRefusal: (endpointId, refusal) => sql.noteRefusal(db, endpointId, refusal),
    integrationForEndpoint: (integrationId) => sql.integrationForEndpoint(db, integrationId),
    insertEndpoint: (endpoint) => sql.insertEndpoint(db, endpoint),
    endpointById: (id) => sql.endpointById(db, id),
    lockEndpoint: (id) => sql.lockEndpoint(db, id),
    listEndpoints: (input) => sql.listEndpoints(db, input),
    endpointsOfIntegrations: (integrationIds) => sql.endpointsOfIntegrations(db, integrationIds),
    setEndpointStatus: (id, change) => sql.setEndpointStatus(db, id, change),
    setEndpointCredentials: (id, credentials) => sql.setEndpointCredentials(db, id, credentials),
    deliveryStatusOf: (endpointIds) => sql.deliveryStatusOf(db, endpointIds),
    listWebhookEvents: (input) => sql.listWebhookEvents(db, input),
    unconfirmedGwcPreparations: (input) => sql.unconfirmedGwcPreparations(db, input),
  };
}
