/**
 * `npm start`: config → database (embedded by default) → migrations → HTTP.
 * Prints one start-up line; SIGINT/SIGTERM shut down gracefully. With
 * SVC_WORKERS > 1 this process is the cluster's primary (server/cluster.ts)
 * and its forks run the HTTP part.
 */
import cluster from 'node:cluster';
import { ConfigError, loadConfig, workerCount, type Config } from './config.js';
import { startTracing } from './observability/tracing.js';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(78);
  }
  throw err;
}

// Traces (off unless OTEL_EXPORTER_OTLP_ENDPOINT is set) start before the service's modules load: see tracing.ts.
const workers = workerCount(config.SVC_WORKERS);
const tracing = cluster.isPrimary && workers > 1 ? undefined : await startTracing(config);
const { runPrimary } = await import('./cluster.js');
const { startService } = await import('./service.js');

try {
  if (cluster.isPrimary && workers > 1) {
    await runPrimary(config, workers);
  } else {
    await serve(config);
  }
} catch (err) {
  console.error(`svc failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

async function serve(config: Config): Promise<void> {
  // The handlers are in place before the start-up line is printed: a signal right after it still drains. During
  // start-up there is nothing to drain, so a signal ends the process as it would without a handler.
  const started: { stop?: (signal: string) => void } = {};
  const onSignal = (signal: NodeJS.Signals) => {
    if (started.stop) return started.stop(signal);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const service = await startService(
    config,
    cluster.worker ? { migrate: false, quiet: true, logFields: { process: cluster.worker.id }, clusterMetrics: true } : {},
  );
  let stopping = false;
  started.stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    service
      .stop()
      .then(() => {
        service.logger.info({ signal }, 'stopped');
        return tracing?.shutdown();
      })
      .then(() => {
        process.exit(0);
      })
      .catch((err: unknown) => {
        service.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
}
