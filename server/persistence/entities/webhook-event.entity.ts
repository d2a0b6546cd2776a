import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantScope } from './tenant-scope.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

/**
 * One provider delivery (a gwa notification or a gwc event), recorded once: unique by endpoint, kind, provider
 * timestamp and subject id (`subjectId` is empty when the subject has none).
 * Stored in the same transaction as its payment observation. `subject` holds
 * only the fields the service reads, never the raw document (docs/decisions.md,
 * "gwa webhook").
 */
export const WebhookEvent = defineEntity({
  name: 'WebhookEvent',
  tableName: 'webhook_events',
  properties: {
    ...tenantScope(),
    endpoint: () => p.manyToOne(WebhookEndpoint),
    kind: p.string().length(80),
    notificationAt: p.datetime(),
    subjectType: p.string().length(80),
    subjectId: p.string().length(160),
    /** The provider's own event id where it has one (gwc `evt_…`): unique per endpoint. */
    providerEventId: p.string().length(160).nullable(),
    status: p.string().length(32),
    subject: p.json<Record<string, unknown>>(),
    issues: p.json<Record<string, unknown>[]>().nullable(),
    observationId: p.uuid().nullable(),
    trackedPaymentId: p.uuid().nullable(),
    requestId: p.string().length(64),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [
    {
      properties: ['endpoint', 'kind', 'notificationAt', 'subjectId'],
      name: 'webhook_events_endpoint_id_kind_notification_at_s_3a0c8_unique',
    },
    { properties: ['endpoint', 'providerEventId'] },
  ],
  indexes: [{ properties: ['createdAt', 'id'] }],
});
export type WebhookEvent = InferEntity<typeof WebhookEvent>;
