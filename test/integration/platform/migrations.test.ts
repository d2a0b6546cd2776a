import { describe, expect, it } from 'vitest';
import { migrate, openOrm, pendingMigrations } from '../../../server/persistence/orm.js';
import { migrationsList } from '../../../server/persistence/migrations/index.js';
import { createTestDatabase } from '../../support/database.js';

describe('migrations', () => {
  it('when applied to an empty database, then all apply, none stay pending and the entities match the schema', async () => {
    const db = await createTestDatabase({ migrated: false });
    const orm = await openOrm(db.url);
    try {
      expect(await pendingMigrations(orm)).toEqual(migrationsList.map((m) => m.name));
      const applied = await migrate(orm);
      expect(applied).toEqual(migrationsList.map((m) => m.name));
      expect(await pendingMigrations(orm)).toEqual([]);
      // No difference between what the entities declare and what the migrations built.
      const diff = await orm.schema.getUpdateSchemaSQL({ wrap: false });
      expect(diff.trim()).toBe('');
      // A second run is a no-op.
      expect(await migrate(orm)).toEqual([]);
    } finally {
      await orm.close(true);
      await db.drop();
    }
  });

  it('when payment observations exist, then the database refuses to update or delete them', async () => {
    const db = await createTestDatabase();
    const orm = await openOrm(db.url);
    try {
      const conn = orm.em.getConnection();
      await expect(conn.execute(`update payment_observations set status = 'failed'`)).resolves.toBeDefined();
      await conn.execute(
        `insert into organizations (id, name, status, created_at) values ('00000000-0000-4000-8000-000000000001', 'o', 'active', now())`,
      );
      await conn.execute(
        `insert into integrations (id, organization_id, provider, environment, created_at) values ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'gwc', 'sandbox', now())`,
      );
      await conn.execute(
        `insert into tracked_payments (id, organization_id, integration_id, environment, provider, attempt_id, observation_count, created_at, updated_at) values ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', 'sandbox', 'gwc', 'a', 0, now(), now())`,
      );
      await conn.execute(
        `insert into payment_observations (id, organization_id, integration_id, environment, provider, event_id, payload_hash, payload, tracked_payment_id, attempt_id, status, currency, amount_minor, captured_amount_minor, refunded_amount_minor, occurred_at, request_id, received_at) values ('00000000-0000-4000-8000-000000000004', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', 'sandbox', 'gwc', 'e', '${'0'.repeat(64)}', '{}', '00000000-0000-4000-8000-000000000003', 'a', 'captured', 'usd', 1, 1, 0, now(), 'r', now())`,
      );
      await expect(conn.execute(`update payment_observations set status = 'failed'`)).rejects.toThrow(/append-only \(UPDATE refused\)/);
      await expect(conn.execute(`delete from payment_observations`)).rejects.toThrow(/append-only \(DELETE refused\)/);
      const rows = await conn.execute(`select status from payment_observations`);
      expect(rows).toEqual([{ status: 'captured' }]);
    } finally {
      await orm.close(true);
      await db.drop();
    }
  });
  it('when sync runs and source records exist before the tenant-scope migration, then it backfills their tenant columns from the connection', async () => {
    const db = await createTestDatabase({ migrated: false });
    const orm = await openOrm(db.url);
    try {
      const migrator = orm.migrator;
      await migrator.up({ to: 'Migration20261123094319_invitation_api_key' });
      const conn = orm.em.getConnection();
      const [org, integration, connection, run] = ['a1', 'a2', 'a3', 'a4'].map((n) => `00000000-0000-4000-8000-0000000000${n}`);
      await conn.execute(`insert into organizations (id, name, status, created_at) values (?, 'o', 'active', now())`, [org]);
      await conn.execute(
        `insert into integrations (id, organization_id, provider, environment, created_at) values (?, ?, 'ledger', 'production', now())`,
        [integration, org],
      );
      await conn.execute(
        `insert into ledger_connections (id, organization_id, integration_id, environment, realm_id, status, access_token_enc, refresh_token_enc, access_token_expires_at, created_at, updated_at)
         values (?, ?, ?, 'production', '9130', 'active', '', '', now(), now(), now())`,
        [connection, org, integration],
      );
      await conn.execute(
        `insert into ledger_sync_runs (id, connection_id, workflow_run_id, state, mode, full_reconciliation, period_end, entities, attempts, created_at)
         values (?, ?, ?, 'succeeded', 'historical', false, now(), '{}', 1, now())`,
        [run, connection, crypto.randomUUID()],
      );
      await conn.execute(
        `insert into ledger_source_records (id, connection_id, entity_type, source_id, deleted, payload, sync_run_id, created_at, updated_at)
         values (?, ?, 'Invoice', '1001', false, '{}', ?, now(), now())`,
        [crypto.randomUUID(), connection, run],
      );
      await migrate(orm);
      const scope = { organization_id: org, integration_id: integration, environment: 'production' };
      expect(await conn.execute(`select organization_id, integration_id, environment from ledger_sync_runs`)).toEqual([scope]);
      expect(await conn.execute(`select organization_id, integration_id, environment from ledger_source_records`)).toEqual([scope]);
      // The run a source record names must exist now.
      await expect(
        conn.execute(
          `insert into ledger_source_records (id, organization_id, integration_id, environment, connection_id, entity_type, source_id, deleted, payload, sync_run_id, created_at, updated_at)
           values (?, ?, ?, 'production', ?, 'Invoice', '1002', false, '{}', ?, now(), now())`,
          [crypto.randomUUID(), org, integration, connection, crypto.randomUUID()],
        ),
      ).rejects.toThrow(/ledger_source_records_sync_run_id_foreign/);
    } finally {
      await orm.close(true);
      await db.drop();
    }
  });
});
