import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ConnectionStatusSchema, type ConnectionStatus } from '../../../contract/common/index.js';
import { tenantScope } from './tenant-scope.js';

export const CONNECTION_STATUSES = ConnectionStatusSchema.options;
export type { ConnectionStatus };

/**
 * An authorized company at the accounting source for one ledger integration.
 * `realmId` (the provider's company id) is the public `connectionId`. Tokens are stored
 * AES-256-GCM encrypted (server/crypto/token-cipher.ts) and never leave
 * the service. `checkedThrough` is the source boundary the last completed sync reached.
 */
export const LedgerConnection = defineEntity({
  name: 'LedgerConnection',
  tableName: 'ledger_connections',
  properties: {
    ...tenantScope(),
    /** The provider's company id (realmId); the public `connectionId`. */
    realmId: p.string().length(160),
    companyName: p.string().length(200).nullable(),
    status: p.enum([...CONNECTION_STATUSES]).default('active'),
    accessTokenEnc: p.text(),
    refreshTokenEnc: p.text(),
    accessTokenExpiresAt: p.datetime(),
    refreshTokenExpiresAt: p.datetime().nullable(),
    checkedThrough: p.datetime().nullable(),
    /** Label of the invoice custom field that holds the buyer's PO (operator setting); null: no PO is read. */
    purchaseOrderField: p.string().length(100).nullable(),
    /** Bumped by every settings change, so invoice revisions change with the settings they were mapped under. */
    settingsVersion: p.integer().default(1),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['integration', 'realmId'] }],
});
export type LedgerConnection = InferEntity<typeof LedgerConnection>;
