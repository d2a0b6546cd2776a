/**
 * `npm run worker`: the ledger importer alone, for scale. Uses the same
 * configuration as the service and needs DATABASE_URL (the service's database)
 * the provider settings (LEDGER_*), since it does not start a sandbox, and the
 * service's SVC_TOKEN_KEY (it never generates a key of its own).
 */
import { ConfigError, loadConfig, type Config } from '../config.js';
import { startTracing } from '../observability/tracing.js';

let config: Config;
try {
  config = loadConfig();
  if (!config.DATABASE_URL) throw new ConfigError(['DATABASE_URL: must be set for a separate worker (the service database)']);
  if (!config.LEDGER_BASE_URL)
    throw new ConfigError(['LEDGER_BASE_URL: must be set for a separate worker (the sandbox runs only inside the service)']);
  // Generating a key here would encrypt tokens the service cannot read (and vice versa): the key must be shared.
  if (!config.SVC_TOKEN_KEY) throw new ConfigError(['SVC_TOKEN_KEY: must be set for a separate worker (the same key as the service)']);
  if (config.SVC_WORKER_METRICS_PORT !== undefined && !(config.SVC_METRICS_TOKEN ?? config.SVC_ADMIN_TOKEN))
    throw new ConfigError(['SVC_METRICS_TOKEN: must be set (or SVC_ADMIN_TOKEN) to serve the worker metrics']);
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(78);
  }
  throw err;
}
// Traces of the imports (off unless OTEL_EXPORTER_OTLP_ENDPOINT is set) start before the instrumented modules load.
const tracing = await startTracing(config);
const { createLogger } = await import('../logger.js');
const { databaseOptions, openOrm, poolOf } = await import('../persistence/orm.js');
const { buildLedgerRuntime } = await import('./ledger-setup.js');
const { startSyncQueue } = await import('./sync-queue.js');
const logger = createLogger(config.LOG_LEVEL);
const orm = await openOrm(config.DATABASE_URL!, databaseOptions(config));
const ledger = await buildLedgerRuntime(config);
const queue = await startSyncQueue({ databaseUrl: config.DATABASE_URL!, orm, runtime: ledger.runtime, logger, work: true });
// Its sync runs, queue and process metrics, for Prometheus (docs/operations.md).
const metrics =
  config.SVC_WORKER_METRICS_PORT === undefined
    ? undefined
    : await (
        await import('../observability/metrics-server.js')
      ).serveMetrics({
        port: config.SVC_WORKER_METRICS_PORT,
        host: config.HOST,
        token: (config.SVC_METRICS_TOKEN ?? config.SVC_ADMIN_TOKEN)!,
        pool: () => poolOf(orm),
      });
process.stdout.write(`svc worker running (queue ledger-sync${metrics ? `; metrics on port ${metrics.port}` : ''})\n`);
const stop = () =>
  void queue
    .stop()
    .then(() => metrics?.close())
    .then(() => orm.close(true))
    .then(() => tracing?.shutdown())
    .then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
