import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantScope } from './tenant-scope.js';

export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/**
 * A provider webhook endpoint (gwa or gwc): the URL a merchant configures at the
 * provider, and the secret its deliveries are verified with: the gwa key pair
 * (`publicKey` + private key) or the gwc signing secret (no public part). Secrets
 * are stored AES-256-GCM encrypted in `privateKeyEnc`, bound to this row
 * (server/crypto/token-cipher.ts), and never leave the service. After a rotation
 * the previous secret is accepted until `previousValidUntil` (docs/decisions.md,
 * "gwa webhook", "gwc provider events").
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
    /** The last delivery refused (400), and why, for the operator reviewing a missing confirmation; never secret material. */
    lastRefusalAt: p.datetime().nullable(),
    lastRefusalCode: p.string().length(40).nullable(),
    lastRefusalMessage: p.string().length(200).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['integration', 'createdAt'] }],
});
export type WebhookEndpoint = InferEntity<typeof WebhookEndpoint>;
