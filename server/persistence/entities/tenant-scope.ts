import { p } from '@mikro-orm/core';
import { ENVIRONMENTS, Integration } from './integration.entity.js';
import { Organization } from './organization.entity.js';

/**
 * The columns that tie a record to its tenant: a UUID id, the organization,
 * the integration and the environment. Every tenant-owned table starts with
 * them; queries always filter on them (identifiers in bodies are never tenant
 * selectors). A function, so each entity gets its own property builders.
 */
export function tenantScope() {
  return {
    id: p
      .uuid()
      .primary()
      .onCreate(() => crypto.randomUUID()),
    organization: () => p.manyToOne(Organization),
    integration: () => p.manyToOne(Integration),
    environment: p.enum([...ENVIRONMENTS]),
  };
}
