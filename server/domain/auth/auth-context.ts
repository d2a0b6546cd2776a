import type { Environment, Provider, Scope } from '../../../contract/common/index.js';

/** What an authenticated API key fixes for a request: tenant, integration, environment and scopes. */
export interface AuthContext {
  apiKeyId: string;
  organizationId: string;
  integrationId: string;
  provider: Provider;
  environment: Environment;
  scopes: readonly Scope[];
}
