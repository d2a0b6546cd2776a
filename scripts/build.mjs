// `npm run build`: compile the service to dist/ (tsc with tsconfig.build.json) and copy beside it the files it
// reads at run time that tsc does not emit. Plain JavaScript, so `npm start` can check and build with Node alone.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.build-stamp.json');

/** What dist/ is built from: a change to any of these (newer, added or removed) makes it stale. */
const SOURCE_DIRS = ['contract', 'server', 'admin'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/build.mjs'];

/**
 * Read at run time through `new URL(..., import.meta.url)` or by path, so they must sit at the same place
 * under dist/: the console's sources (bundled by esbuild on first request, admin/console/assets.ts) and the
 * ledger sandbox's example fixture. Migrations are imported statically (server/persistence/migrations/index.ts).
 */
const RUNTIME_FILES = ['admin/console/ui', 'server/ledger-sandbox/fixtures'];

function sourceFiles() {
  const files = SOURCE_FILES.map((f) => path.join(ROOT, f));
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(full);
    }
  };
  for (const dir of SOURCE_DIRS) walk(path.join(ROOT, dir));
  return files;
}

/** Why dist/ must be built again, or undefined when it is up to date with its sources. */
export function staleReason() {
  if (!existsSync(STAMP)) return 'dist/ is missing';
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return 'dist/ has no valid build stamp';
  }
  const files = sourceFiles();
  if (files.length !== stamp.files) return 'source files were added or removed';
  const newer = files.find((f) => statSync(f).mtimeMs > stamp.startedAt);
  return newer ? `${path.relative(ROOT, newer)} changed` : undefined;
}

/**
 * The service compiled into `out` (emptied first), with the files it reads at run time beside it. Also the test
 * suite's one build of the service (test/support/global-setup.ts, `--out`).
 */
export function compile(out) {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    throw new Error('dist/ must be built but TypeScript is not installed (dev dependencies omitted): run `npm ci && npm run build` first');
  }
  rmSync(out, { recursive: true, force: true });
  // Emit only: the types are checked by `npm run typecheck` (a step of `npm test` and of CI). With every file
  // compilable alone (`isolatedModules`), what tsc emits does not depend on them, and a fresh `npm start` builds in
  // about 4 s instead of 15 (docs/decisions.md, "The build emits, the type-check checks").
  const compiled = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), '--noCheck', '--outDir', out], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (compiled.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    throw new Error(`tsc failed (exit ${compiled.status ?? compiled.signal})`);
  }
  for (const file of RUNTIME_FILES) {
    mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(out, file), { recursive: true });
  }
}

/** Compile into a fresh folder and swap it in, so a failed build leaves the previous dist/ in place. */
export function build() {
  const startedAt = Date.now();
  const files = sourceFiles().length;
  const out = path.join(ROOT, `dist.build-${process.pid}`);
  compile(out);
  writeFileSync(path.join(out, '.build-stamp.json'), JSON.stringify({ startedAt, files }));
  rmSync(DIST, { recursive: true, force: true });
  renameSync(out, DIST);
}

// `node scripts/build.mjs` builds dist/; `node scripts/build.mjs --out <dir>` only compiles into <dir>.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const started = Date.now();
  const at = process.argv.indexOf('--out');
  const out = at === -1 ? undefined : process.argv[at + 1];
  if (at !== -1 && !out) {
    process.stderr.write('--out needs the folder to compile into\n');
    process.exit(2);
  }
  if (out === undefined) build();
  else compile(path.resolve(out));
  process.stdout.write(`built ${out ?? 'dist/'} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
