import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { ISOLATED_TESTS, PROCESS_TESTS, UNIT_TESTS } from './test/support/vitest/lanes.js';

/**
 * The exit-code test (test/integration/platform/test-runner-exit.test.ts) writes a failing file under
 * `test/exit-check-<pid>/` and runs it with this configuration; the suite's own run must never collect it.
 */
const EXIT_CHECK = process.env.EXIT_CHECK_RUN === '1' ? [] : ['test/exit-check-*/**'];

const PROCESS_WORKERS = Math.max(2, availableParallelism() - 1);
/**
 * The other lanes wait mostly on PostgreSQL and in-process HTTP: one worker more (on 2 cores, 56 s for the integration
 * lane against 66 s with two; four gain nothing). Vitest runs lanes of different worker counts as groups, one after the
 * other: the process lane first (group 0), then the rest (group 1).
 */
const IN_PROCESS_LANES = { sequence: { groupOrder: 1 }, maxWorkers: PROCESS_WORKERS + 1 };

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
    // The process lane's files are busy in their children: two workers at least, also on 2 cores.
    maxWorkers: PROCESS_WORKERS,
    sequence: { sequencer: (await import('./test/support/vitest/lanes-first-sequencer.js')).default },
    reporters: ['default', './test/support/vitest/slowest-files-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          ...IN_PROCESS_LANES,
          include: UNIT_TESTS,
          pool: 'threads',
          isolate: false,
          ...timeouts,
        },
      },
      {
        test: {
          name: 'integration',
          ...IN_PROCESS_LANES,
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
          sequence: { groupOrder: 0 },
          include: PROCESS_TESTS,
          pool: 'forks',
          isolate: false,
          ...timeouts,
        },
      },
      {
        test: {
          name: 'isolated',
          ...IN_PROCESS_LANES,
          include: ISOLATED_TESTS,
          pool: 'forks',
          ...timeouts,
        },
      },
    ],
  },
});
