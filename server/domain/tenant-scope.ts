import type { Environment } from '../../contract/common/index.js';

/** The tenant an operation acts for: every tenant-owned table carries these columns; writes set them and reads filter on them. */
export interface TenantScope {
  organizationId: string;
  integrationId: string;
  environment: Environment;
}
