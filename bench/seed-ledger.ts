/**
 * Set-up data for the benches that read stored invoices, in its own short-lived process (never the bench's, never
 * the service's): `tsx bench/seed-ledger.ts '<json>'` with `{ databaseUrl, invoices, items, lines, realmId }` connects
 * to the service's database directly, generates a sandbox company of that size (served by a ledger sandbox in a
 * process of its own), connects it to a new organization's ledger integration and imports it with the real importer, then prints
 * `{ organizationId, integrationId, realmId }` as JSON and exits. The service must have migrated the database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importRun } from '../server/domain/ledger/import-run.js';
import { createLogger } from '../server/logger.js';
import { openOrm } from '../server/persistence/orm.js';
import { poolUnitOfWork } from '../server/persistence/unit-of-work.js';
import { queuedImport } from './ledger-support.js';

const input = JSON.parse(process.argv[2]!) as { databaseUrl: string; invoices: number; items: number; lines: number; realmId: string };
const scratch = mkdtempSync(path.join(tmpdir(), 'svc-bench-seed-'));
const orm = await openOrm(input.databaseUrl, { pool: { min: 1, max: 4 } });
try {
  const q = await queuedImport(orm, input.databaseUrl, { ...input, outboxDir: scratch });
  try {
    const outcome = await importRun(poolUnitOfWork(orm), q.runtime, { runId: q.runId, maxAttempts: 1, logger: createLogger('warn') });
    if (outcome !== 'done') throw new Error(`import did not complete: ${outcome}`);
  } finally {
    await q.sandbox.close();
  }
  process.stdout.write(JSON.stringify({ organizationId: q.organizationId, integrationId: q.integrationId, realmId: q.realmId }));
} finally {
  await orm.close(true);
  rmSync(scratch, { recursive: true, force: true });
}
