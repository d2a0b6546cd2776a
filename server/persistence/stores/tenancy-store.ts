import type { TenancyStore } from '../../domain/tenancy/ports.js';
import type { Database } from '../kysely.js';
import { apiKeyById, apiKeysOfIntegration, insertApiKey, revokeApiKey } from '../sql/api-keys.sql.js';
import { deleteLink, insertLink, isLinked, listLinks } from '../sql/integration-links.sql.js';
import { insertIntegration, integrationById, integrationsOfOrganization } from '../sql/integrations.sql.js';
import { insertOrganization, listOrganizations, organizationById } from '../sql/organizations.sql.js';
import { isUniqueViolation } from '../sql/unique-violation.js';

export function tenancyStore(db: Database): TenancyStore {
  return {
    insertOrganization: (organization) => insertOrganization(db, organization),
    organizationById: (id) => organizationById(db, id),
    listOrganizations: () => listOrganizations(db),

    insertIntegration: (integration) => insertIntegration(db, integration),
    integrationById: (id) => integrationById(db, id),
    integrationsOfOrganization: (organizationId) => integrationsOfOrganization(db, organizationId),

    insertLink: (link) =>
      insertLink(db, link).catch((err: unknown) => {
        if (isUniqueViolation(err)) return 'exists' as const;
        throw err;
      }),
    deleteLink: (id) => deleteLink(db, id),
    isLinked: (providerIntegrationId) => isLinked(db, providerIntegrationId),
    listLinks: (filter) => listLinks(db, filter),

    insertApiKey: (key) => insertApiKey(db, key),
    apiKeyById: (id) => apiKeyById(db, id),
    apiKeysOfIntegration: (integrationId) => apiKeysOfIntegration(db, integrationId),
    revokeApiKey: (key, at) => revokeApiKey(db, key, at),
  };
}
