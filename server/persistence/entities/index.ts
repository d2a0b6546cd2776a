import { ApiKey } from './api-key.entity.js';
import { IntegrationLink } from './integration-link.entity.js';
import { Integration } from './integration.entity.js';
import { Organization } from './organization.entity.js';

export { ApiKey, Integration, IntegrationLink, Organization };
export { ENVIRONMENTS, PROVIDERS, type Environment, type Provider } from './integration.entity.js';

/** Every entity the ORM manages; the migrations must produce exactly their schema. */
export const entities = [Organization, Integration, IntegrationLink, ApiKey];
