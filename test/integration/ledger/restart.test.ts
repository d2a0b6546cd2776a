import { chmodSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../server/config.js';
import { startService, type RunningService } from '../../../server/service.js';
import { freePort } from '../../support/free-port.js';
import { httpClient, TEST_ADMIN_TOKEN } from '../../support/harness.js';
import { approveOnSandboxPage, invite, waitForRun } from '../../support/ledger-flow.js';
import { createTenant } from '../../support/tenants.js';
import { scratchDir } from '../../support/scratch.js';

/**
 * `npm start`'s embedded default (embedded PostgreSQL, in-process ledger sandbox, outbox,
 * generated token key, all under SVC_DATA_DIR) stopped and started again, as a user does:
 * the sandbox keeps the tokens it issued in `<SVC_DATA_DIR>/ledger-sandbox.json`, so the
 * connection keeps working without a new invitation, as with the real provider.
 */
const dataDir = scratchDir('svc-restart-');
chmodSync(dataDir, 0o755); // the embedded cluster runs as `postgres` when the tests run as root
let service: RunningService | undefined;
const client = httpClient(() => service!.url);

afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded default across a restart', () => {
  // Two starts of the service with an embedded cluster each: seconds apiece on a loaded 2-core machine.
  it(
    'when the service is started, connected, synced, stopped and started again, then the same connection syncs again',
    { timeout: 90_000 },
    async () => {
      const config = ConfigSchema.parse({
        PORT: '0',
        HOST: '127.0.0.1',
        SVC_DATA_DIR: dataDir,
        SVC_EMBEDDED_PG_PORT: String(await freePort()),
        SVC_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        LOG_LEVEL: 'silent',
      });
      service = await startService(config, { quiet: true });
      const tenant = await createTenant(client, { provider: 'ledger', scopes: ['integrations:write', 'integrations:read'] });
      const invited = await invite(client, tenant, { recipientEmail: 'books@acme.test' });
      expect(invited.status).toBe(201);
      expect((await approveOnSandboxPage(invited.body.invitation.connectUrl)).callback.status).toBe(200);
      const [connection] = (await client.admin<any[]>('connections.list', {})).body;
      const sync = () => client.request(`/api/v1/integrations/ledger/${connection.connectionId}/sync`, { method: 'POST', key: tenant.key });
      expect((await sync()).status).toBe(202);
      const first = await waitForRun(client, tenant, connection.connectionId);
      expect([first.state, first.mode, first.entities.Invoice.created]).toEqual(['succeeded', 'historical', 32]);
      await service.stop();
      service = undefined;

      service = await startService(config, { quiet: true });
      expect((await client.admin<any[]>('connections.list', {})).body.map((c) => [c.id, c.connectionId, c.status])).toEqual([
        [connection.id, connection.connectionId, 'active'],
      ]);
      expect((await sync()).status).toBe(202);
      const second = await waitForRun(client, tenant, connection.connectionId);
      expect([second.state, second.mode, second.entities.Invoice.created, second.error ?? null]).toEqual([
        'succeeded',
        'incremental',
        0,
        null,
      ]);
      // It holds the sandbox's client secret and tokens.
      expect(statSync(path.join(dataDir, 'ledger-sandbox.json')).mode & 0o777).toBe(0o600);
    },
  );
});
