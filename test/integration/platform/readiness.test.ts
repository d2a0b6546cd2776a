import { randomBytes } from 'node:crypto';
import { apiKeyMac } from '../../../server/crypto/api-key-mac.js';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../server/config.js';
import { createApp } from '../../../server/http/app.js';
import { listen } from '../../../server/http/lifecycle.js';
import { createLogger } from '../../../server/logger.js';
import { migrate, openOrm } from '../../../server/persistence/orm.js';
import { createTestDatabase } from '../../support/database.js';
import { LogCapture, TEST_ADMIN_TOKEN } from '../../support/harness.js';

describe('/readyz', () => {
  it('when migrations are pending, then 503 until they are applied; /healthz answers throughout', async () => {
    const db = await createTestDatabase({ migrated: false });
    const orm = await openOrm(db.url);
    const config = ConfigSchema.parse({ DATABASE_URL: db.url, SVC_ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    const server = await listen(
      createApp({
        orm,
        config,
        logger: createLogger('info', new LogCapture()),
        adminToken: TEST_ADMIN_TOKEN,
        keyMac: apiKeyMac(randomBytes(32)),
      }),
      0,
      '127.0.0.1',
    );
    const url = `http://127.0.0.1:${server.port}`;
    try {
      const pending = await fetch(`${url}/readyz`);
      expect(pending.status).toBe(503);
      expect(await pending.json()).toEqual({
        error: { type: 'service_unavailable', message: expect.stringMatching(/^\d+ database migration\(s\) not applied$/), issues: [] },
      });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      await migrate(orm);
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });
    } finally {
      await server.close(1000);
      await orm.close(true);
      await db.drop();
    }
  });
});
