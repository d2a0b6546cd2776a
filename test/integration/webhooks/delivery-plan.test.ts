import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { poolDatabase } from '../../../server/persistence/kysely.js';
import { DELIVERIES_AT_ONCE } from '../../../server/persistence/sql/webhooks.sql.js';
import { useOneConnectionOrm } from '../../support/database.js';

describe('the plan of a delivery recorded at once', () => {
  const orm = useOneConnectionOrm();

  it('when tracked_payments has no statistics yet, then the delivery looks its payment up by the provider payment id key, not by a scan of the integration', async () => {
    const db = poolDatabase(orm());
    // As in a new database: a plan made now is cached by every pooled connection and kept while the table grows.
    const stats = await sql<{ analyzed: boolean }>`select last_analyze is not null or last_autoanalyze is not null as analyzed
      from pg_stat_user_tables where relname = 'tracked_payments'`.execute(db);
    expect(stats.rows).toEqual([{ analyzed: false }]);
    const text = DELIVERIES_AT_ONCE.build('[]').compile(db).sql;
    const plan = await sql.raw<{ 'QUERY PLAN': string }>(`explain (generic_plan) ${text}`).execute(db);
    const lines = plan.rows.map((row) => row['QUERY PLAN']);
    const scans = lines
      .filter((line) => / Scan .* on tracked_payments /.test(line))
      .map((line) => line.replace(/^\s*(->\s*)?/, '').replace(/\s+\(cost=.*$/, ''));
    expect(scans).toEqual(['Index Only Scan using tracked_payments_integration_id_environment_provi_09b9a_unique on tracked_payments t']);
  });
});
