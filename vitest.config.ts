import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { ISOLATED_TESTS, PROCESS_TESTS, UNIT_TESTS } from './test/support/vitest/lanes.js';

/**
 * The exit-code test (test/integration/platform/test-runner-exit.test.ts) writes a failing file under
 * `test/exit-check-<pid>/` and runs it with this configuration; the suite's own run must never collect it.
 */
const EXIT_CHECK = process.env.EXIT_CHECK_RUN === '1' ? [] : ['test/exit-check-*/**'];

/** Every lane's limits (projects do not inherit the root's test options). */
const timeouts = { testTimeout: 30_000, hookTimeout: 60_000 };

/**
 * The whole suite in four lanes (test/support/vitest/lanes.ts): unit tests in threads sharing their
 * modules, integration tests against a real PostgreSQL started once per run by the global setup
 * (embedded, or TEST_DATABASE_URL / DATABASE_URL when set; each file clones its own database from a
 * migrated template), process tests, and the files that need a process of their own. docs/performance.md, "Test suite".
 */
export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // The suite waits mostly on PostgreSQL, HTTP and child processes: two workers at least, also on 2 cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: (await import('./test/support/vitest/lanes-first-sequencer.js')).default },
    reporters: ['default', './test/support/vitest/slowest-files-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: UNIT_TESTS,
          pool: 'threads',
          isolate: false,
          ...timeouts,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT_TESTS, ...PROCESS_TESTS, ...ISOLATED_TESTS, ...EXIT_CHECK],
          pool: 'forks',
          isolate: false,
          ...timeouts,
        },
      },
      {
        test: {
          name: 'process',
          include: PROCESS_TESTS,
          pool: 'forks',
          isolate: false,
          ...timeouts,
        },
      },
      {
        test: {
          name: 'isolated',
          include: ISOLATED_TESTS,
          pool: 'forks',
          ...timeouts,
        },
      },
    ],
  },
});
