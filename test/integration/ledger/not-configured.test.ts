import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/harness.js';
import { createTenant } from '../../support/tenants.js';

const app = useTestApp();

describe('ledger endpoints without accounting-source configuration', () => {
  it('when the service has no ledger runtime, then the invitation endpoint answers 500 (configuration failure)', async () => {
    const tenant = await createTenant(app, { provider: 'ledger', scopes: ['integrations:write'] });
    const res = await app.request('/api/v1/integrations/ledger/invitations', {
      method: 'POST',
      key: tenant.key,
      json: { recipientEmail: 'a@example.test' },
    });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: { type: 'internal_error', message: 'The accounting source is not configured on this service', issues: [] },
    });
  });
});
