/**
 * The file, in the suite's build of the service, that every start from that build preloads (`compiledEntry`): it turns
 * on Node's compile cache, so the starts after the first reuse the modules' compiled code, as `npm start` does
 * (scripts/start.mjs). Written by the global setup (test/support/global-setup.ts).
 */
export const COMPILE_CACHE_PRELOAD = 'compile-cache.mjs';

/**
 * The preload's source. The cache lives outside node_modules/, which a test copies with hard links while the suite's
 * processes write to the cache (test/integration/platform/embedded-postgres-as-root.test.ts).
 */
export const compileCacheSource = (cacheDir: string) =>
  `import module from 'node:module';\nmodule.enableCompileCache?.(${JSON.stringify(cacheDir)});\n`;
