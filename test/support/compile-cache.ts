/**
 * The file, in the suite's build of the service, that every start from that build preloads (`compiledEntry`): it turns
 * on Node's compile cache, so the starts after the first reuse the modules' compiled code, as `npm start` does
 * (scripts/start.mjs). Written by the global setup (test/support/global-setup.ts).
 */
export const COMPILE_CACHE_PRELOAD = 'compile-cache.mjs';

export const COMPILE_CACHE_SOURCE =
  "import module from 'node:module';\nmodule.enableCompileCache?.(new URL('./.compile-cache', import.meta.url).pathname);\n";
