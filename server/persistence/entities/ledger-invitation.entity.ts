import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantScope } from './tenant-scope.js';

/**
 * An invitation to connect the accounting source (spec endpoint 14). Only
 * SHA-256 hashes of the connect-URL secret and of the OAuth `state` are stored.
 * `status`: pending (written, email not yet delivered) → sent → consumed, or
 * failed when delivery failed (never usable).
 */
export const LedgerInvitation = defineEntity({
  name: 'LedgerInvitation',
  tableName: 'ledger_invitations',
  properties: {
    ...tenantScope(),
    recipientEmail: p.string().length(254),
    secretHash: p.string().length(64).unique(),
    status: p.enum(['pending', 'sent', 'failed', 'consumed']).default('pending'),
    expiresAt: p.datetime(),
    stateHash: p.string().length(64).nullable().unique(),
    stateExpiresAt: p.datetime().nullable(),
    realmId: p.string().length(160).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    sentAt: p.datetime().nullable(),
    consumedAt: p.datetime().nullable(),
    /** The API key that created it (the hourly per-key limit counts these); null on rows from before the limit. */
    apiKeyId: p.uuid().nullable(),
  },
  indexes: [
    { properties: ['integration', 'recipientEmail', 'createdAt'], name: 'ledger_invitations_integration_id_recipient_email__9c08f_index' },
    { properties: ['apiKeyId', 'createdAt'] },
  ],
});
export type LedgerInvitation = InferEntity<typeof LedgerInvitation>;
