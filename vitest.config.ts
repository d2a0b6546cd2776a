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
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
