/**
 * The suite's four lanes (vitest projects; docs/performance.md, "Test suite").
 *
 * - unit: no database and no child process; threads, one module graph per worker (no per-file isolation).
 * - process: tests that start the service or another program (a build, a CLI, a worker, a browser, a
 *   second PostgreSQL): forks sharing their modules (what a file spends is in its children), started
 *   first so the longest files never start last.
 * - isolated: tests of process-wide state, each file in a fresh fork.
 * - integration: everything else, against the run's PostgreSQL through the in-process app; forks.
 */
export const PROCESS_TESTS = [
  'test/browser/console.test.ts',
  'test/integration/admin/admin-cli.test.ts',
  'test/integration/ledger/reaper.test.ts',
  'test/integration/platform/compiled-start.test.ts',
  'test/integration/platform/embedded-postgres-as-root.test.ts',
  'test/integration/platform/lifecycle.test.ts',
  'test/integration/platform/metrics-cluster.test.ts',
  'test/integration/platform/test-runner-exit.test.ts',
  'test/integration/platform/token-key.test.ts',
  'test/integration/reliability/crash-preparations.test.ts',
  'test/integration/reliability/crash-reports.test.ts',
  'test/integration/reliability/outage-database.test.ts',
  'test/integration/reliability/rate-limit-processes.test.ts',
  'test/integration/webhooks/gwa-webhook.test.ts',
  'test/openapi/openapi-document.test.ts',
  'test/sdk/package.test.ts',
];

/**
 * Process-wide state a shared module graph would carry over from other files: exact counts of the metrics
 * registry, and the global tracer with its instrumentation of modules as they load.
 */
export const ISOLATED_TESTS = [
  'test/integration/platform/metrics.test.ts',
  'test/integration/platform/tracing.test.ts',
  'test/integration/platform/tracing-ledger.test.ts',
];

/** Files outside test/unit/ that need neither the database nor a child process. */
export const UNIT_TESTS = [
  'test/unit/**/*.test.ts',
  'test/docs/**/*.test.ts',
  'test/integration/ledger/sandbox.test.ts',
  'test/integration/platform/openapi.test.ts',
  'test/sdk/coverage.test.ts',
  'test/sdk/ids.test.ts',
  'test/sdk/merge.test.ts',
  'test/sdk/readme-routes.test.ts',
  'test/sdk/retry.test.ts',
];

/** The order lanes start in: the long process files first, the short unit files fill the end. */
export const LANE_ORDER = ['process', 'isolated', 'integration', 'unit'];
