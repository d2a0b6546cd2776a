import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantScope } from './tenant-scope.js';

export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/**
 * A gwa webhook endpoint: the URL a merchant configures at the provider, and the
 * key pair its deliveries are verified with. Private keys are stored AES-256-GCM
 * encrypted, bound to this row (server/crypto/token-cipher.ts), and never leave
 * the service. After a rotation the previous pair is accepted until
 * `previousValidUntil` (docs/decisions.md, "gwa webhook").
 */
export const WebhookEndpoint = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  properties: {
    ...tenantScope(),
    status: p.enum([...WEBHOOK_ENDPOINT_STATUSES]).default('active'),
    publicKey: p.string().length(64).nullable(),
    privateKeyEnc: p.text().nullable(),
    previousPublicKey: p.string().length(64).nullable(),
    previousPrivateKeyEnc: p.text().nullable(),
    previousValidUntil: p.datetime().nullable(),
    credentialsUpdatedAt: p.datetime().nullable(),
    disabledAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['integration', 'createdAt'] }],
});
export type WebhookEndpoint = InferEntity<typeof WebhookEndpoint>;
