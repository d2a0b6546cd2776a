import type { MikroORM } from '@mikro-orm/postgresql';
import path from 'node:path';
import type { Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { createApp } from './http/app.js';
import { listen } from './http/lifecycle.js';
import { resolveAdminToken } from './admin-token.js';
import { apiKeyMac } from './crypto/api-key-mac.js';
import { resolveTokenKey } from './crypto/token-cipher.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './persistence/embedded-postgres.js';
import { databaseOptions, migrate, openOrm } from './persistence/orm.js';
import { poolUnitOfWork } from './persistence/unit-of-work.js';
import { buildLedgerRuntime } from './jobs/ledger-setup.js';
import { rebindLegacyTokens } from './domain/ledger/rebind-legacy-tokens.js';
import { startSyncQueue, type SyncQueue } from './jobs/sync-queue.js';
import { clusterMetricsFromPrimary } from './observability/cluster-metrics.js';

export interface RunningService {
  url: string;
  port: number;
  orm: MikroORM;
  logger: Logger;
  stop(): Promise<void>;
}

/** Describe a database URL without its password. */
export function describeDatabase(url: string): string {
  const parsed = new URL(url);
  return `postgres://${parsed.username ? `${decodeURIComponent(parsed.username)}@` : ''}${parsed.host}${parsed.pathname}`;
}

export async function startService(
  config: Config,
  options: {
    logDestination?: NodeJS.WritableStream;
    quiet?: boolean;
    /** False in the HTTP processes of a cluster: their primary has migrated (server/cluster.ts). */
    migrate?: boolean;
    /** Fields on every log line (a cluster's HTTP process number). */
    logFields?: Record<string, unknown>;
    /** An HTTP process of a cluster: `/metrics` serves the aggregate of all processes, from the primary. */
    clusterMetrics?: boolean;
  } = {},
): Promise<RunningService> {
  const logger = createLogger(config.LOG_LEVEL, options.logDestination as never, options.logFields);
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ dataDir: config.SVC_DATA_DIR, port: config.SVC_EMBEDDED_PG_PORT });
    databaseUrl = embedded.url;
  }
  const orm = await openOrm(databaseUrl, databaseOptions(config));
  let ledger: Awaited<ReturnType<typeof buildLedgerRuntime>> | undefined;
  let queue: SyncQueue | undefined;
  try {
    if (options.migrate !== false) await migrate(orm);
    const admin = resolveAdminToken(config);
    // Accounting source: provider or in-process sandbox, and the sync queue (worker in-process unless LEDGER_WORKER=off).
    ledger = await buildLedgerRuntime(config);
    // Tokens stored before row binding are re-encrypted bound to their connection (docs/decisions.md).
    const rebound = await rebindLegacyTokens(poolUnitOfWork(orm), ledger.runtime.cipher);
    if (rebound) logger.info({ connections: rebound }, 'ledger tokens re-encrypted bound to their connection');
    queue = await startSyncQueue({
      databaseUrl,
      orm,
      runtime: ledger.runtime,
      logger,
      work: ledger.runtime.settings.worker === 'in-process',
    });
    ledger.runtime.queue = queue;
    const ledgerRuntime = ledger.runtime;
    // gwa webhook private keys are encrypted with the same key as the accounting tokens.
    const webhooks = {
      cipher: ledgerRuntime.cipher,
      publicUrl: () => ledgerRuntime.settings.publicUrl,
      environment: config.SVC_ENVIRONMENT,
    };
    const metrics = options.clusterMetrics ? { scrape: clusterMetricsFromPrimary() } : {};
    // Issued API keys carry a tag under a key derived from the token key, which every process and instance shares.
    const keyMac = apiKeyMac(resolveTokenKey(config.SVC_TOKEN_KEY, config.SVC_DATA_DIR));
    const app = createApp({ orm, config, logger, adminToken: admin.token, keyMac, ledger: ledgerRuntime, webhooks, metrics });
    const http = await listen(app, config.PORT, config.HOST);
    const url = `http://localhost:${http.port}`;
    if (!config.SVC_PUBLIC_URL) ledger.runtime.setPublicUrl(url);
    const database = embedded
      ? `embedded PostgreSQL in ${path.relative(process.cwd(), embedded.dataDir) || embedded.dataDir} (${embedded.reused ? 'reused' : 'new'})`
      : describeDatabase(databaseUrl);
    if (!options.quiet) {
      const adminNote = admin.file ? `; admin token in ${path.relative(process.cwd(), admin.file) || admin.file}` : '';
      const accountingSource = ledger.sandbox ? `ledger sandbox at ${ledger.sandbox.url}` : 'ledger provider';
      process.stdout.write(
        `svc listening on ${url} (database: ${database}${adminNote}; accounting source: ${accountingSource}; mail: ${ledger.runtime.mailer.describe()})\n`,
      );
    }
    return {
      url,
      port: http.port,
      orm,
      logger,
      stop: async () => {
        await http.close(config.SVC_SHUTDOWN_TIMEOUT_MS);
        await queue?.stop();
        await ledger?.close();
        await orm.close(true);
        await embedded?.stop();
      },
    };
  } catch (err) {
    await queue?.stop().catch(() => undefined);
    await ledger?.close().catch(() => undefined);
    await orm.close(true);
    await embedded?.stop();
    throw err;
  }
}
