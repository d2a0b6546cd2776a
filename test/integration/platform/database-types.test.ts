import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderDatabaseTypes } from '../../../server/persistence/db/render-database-types.js';
import { openOrm } from '../../../server/persistence/orm.js';
import { poolSql } from '../../../server/persistence/sql/sql.js';
import { createTestDatabase } from '../../support/database.js';

describe('database types', () => {
  it('when the migrations are applied, then the committed table types are exactly what the schema declares (npm run db:types)', async () => {
    const db = await createTestDatabase();
    const orm = await openOrm(db.url);
    try {
      const committed = readFileSync(new URL('../../../server/persistence/db/database.generated.ts', import.meta.url), 'utf8');
      const rendered = await renderDatabaseTypes(poolSql(orm));
      expect(rendered).toBe(committed);
      // The check constraints become literal unions, so enum columns are typed as the contract's values.
      expect(rendered).toMatch(/export interface PreparationsTable \{[^}]*\n {2}environment: 'sandbox' \| 'production';/);
      expect(rendered).toMatch(/export interface LedgerSyncRunsTable \{[^}]*\n {2}mode: 'historical' \| 'incremental' \| 'full';/);
    } finally {
      await orm.close(true);
      await db.drop();
    }
  });
});
