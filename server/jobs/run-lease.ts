import pg from 'pg';
import { runLeaseKey } from '../persistence/sql/ledger-sync-runs.sql.js';

export interface RunLease {
  /** True once the lease connection broke: the lock may be gone, so the attempt must stop. */
  lost(): boolean;
  release(): Promise<void>;
}

/**
 * Take the run's lease: a PostgreSQL session advisory lock held on a dedicated
 * connection for the whole attempt (docs/ledger-sync.md). A second attempt of the
 * same run (pg-boss retrying an expired job while its first handler still runs)
 * cannot take it; if the worker dies, its connection closes and the lease frees
 * itself. Returns undefined when another attempt holds it.
 */
export async function takeRunLease(databaseUrl: string, runId: string): Promise<RunLease | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'svc ledger run lease' });
  let lost = false;
  client.on('error', () => {
    lost = true;
  });
  client.on('end', () => {
    lost = true;
  });
  await client.connect();
  try {
    const { rows } = await client.query<{ ok: boolean }>(`select pg_try_advisory_lock(hashtextextended($1, 0)) as ok`, [
      runLeaseKey(runId),
    ]);
    if (!rows[0]?.ok) {
      await client.end();
      return undefined;
    }
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
  let released = false;
  return {
    lost: () => lost && !released,
    release: async () => {
      if (released) return;
      released = true;
      // Closing the session releases its advisory locks.
      await client.end().catch(() => undefined);
    },
  };
}
