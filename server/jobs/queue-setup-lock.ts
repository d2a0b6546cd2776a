import pg from 'pg';

/** The session advisory lock every process takes around the queue's setup (a key of its own namespace). */
export const QUEUE_SETUP_LOCK = { sql: 'select pg_advisory_lock(hashtextextended($1, 0))', params: ['svc_queue_setup'] } as const;

/**
 * Run the job queue's setup (pg-boss installing its schema, creating the
 * queue's partition) in one process at a time. That setup is DDL, and several
 * processes starting together on a fresh database (`SVC_WORKERS`, or several
 * instances behind a load balancer) deadlocked on it: PostgreSQL aborted one,
 * whose start failed ("deadlock detected"). The lock is a PostgreSQL session
 * advisory lock on a connection of its own, so a process that dies while
 * holding it frees it with its connection.
 */
export async function oneProcessAtATime<T>(databaseUrl: string, setup: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'svc queue setup' });
  // A broken connection surfaces as the failed query below; without a listener it would crash the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(QUEUE_SETUP_LOCK.sql, [...QUEUE_SETUP_LOCK.params]);
    return await setup();
  } finally {
    // Closing the session releases the lock.
    await client.end().catch(() => undefined);
  }
}
