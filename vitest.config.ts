import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The whole suite: unit tests (pure domain) and integration tests against a
 * real PostgreSQL started once per run by the global setup (embedded, or
 * TEST_DATABASE_URL / DATABASE_URL when set). Each test file gets its own
 * freshly migrated database cloned from a template.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on the 2-core CI machine, one, and the
    // suite ran file after file while its time went mostly to waiting on PostgreSQL, HTTP and child
    // processes. Two at least (docs/performance.md, "Test suite").
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
