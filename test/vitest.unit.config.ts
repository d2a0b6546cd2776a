import { defineConfig } from 'vitest/config';
import { UNIT_TESTS } from './support/vitest/lanes.js';

/** The unit lane alone (no database, no server), without the run's PostgreSQL: `npm run test:unit`. */
export default defineConfig({
  test: {
    include: UNIT_TESTS,
    root: new URL('..', import.meta.url).pathname,
    pool: 'threads',
    isolate: false,
    testTimeout: 30_000,
  },
});
