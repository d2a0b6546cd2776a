import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { resolveAdminToken } from './admin-token.js';
import { ledgerSettings, type Config } from './config.js';
import { resolveTokenKey } from './crypto/token-cipher.js';
import type { LedgerSandbox } from './ledger-sandbox/sandbox.js';
import { createLogger } from './logger.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './persistence/embedded-postgres.js';
import { migrate, openOrm } from './persistence/orm.js';
import { describeDatabase } from './service.js';
import { startEmbeddedSandbox } from './jobs/ledger-setup.js';

import { serveClusterMetrics } from './observability/cluster-metrics.js';

/**
 * The primary of `SVC_WORKERS` > 1: it does once what must happen once —
 * start the embedded database, migrate, create the admin token and token key
 * files, start the in-process ledger sandbox (which holds its state in memory,
 * so the processes must share one) — then forks the HTTP processes, which
 * share PORT through node:cluster and get the shared parts as settings. Only
 * the first runs the in-process sync worker; a process that dies is replaced
 * in the same role. SIGTERM/SIGINT: every process drains and stops (as a
 * single process does), then the shared parts stop; exit 0 when all did.
 */
export async function runPrimary(config: Config, count: number): Promise<void> {
  const logger = createLogger(config.LOG_LEVEL);
  let embedded: EmbeddedDatabase | undefined;
  let sandbox: LedgerSandbox | undefined;
  const stopShared = async () => {
    await sandbox?.close();
    await embedded?.stop();
  };
  const shared: Record<string, string> = {};
  let adminTokenFile: string | undefined;
  try {
    let databaseUrl = config.DATABASE_URL;
    if (!databaseUrl) {
      embedded = await startEmbeddedPostgres({ dataDir: config.SVC_DATA_DIR, port: config.SVC_EMBEDDED_PG_PORT });
      databaseUrl = embedded.url;
    }
    shared.DATABASE_URL = databaseUrl;
    const orm = await openOrm(databaseUrl);
    try {
      await migrate(orm);
    } finally {
      await orm.close(true);
    }
    adminTokenFile = resolveAdminToken(config).file;
    resolveTokenKey(config.SVC_TOKEN_KEY, config.SVC_DATA_DIR);
    if (ledgerSettings(config).embeddedSandbox) {
      sandbox = await startEmbeddedSandbox(config);
      Object.assign(shared, {
        LEDGER_BASE_URL: sandbox.urls.api,
        LEDGER_AUTH_URL: sandbox.urls.authorize,
        LEDGER_TOKEN_URL: sandbox.urls.token,
        LEDGER_REVOKE_URL: sandbox.urls.revoke,
        LEDGER_CLIENT_ID: sandbox.clientId,
        LEDGER_CLIENT_SECRET: sandbox.clientSecret,
      });
    }
  } catch (err) {
    await stopShared();
    throw err;
  }

  const syncWorker = ledgerSettings(config).worker;
  const roles = new Map<Worker, number>();
  let stopping = false;
  let failed = false;
  const fork = (index: number) => {
    // SVC_WORKERS=1 in each process: it serves, it does not fork again.
    const worker = cluster.fork({ ...shared, SVC_WORKERS: '1', LEDGER_WORKER: index === 0 ? syncWorker : 'off' });
    roles.set(worker, index);
  };
  cluster.on('exit', (worker, code, signal) => {
    const index = roles.get(worker)!;
    roles.delete(worker);
    if (stopping) {
      failed ||= code !== 0;
      return;
    }
    logger.error({ process: index, code, signal }, 'HTTP process exited; starting a replacement');
    fork(index);
  });
  let listening = 0;
  cluster.on('listening', (_worker, address) => {
    if (++listening !== count) return;
    const database = embedded
      ? `embedded PostgreSQL in ${path.relative(process.cwd(), embedded.dataDir) || embedded.dataDir}`
      : describeDatabase(shared.DATABASE_URL!);
    const source = sandbox ? `ledger sandbox at ${sandbox.url}` : 'ledger provider';
    // Same start-up line as one process: where the operator finds the admin token, never the token.
    const adminNote = adminTokenFile ? `; admin token in ${path.relative(process.cwd(), adminTokenFile) || adminTokenFile}` : '';
    process.stdout.write(
      `svc listening on http://localhost:${address.port} (${count} processes; database: ${database}${adminNote}; accounting source: ${source})\n`,
    );
  });
  // `/metrics` in any HTTP process answers with the aggregate of all of them, collected here.
  serveClusterMetrics();
  for (let i = 0; i < count; i++) fork(i);

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const exited = [...roles.keys()].map((w) => new Promise((resolve) => w.once('exit', resolve)));
    for (const worker of roles.keys()) worker.process.kill('SIGTERM');
    Promise.all(exited)
      .then(stopShared)
      .then(() => {
        logger.info({ signal }, 'stopped');
        process.exit(failed ? 1 : 0);
      })
      .catch((err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
