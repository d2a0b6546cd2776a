import type { Environment, Provider, Scope } from '../../../contract/common/index.js';

/**
 * An API key with everything a verdict needs (its integration, organization status and ledger link), as
 * authentication reads it by prefix and caches it per auth epoch (key-directory.ts).
 */
export interface KeyRecord {
  readonly id: string;
  readonly secretHash: string;
  readonly scopes: readonly Scope[];
  readonly revokedAt: Date | null;
  /** Written back by `touch`: the cached copy is shared, so later requests see the new last use and skip the write. */
  lastUsedAt: Date | null;
  readonly integrationId: string;
  readonly organizationId: string;
  readonly provider: Provider;
  readonly environment: Environment;
  readonly organizationStatus: 'active' | 'inactive';
  /** Whether the key's integration is linked to an accounting source (what `invoices:read` needs). */
  readonly linked: boolean;
}
