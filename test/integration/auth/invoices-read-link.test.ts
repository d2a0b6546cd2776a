import { describe, expect, it } from 'vitest';
import { authenticate } from '../../../server/domain/auth/authenticate.js';
import { cachedKeyDirectory } from '../../../server/domain/auth/key-directory.js';
import { sharedReads } from '../../../server/persistence/shared-reads.js';
import { poolDatabase } from '../../../server/persistence/kysely.js';
import { poolUnitOfWork } from '../../../server/persistence/unit-of-work.js';
import { DomainError } from '../../../server/domain/errors.js';
import { useTestApp } from '../../support/harness.js';
import { adminCall } from '../../support/tenants.js';

/**
 * The per-request link check of `invoices:read`, exercised directly through the
 * authenticate() every route guard calls (the invoice routes' own tests cover the
 * HTTP side).
 */
describe('invoices:read needs the link to still exist', () => {
  const app = useTestApp();

  it('when the link is deleted after the key was issued, then the key gets 403 on invoices:read routes from the next request', async () => {
    const org = await adminCall<any>(app, 'organizations.create', { name: 'Linked reader' });
    const gwa = await adminCall<any>(app, 'integrations.create', { organizationId: org.id, provider: 'gwa', environment: 'sandbox' });
    const ledger = await adminCall<any>(app, 'integrations.create', { organizationId: org.id, provider: 'ledger', environment: 'sandbox' });
    const link = await adminCall<any>(app, 'links.create', { ledgerIntegrationId: ledger.id, providerIntegrationId: gwa.id });
    const key = await adminCall<any>(app, 'apiKeys.issue', { integrationId: gwa.id, scopes: ['enrichment:write', 'invoices:read'] });
    const keys = cachedKeyDirectory(poolUnitOfWork(app.orm), sharedReads(poolDatabase(app.orm)).authEpoch);
    const check = () =>
      authenticate(keys, {
        authorization: `Bearer ${key.key}`,
        access: { provider: 'gwa', scopes: ['invoices:read', 'enrichment:write'] },
        environment: 'sandbox',
      });

    const ctx = await check();
    expect(ctx).toMatchObject({ organizationId: org.id, integrationId: gwa.id, provider: 'gwa', environment: 'sandbox' });

    await adminCall(app, 'links.delete', { id: link.id });
    const error = await check().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ type: 'permission_error', message: 'This integration is not linked to an accounting source' });
  });
});
