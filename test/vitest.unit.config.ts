import { defineConfig } from 'vitest/config';

/** Pure-domain tests only: no database, no server. `npm run test:unit`. */
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    root: new URL('..', import.meta.url).pathname,
  },
});
