import type { Environment, Provider, Scope } from '../../../contract/common/index.js';

/** An organization: the merchant that owns integrations (table `organizations`). */
export interface Organization {
  readonly id: string;
  readonly name: string;
  readonly status: 'active' | 'inactive';
  readonly createdAt: Date;
}

/** One organization's account at one provider in one environment (table `integrations`); keys are issued per integration. */
export interface Integration {
  readonly id: string;
  readonly organizationId: string;
  readonly provider: Provider;
  readonly environment: Environment;
  readonly createdAt: Date;
}

/** An operator-made link between a ledger integration and a payment-provider integration (table `integration_links`). */
export interface IntegrationLink {
  readonly id: string;
  readonly ledgerIntegrationId: string;
  readonly providerIntegrationId: string;
  readonly createdAt: Date;
}

/** An API key as operators see it (table `api_keys`); the secret's hash never leaves persistence. */
export interface ApiKey {
  readonly id: string;
  readonly integrationId: string;
  /** The environment of the key's integration: part of the key's displayed prefix. */
  readonly environment: Environment;
  /** The lookup handle without its `svck_<environment>_` display part. */
  readonly prefix: string;
  readonly scopes: readonly Scope[];
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
}
