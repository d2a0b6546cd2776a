/**
 * `npm start`: config → database (embedded by default) → migrations → HTTP.
 * Prints one start-up line; SIGINT/SIGTERM shut down gracefully.
 */
import { ConfigError, loadConfig, type Config } from './config.js';
import { startService } from './service.js';

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

try {
  const service = await startService(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    service
      .stop()
      .then(() => {
        service.logger.info({ signal }, 'stopped');
        process.exit(0);
      })
      .catch((err: unknown) => {
        service.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
} catch (err) {
  console.error(`svc failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
