import type { Environment, Provider, Scope } from '../../contract/common/index.js';
import type { TestApp } from './harness.js';

export interface Tenant {
  organizationId: string;
  integrationId: string;
  provider: Provider;
  environment: Environment;
  key: string;
  keyId: string;
}

let counter = 0;

async function call<T>(app: Pick<TestApp, 'admin'>, procedure: string, input: unknown): Promise<T> {
  const res = await app.admin<T>(procedure, input);
  if (res.status !== 200) throw new Error(`${procedure} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * A fresh organization with one integration and one key, created through the
 * real operator surface (no shortcuts into the database).
 */
export async function createTenant(
  app: Pick<TestApp, 'admin'>,
  options: { provider: Provider; scopes: Scope[]; environment?: Environment; organizationId?: string },
): Promise<Tenant> {
  const environment = options.environment ?? 'sandbox';
  const organizationId =
    options.organizationId ?? (await call<{ id: string }>(app, 'organizations.create', { name: `Org ${++counter}` })).id;
  const integration = await call<{ id: string }>(app, 'integrations.create', { organizationId, provider: options.provider, environment });
  const key = await call<{ id: string; key: string }>(app, 'apiKeys.issue', { integrationId: integration.id, scopes: options.scopes });
  return { organizationId, integrationId: integration.id, provider: options.provider, environment, key: key.key, keyId: key.id };
}

/** Another key on an existing integration. */
export async function issueKey(app: Pick<TestApp, 'admin'>, integrationId: string, scopes: Scope[]): Promise<{ id: string; key: string }> {
  return call(app, 'apiKeys.issue', { integrationId, scopes });
}

export { call as adminCall };
