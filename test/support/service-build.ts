import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';
import { COMPILE_CACHE_PRELOAD } from './compile-cache.js';

/**
 * Node arguments that run one entry of the service (`server/main`, `server/jobs/worker`, `admin/cli`) compiled, as
 * `npm start` and `npm run worker` run it: from the suite's one build (test/support/global-setup.ts). A start through
 * tsx cost about 4 s of CPU and 2.5 s to listen against 1.9 s and 1.4 s compiled, on a suite that is short of CPU.
 */
export function compiledEntry(entry: string, ...args: string[]): string[] {
  const build = inject('serviceBuild');
  return ['--import', pathToFileURL(path.join(build, COMPILE_CACHE_PRELOAD)).href, path.join(build, `${entry}.js`), ...args];
}
