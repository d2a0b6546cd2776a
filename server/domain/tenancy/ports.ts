import type { ApiKey, Integration, IntegrationLink, Organization } from './types.js';

/** What the tenancy use cases need from storage; server/persistence/stores/tenancy-store.ts implements it. */
export interface TenancyStore {
  insertOrganization(organization: Organization): Promise<Organization>;
  organizationById(id: string): Promise<Organization | undefined>;
  listOrganizations(): Promise<Organization[]>;

  insertIntegration(integration: Integration): Promise<Integration>;
  integrationById(id: string): Promise<Integration | undefined>;
  /** An organization's integrations, oldest first. */
  integrationsOfOrganization(organizationId: string): Promise<Integration[]>;

  /** Store a link, or `'exists'` when the pair is linked already (the database's unique constraint decides). */
  insertLink(link: IntegrationLink): Promise<IntegrationLink | 'exists'>;
  /** Whether the link with this id existed (and is now gone). */
  deleteLink(id: string): Promise<boolean>;
  /** Whether a payment-provider integration is linked to a ledger integration (what `invoices:read` needs). */
  isLinked(providerIntegrationId: string): Promise<boolean>;
  /** Links, oldest first; either side's integration, or the organization of the ledger side, narrows the list. */
  listLinks(filter: { organizationId?: string | undefined; integrationId?: string | undefined }): Promise<IntegrationLink[]>;

  /** Store a new key (the auth epoch moves with it); `environment` is its integration's. */
  insertApiKey(key: ApiKey & { secretHash: string }): Promise<ApiKey>;
  apiKeyById(id: string): Promise<ApiKey | undefined>;
  /** An integration's keys, oldest first. */
  apiKeysOfIntegration(integrationId: string): Promise<ApiKey[]>;
  /** Revoke a key not revoked yet; one revoked meanwhile is read back with its first time; undefined once deleted. */
  revokeApiKey(key: ApiKey, at: Date): Promise<ApiKey | undefined>;
}
